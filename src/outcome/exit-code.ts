// The exit status the gate uses, from the outcome with its baseline applied.

import type { RunOutcome } from "./run-outcome.ts";

/**
 * The command's exit status with the baseline: 2 when the target could not be tested at all; 1 when a
 * MUST failed unexpectedly, a baseline entry passed, the run had errors or was stopped before its end.
 */
export function exitCode(outcome: RunOutcome): 0 | 1 | 2 {
  if (outcome.interruption?.kind === "not_started") return 2;
  if (outcome.errors.length > 0 || outcome.interruption !== undefined) return 1;
  const gateFailure = outcome.requirements.some(
    (r) => r.status === "failed" && !r.expectedFailure && (r.requirement.level === "MUST" || r.unexpectedPass === true),
  );
  return gateFailure ? 1 : 0;
}
