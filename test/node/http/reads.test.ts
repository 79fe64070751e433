// The read endpoints over a real socket (§4.2–§4.7, the family's convention): statuses, codes, the §2.7 headers,
// BCS forms that agree with JSON at the same ledger version, cursor pagination, pruned and future versions.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeBcs,
  formatAddress,
  GasEstimationBcs,
  HealthBcs,
  ModuleBytecodeBcs,
  ModuleMapBcs,
  parseAddress,
  toHex,
  TransactionSummaryListBcs,
} from "../../../src/codec/index.ts";
import { startNode, type RunningNode } from "../../../src/node/index.ts";
import { ManualClock } from "../../../src/node/ledger/index.ts";
import { BCS, call, expectError, expectOk, header, ledgerHeaders, ledgerVersion, postJson } from "./helpers.ts";

let node: RunningNode;
let base: string;

beforeAll(async () => {
  node = await startNode({ clock: new ManualClock() });
  base = node.url;
});
afterAll(() => node.close());

interface Summary {
  sender: string;
  version: string;
  transaction_hash: string;
  replay_protector: { type: string; sequence_number?: string; nonce?: string };
}
interface ModuleJson {
  bytecode: string;
  abi: { address: string; name: string; exposed_functions: unknown[]; structs: unknown[] };
}

describe("GET /v1 (ledger info, an extra for Aptos clients)", () => {
  it("reports the ledger the headers report, chain id as a number", async () => {
    const reply = await call(base, "");
    expectOk(reply);
    const body = reply.json() as Record<string, unknown>;
    const headers = ledgerHeaders(reply);
    expect(body).toMatchObject({
      chain_id: node.fixtures.chainId,
      node_role: "full_node",
      ledger_version: headers["LEDGER-VERSION"].toString(),
      oldest_ledger_version: headers["LEDGER-OLDEST-VERSION"].toString(),
      ledger_timestamp: headers["LEDGER-TIMESTAMPUSEC"].toString(),
      epoch: headers.EPOCH.toString(),
      block_height: headers["BLOCK-HEIGHT"].toString(),
      oldest_block_height: headers["OLDEST-BLOCK-HEIGHT"].toString(),
    });
    expect(headers["CHAIN-ID"]).toBe(BigInt(node.fixtures.chainId));
  });

  it("is also served at /v1/ (where the Aptos TS SDK asks)", async () => {
    expectOk(await call(base, "/"));
  });
});

describe("GET /v1/accounts/{address}/transaction_summaries (§4.3)", () => {
  const path = () => `/accounts/${node.fixtures.transactionsAccount}/transaction_summaries`;

  it("lists the most recent summaries, ascending, 100 at most by default", async () => {
    const reply = await call(base, path());
    expectOk(reply);
    const summaries = reply.json() as Summary[];
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.length).toBeLessThanOrEqual(100);
    const versions = summaries.map((s) => BigInt(s.version));
    expect(versions).toEqual([...versions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(versions).size).toBe(versions.length);
    const latest = ledgerVersion(reply);
    for (const summary of summaries) {
      expect(summary.sender).toBe(node.fixtures.transactionsAccount);
      expect(summary.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(["sequence_number", "nonce"]).toContain(summary.replay_protector.type);
      expect(BigInt(summary.version)).toBeLessThanOrEqual(latest);
    }
  });

  it("clamps limit to 100 and honours smaller limits", async () => {
    const clamped = await call(base, `${path()}?limit=65535`);
    expectOk(clamped);
    expect((clamped.json() as Summary[]).length).toBeLessThanOrEqual(100);
    const five = await call(base, `${path()}?limit=5`);
    expectOk(five);
    expect(five.json()).toHaveLength(5);
  });

  it("starts at start_version going forward, and ends at end_version without it", async () => {
    const all = (await call(base, `${path()}?limit=100`)).json() as Summary[];
    const pivot = all[10];
    expect(pivot).toBeDefined();
    const forward = (await call(base, `${path()}?start_version=${pivot?.version}&limit=3`)).json() as Summary[];
    expect(forward.map((s) => s.version)).toEqual(all.slice(10, 13).map((s) => s.version));
    const backward = (await call(base, `${path()}?end_version=${pivot?.version}&limit=3`)).json() as Summary[];
    expect(backward.map((s) => s.version)).toEqual(all.slice(8, 11).map((s) => s.version));
    // With start_version, end_version is ignored (the family's convention).
    const both = (await call(base, `${path()}?start_version=${pivot?.version}&end_version=0&limit=3`)).json() as Summary[];
    expect(both).toEqual(forward);
  });

  it("gives the same summaries in BCS as in JSON", async () => {
    const json = await call(base, `${path()}?limit=20`);
    const bcs = await call(base, `${path()}?limit=20`, { headers: BCS });
    expectOk(bcs);
    expect(header(bcs, "content-type")).toBe("application/x-bcs");
    expect(ledgerVersion(bcs)).toBe(ledgerVersion(json));
    // Versioned as aptos-core's IndexedTransactionSummary: each one V1 (src/codec/bcs.ts).
    const decoded = decodeBcs(TransactionSummaryListBcs, bcs.bytes).map(({ V1: s }) => ({
      sender: formatAddress(s.sender),
      version: s.version.toString(),
      transaction_hash: toHex(s.transaction_hash),
      replay_protector:
        s.replay_protector.$kind === "SequenceNumber"
          ? { type: "sequence_number", sequence_number: String(s.replay_protector.SequenceNumber) }
          : { type: "nonce", nonce: String(s.replay_protector.Nonce) },
    }));
    expect(decoded).toEqual(json.json());
  });

  it("lists [] for an unknown account, and accepts the address without 0x", async () => {
    const unknown = await call(base, `/accounts/0x${"ab".repeat(32)}/transaction_summaries`);
    expectOk(unknown);
    expect(unknown.json()).toEqual([]);
    const bare = await call(base, `/accounts/${node.fixtures.transactionsAccount.slice(2)}/transaction_summaries?limit=3`);
    expectOk(bare);
    expect(bare.json()).toEqual((await call(base, `${path()}?limit=3`)).json());
  });

  it("answers a start_version below the oldest version with 410 version_pruned", async () => {
    const oldest = ledgerHeaders(await call(base, ""))["LEDGER-OLDEST-VERSION"];
    expect(oldest).toBeGreaterThan(0n);
    expectError(await call(base, `${path()}?start_version=${oldest - 1n}`), 410, "version_pruned");
  });

  it.each([
    ["limit=0"],
    ["limit=65536"],
    ["limit=-1"],
    ["limit=1.5"],
    ["limit=abc"],
    ["limit="],
    ["start_version=-1"],
    ["start_version=18446744073709551616"],
    ["end_version=0x10"],
    ["start_version=1&start_version=2"],
  ])("answers ?%s with 400 web_framework_error", async (query) => {
    expectError(await call(base, `${path()}?${query}`), 400, "web_framework_error");
  });

  it.each([["0xzz"], [`0x${"1".repeat(65)}`], ["0x"]])("answers the address %s with 400 web_framework_error", async (address) => {
    expectError(await call(base, `/accounts/${address}/transaction_summaries`), 400, "web_framework_error");
  });
});

describe("GET /v1/accounts/{address}/module/{module_name} (§4.4)", () => {
  const path = () => `/accounts/${node.fixtures.moduleAccount}/module/${node.fixtures.moduleName}`;

  it("returns the module record, and the same bytecode in BCS", async () => {
    const reply = await call(base, path());
    expectOk(reply);
    const record = reply.json() as ModuleJson;
    expect(record.bytecode).toMatch(/^0xa11ceb0b/);
    expect(record.abi.name).toBe(node.fixtures.moduleName);
    expect(parseAddress(record.abi.address)).toEqual(parseAddress(node.fixtures.moduleAccount));

    const version = ledgerVersion(reply);
    const bcs = await call(base, `${path()}?ledger_version=${version}`, { headers: BCS });
    expectOk(bcs);
    expect(toHex(decodeBcs(ModuleBytecodeBcs, bcs.bytes))).toBe(record.bytecode);
  });

  it("reads at an older version in the window, and answers pruned and future versions", async () => {
    const headers = ledgerHeaders(await call(base, path()));
    const oldest = headers["LEDGER-OLDEST-VERSION"];
    const latest = headers["LEDGER-VERSION"];
    expectOk(await call(base, `${path()}?ledger_version=${oldest}`));
    expectError(await call(base, `${path()}?ledger_version=${oldest - 1n}`), 410, "version_pruned");
    expectError(await call(base, `${path()}?ledger_version=${latest + 1n}`), 404, "version_not_found");
    expectError(await call(base, `${path()}?ledger_version=18446744073709551615`), 404, "version_not_found");
  });

  it("answers a missing module with 404 module_not_found", async () => {
    expectError(await call(base, `/accounts/${node.fixtures.moduleAccount}/module/no_such_module`), 404, "module_not_found");
  });

  it.each([
    ["/accounts/0xg1/module/coin"],
    ["/accounts/0x1/module/9lives"],
    ["/accounts/0x1/module/has-dash"],
    ["/accounts/0x1/module/coin?ledger_version=latest"],
    ["/accounts/0x1/module/coin?ledger_version=1e3"],
  ])("answers %s with 400 web_framework_error", async (target) => {
    expectError(await call(base, target), 400, "web_framework_error");
  });
});

describe("GET /v1/accounts/{address}/modules (§4.5)", () => {
  const path = () => `/accounts/${node.fixtures.moduleAccount}/modules`;

  it("pages through every module with the cursor, the last page without one", async () => {
    const whole = await call(base, path());
    expectOk(whole);
    expect(header(whole, "X-NODE-CURSOR")).toBeUndefined();
    const all = (whole.json() as ModuleJson[]).map((m) => m.abi.name);
    expect(all.length).toBeGreaterThan(3);
    const version = ledgerVersion(whole);

    const paged: string[] = [];
    let start: string | undefined;
    for (let page = 0; page < all.length; page++) {
      const query = `?ledger_version=${version}&limit=2${start === undefined ? "" : `&start=${start}`}`;
      const reply = await call(base, `${path()}${query}`);
      expectOk(reply);
      const names = (reply.json() as ModuleJson[]).map((m) => m.abi.name);
      paged.push(...names);
      start = header(reply, "X-NODE-CURSOR");
      if (start === undefined) break;
      expect(names).toHaveLength(2);
      expect(start).toMatch(/^(0x)?[0-9a-fA-F]+$/);
    }
    expect(start).toBeUndefined();
    expect(paged).toEqual(all);
  });

  it("gives the same page in BCS as in JSON, cursor included", async () => {
    const json = await call(base, `${path()}?limit=3`);
    const version = ledgerVersion(json);
    const bcs = await call(base, `${path()}?limit=3&ledger_version=${version}`, { headers: BCS });
    expectOk(bcs);
    expect(header(bcs, "content-type")).toBe("application/x-bcs");
    // A map from module id to bytecode, sorted by key bytes (shorter names first), not in JSON order.
    const entries = decodeBcs(ModuleMapBcs, bcs.bytes).map((e) => [e.key, toHex(e.value)]);
    const page = (json.json() as ModuleJson[]).map((m) => [`0x1::${m.abi.name}`, m.bytecode]);
    expect(entries).toEqual(
      [...page].sort(([a], [b]) => (a as string).length - (b as string).length || ((a as string) < (b as string) ? -1 : 1)),
    );
    expect(header(bcs, "X-NODE-CURSOR")).toBe(header(json, "X-NODE-CURSOR"));
  });

  it("clamps limit to 9999 and refuses 0 and non-uint16 values", async () => {
    expectOk(await call(base, `${path()}?limit=65535`));
    for (const limit of ["0", "65536", "-3", "two"]) {
      expectError(await call(base, `${path()}?limit=${limit}`), 400, "web_framework_error");
    }
  });

  it("refuses a start that is not hex (400 web_framework_error) or not a cursor it issued (400 invalid_input)", async () => {
    expectError(await call(base, `${path()}?start=not-hex`), 400, "web_framework_error");
    expectError(await call(base, `${path()}?start=0xdeadbeef`), 400, "invalid_input");
  });

  it("answers pruned and future versions", async () => {
    const headers = ledgerHeaders(await call(base, path()));
    expectError(await call(base, `${path()}?ledger_version=${headers["LEDGER-OLDEST-VERSION"] - 1n}`), 410, "version_pruned");
    expectError(await call(base, `${path()}?ledger_version=${headers["LEDGER-VERSION"] + 1n}`), 404, "version_not_found");
  });
});

describe("POST /v1/tables/{table_handle}/item (§4.2)", () => {
  const path = () => `/tables/${node.fixtures.table.handle}/item`;
  const request = () => ({
    key_type: node.fixtures.table.keyType,
    value_type: node.fixtures.table.valueType,
    key: node.fixtures.table.key,
  });

  it("returns the item, and its raw BCS bytes with Accept: application/x-bcs", async () => {
    const reply = await postJson(base, path(), request());
    expectOk(reply);
    const value = reply.json();
    const version = ledgerVersion(reply);
    const bcs = await postJson(base, `${path()}?ledger_version=${version}`, request(), BCS);
    expectOk(bcs);
    expect(header(bcs, "content-type")).toBe("application/x-bcs");
    expect(node.fixtures.table.valueType).toBe("address");
    expect(bcs.bytes).toEqual(parseAddress(value as string));
  });

  it("answers a missing key 404 table_item_not_found and an unparsable type or key 400 invalid_input", async () => {
    expectError(await postJson(base, path(), { ...request(), key: "123456789" }), 404, "table_item_not_found");
    expectError(await postJson(base, path(), { ...request(), key_type: "u64<" }), 400, "invalid_input");
    expectError(await postJson(base, path(), { ...request(), key: "not a number" }), 400, "invalid_input");
  });

  it("answers pruned and future versions", async () => {
    const headers = ledgerHeaders(await call(base, ""));
    expectError(
      await postJson(base, `${path()}?ledger_version=${headers["LEDGER-OLDEST-VERSION"] - 1n}`, request()),
      410,
      "version_pruned",
    );
    expectError(await postJson(base, `${path()}?ledger_version=${headers["LEDGER-VERSION"] + 1n}`, request()), 404, "version_not_found");
  });

  it("answers bodies the framework cannot take with 400 web_framework_error", async () => {
    const post = (body: string, contentType?: string) =>
      call(base, path(), { method: "POST", body, headers: contentType === undefined ? {} : { "content-type": contentType } });
    expectError(await post("{", "application/json"), 400, "web_framework_error");
    expectError(await post("", "application/json"), 400, "web_framework_error");
    expectError(await post(JSON.stringify(request()), "text/plain"), 400, "web_framework_error");
    expectError(await post(JSON.stringify(request()), "application/x.node.signed_transaction+bcs"), 400, "web_framework_error");
    expectError(await post("[]", "application/json"), 400, "web_framework_error");
    expectError(await post(JSON.stringify({ key_type: "u64", value_type: "address" }), "application/json"), 400, "web_framework_error");
    expectError(await post(JSON.stringify({ ...request(), key_type: 7 }), "application/json"), 400, "web_framework_error");
  });

  it("answers a malformed handle or ledger_version with 400 web_framework_error", async () => {
    expectError(await postJson(base, "/tables/0xnothex/item", request()), 400, "web_framework_error");
    expectError(await postJson(base, `${path()}?ledger_version=-5`, request()), 400, "web_framework_error");
  });
});

describe("GET /v1/estimate_gas_price (§4.6)", () => {
  it("returns three ordered JSON integers, and the same in BCS", async () => {
    const reply = await call(base, "/estimate_gas_price");
    expectOk(reply);
    const estimate = reply.json() as Record<string, unknown>;
    expect(Object.keys(estimate).sort()).toEqual(["deprioritized_gas_estimate", "gas_estimate", "prioritized_gas_estimate"]);
    for (const value of Object.values(estimate)) expect(Number.isSafeInteger(value)).toBe(true);
    const {
      deprioritized_gas_estimate: low,
      gas_estimate: market,
      prioritized_gas_estimate: high,
    } = estimate as {
      deprioritized_gas_estimate: number;
      gas_estimate: number;
      prioritized_gas_estimate: number;
    };
    expect(low).toBeLessThanOrEqual(market);
    expect(market).toBeLessThanOrEqual(high);

    const bcs = await call(base, "/estimate_gas_price", { headers: BCS });
    expectOk(bcs);
    const decoded = decodeBcs(GasEstimationBcs, bcs.bytes);
    expect([decoded.deprioritized_gas_estimate, decoded.gas_estimate, decoded.prioritized_gas_estimate].map(Number)).toEqual([
      low,
      market,
      high,
    ]);
  });

  it("prefers JSON when the client prefers it, with no 406 for anything else", async () => {
    for (const accept of ["application/json, application/x-bcs", "text/html", "*/*", "application/x-bcs;q=0"]) {
      const reply = await call(base, "/estimate_gas_price", { headers: { accept } });
      expectOk(reply);
      expect(header(reply, "content-type"), accept).toMatch(/^application\/json/);
    }
  });
});

describe("GET /v1/-/healthy (§4.7)", () => {
  it("is healthy without duration_secs, in JSON and BCS", async () => {
    const reply = await call(base, "/-/healthy");
    expectOk(reply);
    const body = reply.json() as { message: string };
    expect(typeof body.message).toBe("string");
    const bcs = await call(base, "/-/healthy", { headers: BCS });
    expectOk(bcs);
    expect(decodeBcs(HealthBcs, bcs.bytes)).toEqual({ message: body.message });
  });

  it("answers a malformed duration_secs with 400 web_framework_error", async () => {
    expectError(await call(base, "/-/healthy?duration_secs=soon"), 400, "web_framework_error");
  });
});
