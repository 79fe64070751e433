// No false failures: the mirror of the fault self-check (faults.test.ts). There every named fault of
// the reference node must make the suite fail; here every named ALLOWED variation must not. Each
// variation (test/support/variations.ts) is something HTTP, JSON or the interface spec leaves free (an
// unknown JSON member, OWS around a header value, 200 for an accepted submission, an idle connection
// closed, …), applied alone by a proxy in front of the clean reference node
// (test/support/variation-proxy.ts), and the whole suite is run against the proxy in both profiles:
// the node profile as is, and the aptos profile with the shipped baseline baselines/aptos-core.txt.
//
// The run must come out as the clean node's does (clean-node.test.ts): exit 0; no failed or warned
// requirement but, in the aptos profile, exactly the baseline's ids, and the family's conventions
// (SHOULDs) the variation declares it departs from (200 for an accepted submission warns
// 4.8/accepted-with-202, as it should); no run error; every MUST of §2.7
// and §4.1–§4.8 that is not baselined exercised and passed. And the variation must have changed
// something (its count > 0): one that never fired proves nothing, as a fault the suite did not catch
// fails the fault self-check. A failure here is the suite failing a conforming node.
//
// The runs go in child processes as the fault runs do (test/self-check/variation-runs.ts).

import { beforeAll, describe, expect, it } from "vitest";
import { ApiContract } from "../../src/harness/openapi.ts";
import { loadRequirements } from "../../src/harness/requirements.ts";
import { VARIATIONS, variationNamed } from "../support/variations.ts";
import { APTOS_CORE_BASELINE, aptosCoreBaselined } from "./conformance-run.ts";
import { FAULT_RUNS_MAX_MS } from "./fault-runs.ts";
import { runName, runVariationsInProcesses, type VariationRun, type VariationRunOutcome } from "./variation-runs.ts";

/** §2.7 and §4.1–§4.8: the sections whose MUSTs the clean node shows passed (clean-node.test.ts). */
const COVERED_SECTION = /^(2\.7|4\.[1-8])$/;

const BASELINED = aptosCoreBaselined();

/** Every variation in both profiles, the two of a variation side by side. */
const RUNS: readonly VariationRun[] = VARIATIONS.flatMap((variation) => [
  { variation: variation.name, profile: "node" as const },
  { variation: variation.name, profile: "aptos" as const, baseline: APTOS_CORE_BASELINE },
]);

describe("the registry of allowed variations", () => {
  it("has distinct kebab-case names, each with a one-line description citing the rule that allows it", () => {
    const names = VARIATIONS.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const variation of VARIATIONS) {
      expect(variation.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(variation.description, variation.name).not.toContain("\n");
      expect(variation.description, variation.name).toMatch(/RFC \d+ §\d|§\d/);
    }
  });

  it("lets a variation depart only from the family's conventions, SHOULD requirements of the catalog", () => {
    const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));
    for (const variation of VARIATIONS)
      for (const id of variation.departsFrom ?? []) expect(catalog.get(id).level, `${variation.name}: ${id}`).toBe("SHOULD");
  });
});

describe("the suite passes a conforming node under every allowed variation", () => {
  let outcomes: Map<string, VariationRunOutcome>;
  beforeAll(async ({}, suite) => {
    // Only the runs whose tests are selected (`-t "unknown-members"` runs one variation in both profiles).
    const selected = new Set(suite.tasks.filter((task) => task.mode === "run").map((task) => task.name));
    const started = performance.now();
    const outcomesInOrder = await runVariationsInProcesses(RUNS.filter((run) => selected.has(runName(run))));
    outcomes = new Map(outcomesInOrder.map((outcome) => [runName(outcome.run), outcome]));
    // What each run changed and how long its files took: a variation that fires rarely, or a slow one, shows here.
    const lines = outcomesInOrder.map(
      (o) => `  ${runName(o.run)}: exit ${o.exitCode}, ${o.changed} changed, ${(o.durationMs / 1000).toFixed(1)} s`,
    );
    console.log(`allowed variations: ${outcomes.size} runs in ${Math.round((performance.now() - started) / 1000)} s\n${lines.join("\n")}`);
  }, FAULT_RUNS_MAX_MS + 120_000);

  it.each(RUNS.map((run) => [runName(run), run] as const))("%s", (label, run) => {
    const outcome = outcomes.get(label);
    expect(outcome, `no outcome for ${label}`).toBeDefined();
    const { summary, exitCode, changed } = outcome as VariationRunOutcome;
    const expected = run.baseline === undefined ? new Set<string>() : BASELINED;
    // The family's conventions the variation departs from: warned, as SHOULDs (never failed), and nothing else.
    const departures = new Set(variationNamed(run.variation).departsFrom ?? []);
    const first = (id: string) => summary.requirements.find((r) => r.id === id)?.failures[0]?.message.slice(0, 1200) ?? "";

    const notOk = summary.requirements
      .filter((r) => (r.status === "failed" || r.status === "warned") && !(expected.has(r.id) && r.expectedFailure === true))
      .filter((r) => !(departures.has(r.id) && r.status === "warned"))
      .map((r) => `${r.id} ${r.status}: ${first(r.id)}`);
    expect(notOk, `${label}: failed or warned beyond the clean node's:\n${notOk.join("\n")}`).toEqual([]);
    const departuresNotWarned = [...departures].filter(
      (id) => summary.requirements.find((r) => r.id === id)?.status !== "warned" && !expected.has(id),
    );
    expect(departuresNotWarned, `${label}: the conventions it departs from did not warn`).toEqual([]);
    const baselinedButNotFailing = summary.requirements
      .filter((r) => expected.has(r.id) && r.expectedFailure !== true)
      .map((r) => `${r.id} ${r.status}`);
    expect(baselinedButNotFailing, `${label}: listed in ${run.baseline} but not failed or warned`).toEqual([]);
    expect(summary.counts.failed + summary.counts.warned).toBe(new Set([...expected, ...departures]).size);
    expect(summary.errors ?? [], JSON.stringify(summary.errors)).toEqual([]);

    const unproven = summary.requirements
      .filter((r) => r.level === "MUST" && COVERED_SECTION.test(r.section) && !expected.has(r.id) && r.status !== "passed")
      .map((r) => `${r.id} ${r.status}${r.reason === undefined ? "" : `: ${r.reason}`}`);
    expect(unproven, `${label}: MUST requirements of §2.7 and §4.1–§4.8 not passed:\n${unproven.join("\n")}`).toEqual([]);
    expect(exitCode, label).toBe(0);
    // Coded answers are read, and counted in summary.json by coding, asked or not.
    if (run.variation === "coded-answers") {
      expect(summary.contentCodings?.map((c) => c.coding).sort()).toEqual(["br", "deflate", "gzip"]);
      expect(summary.contentCodings?.every((c) => c.asked > 0 && c.unasked === 0)).toBe(true);
    }
    if (run.variation === "coded-unasked") expect(summary.contentCodings?.map((c) => c.coding)).toEqual(["gzip"]);
    expect(changed, `${label}: the variation changed nothing, so the run proves nothing`).toBeGreaterThan(0);
  });
});
