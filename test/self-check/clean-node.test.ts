// The suite passes the clean reference node: the whole conformance command, run as a child process
// against the node started in-process (test/self-check/conformance-run.ts), in the node profile and in
// the aptos profile (X-APTOS- headers, application/x.aptos.signed_transaction+bcs), exits 0 with no
// failed and no warned requirement, and every MUST requirement of §2.7 and §4.1–§4.8 was exercised and
// passed (not skipped, not applicable).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RUN_TIMEOUT_MS, runConformance } from "./conformance-run.ts";

const scratch = mkdtempSync(join(tmpdir(), "self-check-clean-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** §2.7 and §4.1–§4.8: the sections whose MUSTs the clean node must show passed. */
const COVERED_SECTION = /^(2\.7|4\.[1-8])$/;

describe.concurrent("the clean reference node", () => {
  it.each([["node"], ["aptos"]] as const)(
    "passes the whole suite in the %s profile",
    async (profile) => {
      const run = await runConformance({ profile, dir: join(scratch, profile) });
      const context = `exit ${run.exitCode}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`;
      expect(run.summary, `no summary.json\n${context}`).toBeDefined();
      const summary = run.summary!;
      const notOk = summary.requirements
        .filter((r) => r.status === "failed" || r.status === "warned")
        .map((r) => `${r.id} ${r.status}: ${r.failures[0]?.message.split("\n")[0] ?? ""}`);
      expect(notOk, notOk.join("\n")).toEqual([]);
      expect(summary.counts.failed).toBe(0);
      expect(summary.counts.warned).toBe(0);
      expect(summary.errors ?? [], JSON.stringify(summary.errors)).toEqual([]);

      const unproven = summary.requirements
        .filter((r) => r.level === "MUST" && COVERED_SECTION.test(r.section) && r.status !== "passed")
        .map((r) => `${r.id} ${r.status}${r.reason === undefined ? "" : `: ${r.reason}`}`);
      expect(unproven, `MUST requirements of §2.7 and §4.1–§4.8 not passed:\n${unproven.join("\n")}`).toEqual([]);
      expect(summary.requirements.some((r) => COVERED_SECTION.test(r.section) && r.level === "MUST")).toBe(true);
      expect(run.exitCode, context).toBe(0);
    },
    2 * RUN_TIMEOUT_MS,
  );
});
