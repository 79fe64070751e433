// What a check records, and how the results of many checks become one status per requirement.
// Shared by the harness (which writes results into a vitest test's `meta`) and the reporter
// (which reads them back and aggregates).

import type { Level } from "./requirements.ts";
import type { UnknownMembersSeen } from "./unknown-member-tally.ts";
import type { ForeignHeaderPrefixes } from "./foreign-header-prefix.ts";
import type { LoadProfile } from "./load-profile.ts";
import type { ContentCodingCount } from "./content-coding-tally.ts";

export type ResultStatus = "passed" | "failed" | "warned" | "skipped" | "not_applicable";

/** What a requirement's level makes of evidence against it: a MUST fails, a SHOULD warns. */
export function failingStatus(level: Level): "failed" | "warned" {
  return level === "MUST" ? "failed" : "warned";
}

export interface Failure {
  /** Requirement id, expectation, what came back, and the curl line, as one readable text. */
  readonly message: string;
  /** The request that shows the failure, as a replayable shell line; null when no request is involved. */
  readonly curl: string | null;
}

/** One outcome of one check (or one observed-contract rule) against one requirement. */
export interface CheckResult {
  readonly requirement: string;
  readonly status: ResultStatus;
  readonly failures: readonly Failure[];
  /** Why a result is skipped or not applicable (e.g. the fixture member it needed). */
  readonly reason?: string;
}

/** One HTTP exchange, as recorded for the report. */
export interface RequestRecord {
  readonly method: string;
  readonly url: string;
  /** null when no HTTP answer came back (timeout, refused, reset). */
  readonly status: number | null;
  readonly durationMs: number;
  readonly curl: string;
  readonly error?: string;
  /** How many times it was sent again after its connection failed (absent: sent once). */
  readonly retries?: number;
}

/** What `check()` stores in `task.meta.conformance` for the reporter. */
export interface ConformanceMeta {
  readonly results: readonly CheckResult[];
  readonly requests: readonly RequestRecord[];
  /** Members of the check's responses the contract does not declare, per schema (absent: none). */
  readonly unknownMembers?: UnknownMembersSeen;
  /** Ledger-header prefixes the check's responses carried besides the run's (absent: none). */
  readonly foreignHeaderPrefixes?: ForeignHeaderPrefixes;
  /** The content codings the check's answers came in, asked or not (absent: none coded). */
  readonly contentCodings?: readonly ContentCodingCount[];
  /** What the node did under the load mode, from the check that ran the load (absent elsewhere). */
  readonly loadProfile?: LoadProfile;
}

declare module "@vitest/runner" {
  interface TaskMeta {
    /** The id of the requirement a check tests, set when `check()` registers it. */
    requirement?: string;
    conformance?: ConformanceMeta;
    /** Why the check was registered skipped (--only, --skip, --level); absent when it was selected. */
    notSelected?: string;
  }
}

export interface AggregateStatus {
  readonly status: ResultStatus;
  readonly reason?: string;
}

/**
 * A requirement's status from its checks' results: failed if any failed; warned if any warned and
 * none failed; passed if at least one passed and the rest passed or not applicable; not_applicable if
 * all n/a; skipped if all skipped; no results at all → skipped "untested" (a requirement nothing
 * exercised is never passed). Mixed: passed with some skipped → passed (something verified it; the
 * skipped results stay listed as evidence); skipped with some n/a and no pass → skipped, so that a
 * skip is never hidden as n/a.
 */
export function aggregateStatus(results: readonly Pick<CheckResult, "status" | "reason">[]): AggregateStatus {
  if (results.length === 0) return { status: "skipped", reason: "untested" };
  const has = (s: ResultStatus) => results.some((r) => r.status === s);
  if (has("failed")) return { status: "failed" };
  if (has("warned")) return { status: "warned" };
  if (has("passed")) return { status: "passed" };
  if (has("skipped")) return { status: "skipped", reason: reasons(results, "skipped") };
  return { status: "not_applicable", reason: reasons(results, "not_applicable") };
}

function reasons(results: readonly Pick<CheckResult, "status" | "reason">[], status: ResultStatus): string {
  const distinct = [...new Set(results.filter((r) => r.status === status).map((r) => r.reason ?? status))];
  return distinct.join("; ");
}
