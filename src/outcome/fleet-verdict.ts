// A fleet's verdict and exit status: each node's from what its run wrote (its summary.json, maybe made
// on another machine) and the exit status it ended with; the fleet's, the worst node's. A fleet run
// and `merge` judge alike.

import type { ResultStatus } from "../harness/results.ts";
import type { Interruption } from "./run-outcome.ts";
import { VERDICT_KINDS, type VerdictKind } from "./verdict.ts";

/** What the judgement reads of a node's summary.json (reporters/summary.ts writes it). */
export interface NodeRunSummary {
  readonly requirements: readonly { readonly status: ResultStatus; readonly expectedFailure?: boolean }[];
  readonly counts: { readonly skipped: number; readonly notApplicable: number };
  readonly errors?: readonly unknown[];
  readonly interruption?: Interruption;
  /** Absent in a summary of a version before verdicts. */
  readonly verdict?: VerdictKind;
}

/** A node judged, or the fleet. */
export interface Judgement {
  readonly verdict: VerdictKind;
  readonly exitCode: number;
}

/**
 * The exit status a run's summary stands for, by the rule of exit-code.ts: 2 nothing could be
 * tested; 1 a run error, an interruption, or a failure the baseline does not expect (a failed SHOULD is
 * a baseline entry that passed); else 0.
 */
export function summaryExitCode(summary: NodeRunSummary): 0 | 1 | 2 {
  if (summary.interruption?.kind === "not_started") return 2;
  if ((summary.errors?.length ?? 0) > 0 || summary.interruption !== undefined) return 1;
  return summary.requirements.some((r) => r.status === "failed" && r.expectedFailure !== true) ? 1 : 0;
}

/**
 * A node's verdict (verdict.ts): its summary's, except that a run which did not exit 0 is not
 * conforming whatever it wrote (a node whose run was stopped by a signal, or wrote no summary); a summary
 * of a version before verdicts gets one from its exit status and counts.
 */
export function nodeVerdict(summary: NodeRunSummary, exitCode: number): VerdictKind {
  if (exitCode !== 0 || summaryExitCode(summary) !== 0) return "not-conforming";
  if (summary.verdict !== undefined) return summary.verdict;
  return summary.counts.skipped + summary.counts.notApplicable > 0
    ? "partial"
    : summary.requirements.some((r) => r.expectedFailure === true)
      ? "conforming-with-baseline"
      : "conforming";
}

/** The fleet's verdict and exit status: the worst node's (2 over 1 over 0). */
export function fleetJudgement(nodes: readonly Judgement[]): Judgement {
  return {
    verdict: nodes.reduce<VerdictKind>(
      (worst, n) => (VERDICT_KINDS.indexOf(n.verdict) > VERDICT_KINDS.indexOf(worst) ? n.verdict : worst),
      "conforming",
    ),
    exitCode: nodes.reduce((worst, n) => Math.max(worst, n.exitCode), 0),
  };
}
