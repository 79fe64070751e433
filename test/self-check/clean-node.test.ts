// The suite passes the clean reference node: the whole conformance command, run as a child process
// against the node started in-process (test/self-check/conformance-run.ts). In the node profile (the
// spec's node) it exits 0 with no failed and no warned requirement. In the aptos profile (a stand-in
// for aptos-core, deviations included: src/node/http/profile.ts) it is run as a node team with an
// Aptos-family node runs it, with the shipped baseline baselines/aptos-core.txt: it exits 0, every
// requirement it failed or warned is one the baseline lists, and every one the baseline lists did fail
// or warn (the command itself fails an entry that passes). A baseline naming the ids from before they
// were narrowed (kept as a fixture) passes it too. In both, every MUST requirement of §2.7 and
// §4.1–§4.8 that is not a baselined deviation was exercised and passed (not skipped, not applicable).

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseBaseline } from "../../src/outcome/baseline-list.ts";
import { APTOS_CORE_BASELINE, ROOT, RUN_TIMEOUT_MS, runConformance } from "./conformance-run.ts";
import { LOAD_LAWS } from "../../suites/support/load/under-load.ts";

/** baselines/aptos-core.txt as it was before its ids were narrowed, naming the old broad ids. */
const OLD_APTOS_CORE_BASELINE = "test/fixtures/baselines/aptos-core-before-split.txt";

const scratch = mkdtempSync(join(tmpdir(), "self-check-clean-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The laws under load: not applicable without --load; the load mode's self-check proves them (load-mode.test.ts). */
const UNDER_LOAD: ReadonlySet<string> = new Set(Object.values(LOAD_LAWS));

/** §2.7 and §4.1–§4.8: the sections whose MUSTs the clean node must show passed. */
const COVERED_SECTION = /^(2\.7|4\.[1-8])$/;

const RUNS = [
  { profile: "node", baseline: undefined },
  { profile: "aptos", baseline: APTOS_CORE_BASELINE },
] as const;

describe.concurrent("the clean reference node", () => {
  it.each(RUNS)(
    "passes the whole suite in the $profile profile (baseline: $baseline)",
    async ({ profile, baseline }) => {
      const run = await runConformance({ profile, dir: join(scratch, profile), ...(baseline === undefined ? {} : { baseline }) });
      const context = `exit ${run.exitCode}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`;
      expect(run.summary, `no summary.json\n${context}`).toBeDefined();
      const summary = run.summary!;
      const expected = new Set(baseline === undefined ? [] : parseBaseline(readFileSync(join(ROOT, baseline), "utf8"), baseline));

      const notOk = summary.requirements
        .filter((r) => (r.status === "failed" || r.status === "warned") && !(expected.has(r.id) && r.expectedFailure === true))
        .map((r) => `${r.id} ${r.status}: ${r.failures[0]?.message.split("\n")[0] ?? ""}`);
      expect(notOk, notOk.join("\n")).toEqual([]);
      const baselinedButNotFailing = summary.requirements
        .filter((r) => expected.has(r.id) && r.expectedFailure !== true)
        .map((r) => `${r.id} ${r.status}`);
      expect(baselinedButNotFailing, `listed in ${baseline} but not failed or warned`).toEqual([]);
      expect(summary.counts.failed + summary.counts.warned).toBe(expected.size);
      expect(summary.errors ?? [], JSON.stringify(summary.errors)).toEqual([]);

      const unproven = summary.requirements
        .filter(
          (r) =>
            r.level === "MUST" && COVERED_SECTION.test(r.section) && !expected.has(r.id) && !UNDER_LOAD.has(r.id) && r.status !== "passed",
        )
        .map((r) => `${r.id} ${r.status}${r.reason === undefined ? "" : `: ${r.reason}`}`);
      expect(unproven, `MUST requirements of §2.7 and §4.1–§4.8 not passed:\n${unproven.join("\n")}`).toEqual([]);
      expect(summary.requirements.some((r) => COVERED_SECTION.test(r.section) && r.level === "MUST")).toBe(true);
      expect(run.exitCode, context).toBe(0);
    },
    2 * RUN_TIMEOUT_MS,
  );

  // A team's baseline written before the ids were narrowed names the old, broad ids: the aliases read
  // each as the group of its parts, expected to fail while any part fails, so it still passes the gate.
  it(
    "passes in the aptos profile with the baseline as it was before the ids were split",
    async () => {
      const run = await runConformance({ profile: "aptos", dir: join(scratch, "aptos-old-baseline"), baseline: OLD_APTOS_CORE_BASELINE });
      const context = `exit ${run.exitCode}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`;
      expect(run.summary, `no summary.json\n${context}`).toBeDefined();
      const summary = run.summary!;
      const notExpected = summary.requirements
        .filter((r) => (r.status === "failed" || r.status === "warned") && r.expectedFailure !== true)
        .map((r) => `${r.id} ${r.status}: ${r.failures[0]?.message.split("\n")[0] ?? ""}`);
      expect(notExpected, notExpected.join("\n")).toEqual([]);
      // Every id the shipped baseline lists is a part of an old entry, and fails as expected under it.
      const shipped = parseBaseline(readFileSync(join(ROOT, APTOS_CORE_BASELINE), "utf8"), APTOS_CORE_BASELINE);
      for (const id of shipped) expect(summary.requirements.find((r) => r.id === id)?.expectedFailure, id).toBe(true);
      expect(run.exitCode, context).toBe(0);
    },
    2 * RUN_TIMEOUT_MS,
  );
});
