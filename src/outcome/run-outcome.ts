// What a run came to: one status per requirement of the catalog with the evidence behind it, the
// run's errors, and what it noted beside the checks. The engine makes it (aggregate.ts,
// apply-baseline.ts); the verdict and the exit status are read from it; the reporters render it.

import type { Declines } from "../harness/decline-tally.ts";
import type { Requirement } from "../harness/requirements.ts";
import type { CheckResult, Failure, ResultStatus } from "../harness/results.ts";
import type { UnknownMembersSeen } from "../harness/unknown-member-tally.ts";
import type { ContentCodingCount } from "../harness/content-coding-tally.ts";
import type { ForeignHeaderPrefixes } from "../harness/foreign-header-prefix.ts";
import type { LoadProfile } from "../harness/load-profile.ts";

/** One result with the test that recorded it. */
export interface Evidence {
  readonly test: string;
  readonly file: string;
  readonly result: CheckResult;
}

export interface RequirementOutcome {
  readonly requirement: Requirement;
  readonly status: ResultStatus;
  readonly reason?: string;
  /** How many results (checks and observed responses) were recorded for it. */
  readonly checks: number;
  readonly evidence: readonly Evidence[];
  readonly failures: readonly Failure[];
  /** Listed in the baseline and failed as expected: does not fail the gate. */
  readonly expectedFailure?: boolean;
  /** Listed in the baseline but passed: reported as a failure, fails the gate. */
  readonly unexpectedPass?: boolean;
}

export interface RunError {
  readonly file?: string;
  readonly message: string;
}

/**
 * Why the run did not run every selected check. "stopped": cut short (--max-duration, a signal); the
 * checks that did not run are skipped with the reason. "not_started": the target cannot be tested at
 * all (unreachable, not HTTP, wants credentials); nothing ran, exit 2.
 */
export interface Interruption {
  readonly kind: "stopped" | "not_started";
  readonly reason: string;
}

export interface RunOutcome {
  readonly requirements: readonly RequirementOutcome[];
  /** Files that failed to load or crashed, checks that died outside the harness, unhandled errors. */
  readonly errors: readonly RunError[];
  /** HTTP requests (and raw exchanges) the checks made, each counted once however often it was sent. */
  readonly requests: number;
  /** How many times a request was sent again after its connection failed. */
  readonly retries: number;
  readonly interruption?: Interruption;
  /** The expected-failures list applied to the run (applyBaseline), with the ids it listed. */
  readonly baseline?: { readonly file: string; readonly ids: readonly string[] };
  /** Members of response bodies the contract does not declare, per schema: noted, never a failure (absent: none). */
  readonly unknownMembers?: UnknownMembersSeen;
  /** Ledger-header prefixes the target sent besides the run's: the verdict says which flags to use (absent: none). */
  readonly foreignHeaderPrefixes?: ForeignHeaderPrefixes;
  /** The content codings the answers came in, asked or not (RFC 9110 §12.5.3): read, never judged (absent: none coded). */
  readonly contentCodings?: readonly ContentCodingCount[];
  /** What the node did under the load mode (--load N): counted, never judged (absent: the run had no load). */
  readonly loadProfile?: LoadProfile;
  /** The requests the target declined (503 shed, 429 rate-limited) per endpoint, and the pace they brought the run to (absent: none). */
  readonly declines?: Declines;
}
