// The differential mode against reference nodes: two clean nodes started with the same seed at the
// same (manual) time hold the same ledger, so no difference is reported; a node with a fault that
// changes read answers is reported at exactly the reads the fault changes, in JSON and in BCS.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiContract } from "../../src/harness/openapi.ts";
import { runDifferential, type DifferentialResult } from "../../src/harness/differential/differential-run.ts";
import { comparedRequests, NOT_COMPARED } from "../../src/harness/differential/compared-requests.ts";
import { ManualClock } from "../../src/node/ledger/clock.ts";
import { startNode, type RunningNode } from "../../src/node/index.ts";

const START_MS = Date.UTC(2026, 0, 1);
const contract = ApiContract.load();
const nodes: RunningNode[] = [];

async function node(faults: readonly string[] = [], profile: "node" | "aptos" = "node"): Promise<RunningNode> {
  const n = await startNode({ clock: new ManualClock(START_MS), faults, profile, onInternalError: () => undefined });
  nodes.push(n);
  return n;
}

function compare(a: RunningNode, b: RunningNode, headerPrefix = "X-NODE-"): Promise<DifferentialResult> {
  return runDifferential({
    target: a.url,
    compareTo: b.url,
    fixtures: [a.fixtures],
    contract: headerPrefix === "X-NODE-" ? contract : ApiContract.load(undefined, headerPrefix),
    headerPrefix,
    timeoutMs: 10_000,
    maxResponseBytes: 64 * 1024 * 1024,
  });
}

let clean: RunningNode;
let twin: RunningNode;

beforeAll(async () => {
  clean = await node();
  twin = await node();
});

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.close()));
});

describe("differential mode", () => {
  it("sends every read operation of the contract, in JSON and BCS", () => {
    const requests = comparedRequests(contract, [clean.fixtures], { version: 1500n, oldest: 1000n, latest: 1600n });
    const reads = contract.operations.map((o) => o.id).filter((id) => !NOT_COMPARED.has(id));
    expect(new Set(requests.map((r) => r.operation))).toEqual(new Set(reads));
    expect(requests.some((r) => r.accept === "application/x-bcs" && r.operation === "get_account_modules")).toBe(true);
    // Every version read is in the window both retain, except the one past both nodes' latest.
    const versions = requests
      .map((r) => /(?:ledger|end)_version=(\d+)/.exec(r.path)?.[1])
      .filter((v): v is string => v !== undefined)
      .map(BigInt);
    expect(versions.filter((v) => v < 1000n || (v > 1500n && v <= 1600n))).toEqual([]);
    expect(versions.filter((v) => v > 1600n).length).toBe(2);
  });

  it("reads what --compare-fixtures names too, once", () => {
    const other = { ...clean.fixtures, moduleAccount: "0x42", accounts: [] };
    const both = comparedRequests(contract, [clean.fixtures, other], { version: 1500n, oldest: 1000n, latest: 1600n });
    const one = comparedRequests(contract, [clean.fixtures], { version: 1500n, oldest: 1000n, latest: 1600n });
    expect(both.some((r) => r.path.startsWith("/accounts/0x42/modules"))).toBe(true);
    expect(new Set(both.map((r) => `${r.path} ${r.accept}`)).size).toBe(both.length);
    expect(both.length).toBeGreaterThan(one.length);
  });

  it("two clean nodes with the same seed: no difference", async () => {
    const result = await compare(clean, twin);
    expect(result.note).toBeUndefined();
    expect(result.version).toBeDefined();
    expect(result.skipped).toEqual([]);
    expect(result.compared).toBeGreaterThan(20);
    expect(result.differences).toEqual([]);
  });

  it("two clean nodes of the aptos profile (X-APTOS- headers): no difference either", async () => {
    const [a, b] = await Promise.all([node([], "aptos"), node([], "aptos")]);
    const result = await compare(a, b, "X-APTOS-");
    expect(result.version).toBeDefined();
    expect(result.compared).toBeGreaterThan(20);
    expect(result.differences).toEqual([]);
  });

  it("a node whose summaries come in descending order: the summaries reads differ, in JSON and BCS, and nothing else", async () => {
    const faulty = await node(["summaries-descending"]);
    const result = await compare(clean, faulty);
    expect(result.differences.length).toBeGreaterThan(0);
    expect(new Set(result.differences.map((d) => d.operation))).toEqual(new Set(["get_account_transaction_summaries"]));
    expect(new Set(result.differences.map((d) => d.accept))).toEqual(new Set(["application/json", "application/x-bcs"]));
    const first = result.differences.find((d) => d.accept === "application/json");
    expect(first?.kind).toBe("body");
    expect(first?.at).toMatch(/^\$\[0\]/);
    expect(first?.target.curl).toContain(clean.url);
    expect(first?.compareTo.curl).toContain(faulty.url);
  });

  it("a node that writes the gas estimates as strings: the estimate's member types differ", async () => {
    const faulty = await node(["gas-estimates-as-strings"]);
    const result = await compare(clean, faulty);
    expect(result.differences.map((d) => [d.operation, d.accept, d.kind, d.at])).toEqual([
      ["estimate_gas_price", "application/json", "body", "$.deprioritized_gas_estimate"],
    ]);
    expect(result.differences[0]?.detail).toMatch(/number vs string/);
  });
});
