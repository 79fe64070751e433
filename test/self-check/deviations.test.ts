// Deviations of our own making must be caught in both profiles: the mirror of the allowed-variations
// guard (allowed-variations.test.ts), on the same machinery (variation-runs.ts: the variation proxy in
// front of a clean reference node, the whole suite run against it, in child processes). Each deviation
// (test/support/deviations.ts) breaks one rule the reference node keeps; the run must fail every MUST
// and warn every SHOULD the deviation declares, in the node profile and in the aptos profile with the
// shipped baseline: a baseline id that still masked more than aptos-core's own deviation would hide it.

import { beforeAll, describe, expect, it } from "vitest";
import { ApiContract } from "../../src/harness/openapi.ts";
import { loadRequirements } from "../../src/harness/requirements.ts";
import { DEVIATIONS } from "../support/deviations.ts";
import { VARIATIONS } from "../support/variations.ts";
import { APTOS_CORE_BASELINE, aptosCoreBaselined } from "./conformance-run.ts";
import { FAULT_RUNS_MAX_MS } from "./fault-runs.ts";
import { runName, runVariationsInProcesses, type VariationRun, type VariationRunOutcome } from "./variation-runs.ts";

const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));

/** Every deviation in both profiles, the two of a deviation side by side. */
const RUNS: readonly VariationRun[] = DEVIATIONS.flatMap((deviation) => [
  { variation: deviation.name, profile: "node" as const },
  { variation: deviation.name, profile: "aptos" as const, baseline: APTOS_CORE_BASELINE },
]);

describe("the registry of deviations", () => {
  it("has distinct kebab-case names, none an allowed variation's, each declaring requirements of the catalog the baseline does not list", () => {
    const names = DEVIATIONS.map((d) => d.name);
    expect(new Set([...names, ...VARIATIONS.map((v) => v.name)]).size).toBe(names.length + VARIATIONS.length);
    const baselined = aptosCoreBaselined();
    for (const deviation of DEVIATIONS) {
      expect(deviation.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(deviation.description, deviation.name).toMatch(/§\d/);
      expect(deviation.breaks.length, deviation.name).toBeGreaterThan(0);
      for (const id of deviation.breaks) {
        expect(catalog.has(id), `${deviation.name}: ${id}`).toBe(true);
        expect(baselined.has(id), `${deviation.name}: ${id} is baselined`).toBe(false);
      }
    }
  });
});

describe("the suite catches every deviation, in both profiles", () => {
  let outcomes: Map<string, VariationRunOutcome>;
  beforeAll(async ({}, suite) => {
    // Only the runs whose tests are selected (`-t "<name>"` runs one deviation in both profiles).
    const selected = new Set(suite.tasks.filter((task) => task.mode === "run").map((task) => task.name));
    const outcomesInOrder = await runVariationsInProcesses(RUNS.filter((run) => selected.has(runName(run))));
    outcomes = new Map(outcomesInOrder.map((outcome) => [runName(outcome.run), outcome]));
  }, FAULT_RUNS_MAX_MS + 120_000);

  it.each(RUNS.map((run) => [runName(run), run] as const))("%s", (label, run) => {
    const outcome = outcomes.get(label);
    expect(outcome, `no outcome for ${label}`).toBeDefined();
    const { summary, changed } = outcome as VariationRunOutcome;
    const deviation = DEVIATIONS.find((d) => d.name === run.variation);
    const statusOf = (id: string) => {
      const entry = summary.requirements.find((r) => r.id === id);
      return entry === undefined ? "absent" : entry.reason === undefined ? entry.status : `${entry.status}: ${entry.reason}`;
    };
    // A MUST fails, a SHOULD warns; neither as an expected failure of the baseline.
    const missed = (deviation?.breaks ?? []).filter((id) => {
      const entry = summary.requirements.find((r) => r.id === id);
      const wanted = catalog.get(id).level === "MUST" ? "failed" : "warned";
      return entry?.status !== wanted || entry.expectedFailure === true;
    });
    expect(
      missed.map((id) => `${id} (${statusOf(id)})`),
      `${label}: declared requirements not caught; errors ${JSON.stringify(summary.errors ?? []).slice(0, 1000)}`,
    ).toEqual([]);
    expect(changed, `${label}: the deviation changed nothing, so the run proves nothing`).toBeGreaterThan(0);
  });
});
