// No false failures, in the fast tier: every allowed variation that acts on the wire (test/support/
// variations.ts: chunked framing, an interim 1xx, connections closed at any time, a gateway's 503s and
// 429s, delays) is proven live. The variation proxy applies it in front of the clean reference node,
// and the cross-cutting sample of suite-files.ts (every read operation, in JSON and BCS, successes and
// refusals, a listing's pages; about a third of the suite's checks) runs against it in the node profile:
// framing, connections and a gateway's answers do not depend on the header names a profile reads. The
// run must exit 0, fail nothing, warn on nothing but the conventions the variation departs from, have
// no run error, and the variation must have changed something.
//
// The variations that rewrite answers are proven on a recorded run (variation-replay.test.ts). The full
// tier runs the whole suite under every variation, in both profiles (allowed-variations.test.ts).

import { beforeAll, describe, expect, it } from "vitest";
import { actsOnTheWire, rewritesAnswersOnly, VARIATIONS, variationNamed } from "../support/variations.ts";
import { FAULT_RUNS_MAX_MS } from "./fault-runs.ts";
import { CROSS_CUTTING_SAMPLE } from "./suite-files.ts";
import { runName, runVariationsInProcesses, type VariationRun, type VariationRunOutcome } from "./variation-runs.ts";

const ON_THE_WIRE = VARIATIONS.filter((variation) => !rewritesAnswersOnly(variation));

const RUNS: readonly VariationRun[] = ON_THE_WIRE.map((variation) => ({
  variation: variation.name,
  profile: "node" as const,
  files: CROSS_CUTTING_SAMPLE,
}));

describe("the sample passes a conforming node under every allowed variation of the wire, live", () => {
  let outcomes: Map<string, VariationRunOutcome>;
  beforeAll(async () => {
    outcomes = new Map((await runVariationsInProcesses(RUNS)).map((outcome) => [runName(outcome.run), outcome]));
  }, FAULT_RUNS_MAX_MS + 120_000);

  // The replay takes the others (rewritesAnswersOnly); each of these must act on the wire, or it would
  // belong there.
  it("runs the variations that act on the wire: framing, interim answers, connections, a gateway, delays", () => {
    expect(ON_THE_WIRE.length).toBeGreaterThanOrEqual(8);
    expect(ON_THE_WIRE.filter((variation) => !actsOnTheWire(variation)).map((v) => v.name)).toEqual([]);
  });

  it.each(RUNS.map((run) => [runName(run), run] as const))("%s", (label, run) => {
    const outcome = outcomes.get(label);
    expect(outcome, `no outcome for ${label}`).toBeDefined();
    const { summary, exitCode, changed } = outcome as VariationRunOutcome;
    const departures = new Set(variationNamed(run.variation).departsFrom ?? []);
    const notOk = summary.requirements
      .filter((r) => r.status === "failed" || (r.status === "warned" && !departures.has(r.id)))
      .map((r) => `${r.id} ${r.status}: ${r.failures[0]?.message.slice(0, 1200) ?? ""}`);
    expect(notOk, `${label}: failed or warned:\n${notOk.join("\n")}`).toEqual([]);
    expect(summary.errors ?? [], JSON.stringify(summary.errors)).toEqual([]);
    expect(summary.counts.passed, label).toBeGreaterThan(50);
    expect(exitCode, label).toBe(0);
    expect(changed, `${label}: the variation changed nothing, so the run proves nothing`).toBeGreaterThan(0);
  });
});
