// Several runs in one vitest instance share one worker thread (test/support/suite-runs.ts, runsByFolder): each run
// must still reach its own node, read it with its own profile's header names, and get its own verdict.
// Two clean nodes with the same seed have the same genesis, so their fixtures name the same senders:
// both must pass their submissions. (Were the runs to share the submission support module, the second
// would start from the first one's sequence numbers; the suite recovers from that by waiting, so it
// would show as a slow run, not in a verdict: that is why each run gets its own copy of the suite.)
// A faulty node beside them, in each profile, must fail its own run alone, by its own fault.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import { runSuitesAtOnce, type SuiteRunResult } from "../support/suite-runs.ts";

const FILES = ["suites/submit-transaction-accepted.test.ts", "suites/estimate-gas-price.test.ts"];
const SEED = "suite-runs-test";

let nodes: RunningNode[] = [];
let scratch = "";
let results = new Map<string, SuiteRunResult>();

beforeAll(async () => {
  nodes = await Promise.all([
    startNode({ seed: SEED }),
    startNode({ seed: SEED }),
    startNode({ seed: SEED, faults: ["gas-estimate-bcs-differs"] }),
    startNode({ seed: SEED, profile: "aptos", faults: ["bcs-as-octet-stream"] }),
  ]);
  scratch = mkdtempSync(join(tmpdir(), "suite-runs-test-"));
  const [a, b, faulty, aptos] = nodes as [RunningNode, RunningNode, RunningNode, RunningNode];
  const run = (name: string, node: RunningNode) => ({
    name,
    target: node.url,
    fixtures: node.fixtures,
    profile: "node" as const,
    files: FILES,
  });
  const aptosRun = { ...run("aptos", aptos), profile: "aptos" as const };
  results = await runSuitesAtOnce([run("clean a", a), run("clean b", b), run("faulty", faulty), aptosRun], {
    scratch,
    maxDurationMs: 120_000,
  });
}, 180_000);

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.close()));
  rmSync(scratch, { recursive: true, force: true });
});

const statusOf = (name: string, id: string) => results.get(name)?.summary.requirements.find((r) => r.id === id)?.status;
const failedOf = (name: string) =>
  results
    .get(name)
    ?.summary.requirements.filter((r) => r.status === "failed")
    .map((r) => r.id);

it("runs each of two clean nodes with the same senders clean, submissions included", () => {
  for (const name of ["clean a", "clean b"]) {
    expect(failedOf(name), name).toEqual([]);
    expect(results.get(name)?.exitCode, name).toBe(0);
    for (const id of ["4.8/bcs-submission-accepted", "4.8/json-submission-accepted"])
      expect(statusOf(name, id), `${name}: ${id}`).toBe("passed");
  }
});

it("fails the faulty node's run alone, by its fault's requirement", () => {
  expect(results.get("faulty")?.exitCode).toBe(1);
  expect(failedOf("faulty")).toEqual(["4.6/bcs-matches-json"]);
  expect(statusOf("clean a", "4.6/bcs-matches-json")).toBe("passed");
});

// Read with the node profile's header names, its answers would miss every required header.
it("runs the aptos-profile node with its own header names, and fails it by its own fault", () => {
  expect(failedOf("aptos")).toEqual(["4/media-type-declared", "4.6/gas-estimate-bcs"]);
  expect(statusOf("aptos", "2.7/required-headers-on-api-success")).toBe("passed");
  expect(statusOf("aptos", "4.6/gas-estimate-object")).toBe("passed");
  expect(statusOf("aptos", "4.8/bcs-submission-accepted")).toBe("passed");
});
