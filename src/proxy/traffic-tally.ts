// What the proxy has seen, as a run's outcome: every judgement of every proxied answer counted per
// requirement, with a bounded sample of the evidence (every status seen keeps some, failures up to
// FAILURES_KEPT), so that a proxy left running for days keeps a fixed amount of memory. A requirement
// no answer gave evidence for is skipped ("not seen in the proxied traffic"), never passed.

import type { Evidence, RunOutcome } from "../outcome/run-outcome.ts";
import { aggregateRequirements, FAILURES_KEPT } from "../outcome/aggregate.ts";
import type { JunitCase } from "../../reporters/junit-report.ts";
import type { RequirementCatalog } from "../harness/requirements.ts";
import type { CheckResult, ResultStatus } from "../harness/results.ts";

export const PROXY_FILE = "(proxied traffic)";
export const NOT_SEEN = "not seen in the proxied traffic";
/** Samples kept per requirement and status (failures: FAILURES_KEPT). */
const SAMPLES = 5;

export class TrafficTally {
  readonly #counts = new Map<string, number>();
  readonly #samples = new Map<string, Evidence[]>();
  #exchanges = 0;

  /** How many answers were judged. */
  get exchanges(): number {
    return this.#exchanges;
  }

  /** The judgements of one answer; `label` names it ("GET get_account_module"). */
  add(label: string, results: readonly CheckResult[]): void {
    this.#exchanges += 1;
    for (const result of results) {
      const id = result.requirement;
      this.#counts.set(id, (this.#counts.get(id) ?? 0) + 1);
      const kept = this.#samples.get(id) ?? [];
      const limit = result.status === "failed" || result.status === "warned" ? FAILURES_KEPT : SAMPLES;
      if (kept.filter((e) => e.result.status === result.status).length < limit) kept.push({ test: label, file: PROXY_FILE, result });
      this.#samples.set(id, kept);
    }
  }

  outcome(catalog: RequirementCatalog): RunOutcome {
    const evidence = [...this.#samples.values()].flat();
    const outcome = aggregateRequirements(catalog, evidence, [], this.#exchanges, NOT_SEEN);
    return { ...outcome, requirements: outcome.requirements.map((r) => ({ ...r, checks: this.#counts.get(r.requirement.id) ?? 0 })) };
  }

  /** One JUnit case per requirement the traffic gave evidence for. */
  junitCases(outcome: RunOutcome): JunitCase[] {
    return outcome.requirements
      .filter((r) => r.checks > 0)
      .map((r) => {
        const status: ResultStatus = r.status;
        const detail = r.failures[0]?.message ?? r.reason;
        return {
          file: PROXY_FILE,
          name: `${r.requirement.id} (${r.checks} answers)`,
          status,
          durationMs: 0,
          ...(detail === undefined ? {} : { detail }),
        };
      });
  }
}
