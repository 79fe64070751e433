// The load mode sees what it claims: the clean reference node holds every law under load, decided, in
// both profiles; each fault that shows only under concurrency (src/node/faults/concurrency.ts) fails
// the law it breaks under --load. That such a fault passes the whole suite without --load (the load
// mode is what catches it) is a fact of the fault, not of the suite: the full tier proves it
// (test/support/test-tier.ts). The runs are the conformance
// command against the node started in-process (conformance-run.ts), with blocks every 100 ms as the
// embedded node makes them, so that blocks commit while the load reads. One run at a time: each keeps
// the machine busy, and a load that shares it with another judges less.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CONCURRENCY_FAULTS } from "../../src/node/faults/concurrency.ts";
import { LOAD_LAWS } from "../../suites/support/load/under-load.ts";
import { FULL_TIER } from "../support/test-tier.ts";
import { APTOS_CORE_BASELINE, RUN_TIMEOUT_MS, requirementsWith, runConformance, type ConformanceRun } from "./conformance-run.ts";

const scratch = mkdtempSync(join(tmpdir(), "self-check-load-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const BLOCK_INTERVAL_MS = 100;
/**
 * How long each load lasts. The clean node's must be long enough for every law to be decided on a
 * loaded machine (a walk must span a publish); a fault's, for its law to fail. `npm test` takes the
 * shortest with a margin of half again or more: with two busy loops beside the file, every law was
 * decided in 2 s and every fault caught in 1 s, three times out of three. The full tier keeps 5 s for both.
 */
const LOAD_SECONDS = FULL_TIER ? { clean: "5", fault: "5" } : { clean: "3", fault: "2" };
/** The clean node's load: the README's example size. */
const CLEAN_CLIENTS = "32";
/**
 * The faults' load: above the open connections the faults switch on at
 * (src/node/faults/connections.ts), which lie above what an idle run reaches.
 */
const FAULT_CLIENTS = "48";

const underLoadOnly = (clients: string, seconds: string) => [
  "--load",
  clients,
  "--load-duration",
  seconds,
  "--only",
  "properties/under-load",
];

function context(run: ConformanceRun): string {
  return `exit ${run.exitCode}\n${run.stdout.slice(-6000)}\n${run.stderr.slice(-2000)}`;
}

describe("the load mode", () => {
  it.each([
    { profile: "node" as const, baseline: undefined },
    { profile: "aptos" as const, baseline: APTOS_CORE_BASELINE },
  ])(
    "finds the clean node holding every law under load, each decided, in the $profile profile",
    async ({ profile, baseline }) => {
      const run = await runConformance({
        profile,
        dir: join(scratch, `clean-${profile}`),
        blockIntervalMs: BLOCK_INTERVAL_MS,
        args: underLoadOnly(CLEAN_CLIENTS, LOAD_SECONDS.clean),
        ...(baseline === undefined ? {} : { baseline }),
      });
      const laws = new Map((run.summary?.requirements ?? []).map((r) => [r.id, r]));
      const notPassed = Object.values(LOAD_LAWS)
        .map((id) => laws.get(id))
        .filter((r) => r?.status !== "passed")
        .map((r) => `${r?.id} ${r?.status}: ${r?.reason ?? r?.failures[0]?.message ?? ""}`);
      expect(notPassed, `${notPassed.join("\n")}\n${context(run)}`).toEqual([]);
      const load = run.summary?.load;
      expect(load?.clients, context(run)).toBe(Number(CLEAN_CLIENTS));
      expect(load?.writers, context(run)).toBeGreaterThan(0);
      expect(load?.endpoints.find((e) => e.endpoint === "submit_transaction")?.statuses["2xx"]).toBeGreaterThan(0);
      expect(load?.endpoints.find((e) => e.endpoint === "get_account_modules")?.requests).toBeGreaterThan(0);
      expect(requirementsWith(run.summary, "failed").map((r) => r.id)).toEqual([]);
      expect(run.exitCode, context(run)).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it.each(CONCURRENCY_FAULTS.map((fault) => ({ name: fault.name, breaks: fault.breaks })))(
    "catches $name under load",
    async ({ name, breaks }) => {
      const loaded = await runConformance({
        faults: [name],
        dir: join(scratch, `${name}-load`),
        blockIntervalMs: BLOCK_INTERVAL_MS,
        args: underLoadOnly(FAULT_CLIENTS, LOAD_SECONDS.fault),
      });
      const failed = requirementsWith(loaded.summary, "failed").map((r) => r.id);
      expect(
        breaks.filter((id) => !failed.includes(id)),
        `${name} under load: declared requirements not failed (failed: ${failed.join(", ")})\n${context(loaded)}`,
      ).toEqual([]);
      expect(loaded.exitCode, context(loaded)).toBe(1);
    },
    RUN_TIMEOUT_MS,
  );

  it.runIf(FULL_TIER).each(CONCURRENCY_FAULTS.map((fault) => ({ name: fault.name })))(
    "misses $name without load",
    async ({ name }) => {
      // One worker: its few connections stay below the faults' threshold of load, where two workers'
      // may cross it and catch a fault such as stale-replica-connections without the load mode.
      const idle = await runConformance({
        faults: [name],
        dir: join(scratch, `${name}-idle`),
        blockIntervalMs: BLOCK_INTERVAL_MS,
        args: ["--workers", "1"],
      });
      const idleFailed = requirementsWith(idle.summary, "failed").map((r) => `${r.id}: ${r.failures[0]?.message.split("\n")[0] ?? ""}`);
      expect(idleFailed, `${name} without load\n${context(idle)}`).toEqual([]);
      expect(idle.exitCode, context(idle)).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );
});
