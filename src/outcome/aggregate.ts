// From the results the checks recorded to one status per requirement of the catalog, with the
// evidence behind it (by the rules of src/harness/results.ts).

import type { RequirementCatalog } from "../harness/requirements.ts";
import { aggregateStatus } from "../harness/results.ts";
import type { Evidence, RequirementOutcome, RunError, RunOutcome } from "./run-outcome.ts";

/** Caps the failures kept per requirement so one systematic deviation does not flood the report. */
export const FAILURES_KEPT = 20;

export function aggregateRequirements(
  catalog: RequirementCatalog,
  evidence: readonly Evidence[],
  errors: readonly RunError[],
  requests: number,
  untestedReason = "untested",
  retries = 0,
): RunOutcome {
  const byId = new Map<string, Evidence[]>();
  for (const e of evidence) {
    const list = byId.get(e.result.requirement) ?? [];
    list.push(e);
    byId.set(e.result.requirement, list);
  }
  const extraErrors: RunError[] = [];
  for (const id of byId.keys()) {
    if (!catalog.has(id)) extraErrors.push({ message: `results recorded for ${id}, which is not in the catalog` });
  }
  const requirements = catalog.requirements.map((requirement): RequirementOutcome => {
    const list = byId.get(requirement.id) ?? [];
    const { status, reason } = aggregateStatus(list.map((e) => e.result));
    return {
      requirement,
      status,
      ...(reason === undefined ? {} : { reason: list.length === 0 ? untestedReason : reason }),
      checks: list.length,
      evidence: list,
      failures: list.flatMap((e) => e.result.failures).slice(0, FAILURES_KEPT),
    };
  });
  return { requirements, errors: [...errors, ...extraErrors], requests, retries };
}

/**
 * The outcome of a run that never started: every requirement skipped with the reason (never passed),
 * so that the reports still say why.
 */
export function notStartedOutcome(catalog: RequirementCatalog, reason: string, requests: number, retries = 0): RunOutcome {
  return {
    ...aggregateRequirements(catalog, [], [], requests, `not run: ${reason}`, retries),
    interruption: { kind: "not_started", reason },
  };
}
