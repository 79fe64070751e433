// summary.json, exactly as design §3 gives it, plus `requests` (HTTP requests made) and `retries`
// (how often one was sent again after its connection failed), `reason` on a skipped or not_applicable
// requirement (why: "untested", the fixture it needed, "max duration reached", …), `expectedFailure` on
// a failure the baseline lists, `errors` when files failed to load or the run crashed, and
// `interruption` when the run was stopped before its end or could not start, and `phases` (where the
// run's time went, in ms per phase).

import type { ResultStatus } from "../src/harness/results.ts";
import { countStatuses, isConforming, type Interruption, type RunOutcome, type StatusCounts } from "./aggregate.ts";

export interface SummaryRequirement {
  readonly id: string;
  readonly level: "MUST" | "SHOULD";
  readonly section: string;
  readonly endpoint: string;
  readonly status: ResultStatus;
  /** Number of results recorded for it: its own checks and the observed responses judged by it. */
  readonly checks: number;
  readonly failures: readonly { readonly message: string; readonly curl: string | null }[];
  readonly reason?: string;
  readonly expectedFailure?: true;
}

export interface Summary {
  readonly target: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly conforming: boolean;
  readonly counts: StatusCounts;
  readonly requirements: readonly SummaryRequirement[];
  readonly requests: number;
  readonly retries: number;
  readonly errors?: readonly { readonly file?: string; readonly message: string }[];
  readonly interruption?: Interruption;
  /** Milliseconds per phase of the run (src/cli/run-phases.ts), when the command measured them. */
  readonly phases?: Readonly<Record<string, number>>;
}

export function buildSummary(outcome: RunOutcome, run: { target: string; startedAt: Date; durationMs: number; phases?: Readonly<Record<string, number>> }): Summary {
  return {
    target: run.target,
    startedAt: run.startedAt.toISOString(),
    durationMs: Math.round(run.durationMs),
    conforming: isConforming(outcome),
    counts: countStatuses(outcome.requirements),
    requirements: outcome.requirements.map((r) => ({
      id: r.requirement.id,
      level: r.requirement.level,
      section: r.requirement.section,
      endpoint: r.requirement.endpoint,
      status: r.status,
      checks: r.checks,
      failures: r.failures.map((f) => ({ message: f.message, curl: f.curl })),
      ...(r.reason === undefined || (r.status !== "skipped" && r.status !== "not_applicable") ? {} : { reason: r.reason }),
      ...(r.expectedFailure ? { expectedFailure: true as const } : {}),
    })),
    requests: outcome.requests,
    retries: outcome.retries,
    ...(outcome.errors.length === 0 ? {} : { errors: outcome.errors }),
    ...(outcome.interruption === undefined ? {} : { interruption: outcome.interruption }),
    ...(run.phases === undefined ? {} : { phases: run.phases }),
  };
}
