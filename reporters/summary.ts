// summary.json, with the members docs/reports.md lists, among them `requests` (HTTP requests made) and `retries`
// (how often one was sent again after its connection failed), `reason` on a skipped or not_applicable
// requirement (why: "untested", the fixture it needed, "max duration reached", …), `expectedFailure` on
// a failure the baseline lists, `errors` when files failed to load or the run crashed, and
// `interruption` when the run was stopped before its end or could not start, `phases` (where the run's
// time went, in ms per phase); and the verdict every report states (src/outcome/verdict.ts): `verdict`,
// its words `verdictText`, the counts it rests on `verdictCounts`, `baseline` (the expected-failures
// file applied) and `unexpectedPass` on a baselined requirement that passed. `conforming` is true when
// the verdict is conforming or conforming with the baseline's expected failures (a partial run is not).
// `unknownMembers` lists the members of response bodies the contract does not declare ({schema, member,
// count}; never a failure), `unknownMembersLeftOut` the occurrences past the bound on distinct members.
// `foreignHeaderPrefixes` says the target sent its ledger headers under another prefix than the run's
// ({expected, seen, hint}: the hint, with the flags to use, also ends `verdictText`). `contentCodings`
// counts the answers that came in each content coding ({coding, asked, unasked}: unasked when the
// request's Accept-Encoding did not list it; read all the same, never a failure). `load` is what the
// node did under the load mode (--load N), the LoadProfile as the load counted it (src/harness/load-profile.ts):
// clients, writers, duration, requests and rate, and per endpoint its latency percentiles and answers by
// status class; absent when the run had no load. `coverage` is how much of the spec the suite checks
// (reporters/spec-coverage.ts): the package's figure, the same for every run of one version, so that
// the summary says what its passes mean.

import type { Declines } from "../src/harness/decline-tally.ts";
import type { ResultStatus } from "../src/harness/results.ts";
import type { Interruption, RunOutcome } from "../src/outcome/run-outcome.ts";
import { countStatuses, type StatusCounts } from "./status-counts.ts";
import type { Verdict, VerdictCounts, VerdictKind } from "../src/outcome/verdict.ts";
import type { UnknownMemberCount } from "../src/harness/unknown-member-tally.ts";
import type { ForeignHeaderPrefixes } from "../src/harness/foreign-header-prefix.ts";
import type { ContentCodingCount } from "../src/harness/content-coding-tally.ts";
import type { LoadProfile } from "../src/harness/load-profile.ts";
import type { CoverageCounts } from "../src/harness/spec-statements.ts";
import { packageCoverage } from "./spec-coverage.ts";

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
  readonly unexpectedPass?: true;
}

export interface Summary {
  readonly target: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly conforming: boolean;
  readonly verdict: VerdictKind;
  readonly verdictText: string;
  readonly verdictCounts: VerdictCounts;
  readonly baseline?: string;
  readonly counts: StatusCounts;
  readonly requirements: readonly SummaryRequirement[];
  readonly requests: number;
  readonly retries: number;
  /** The spec's normative statements and how many of them the suite's requirements check (schemas/spec-statements.yaml). */
  readonly coverage: CoverageCounts;
  readonly errors?: readonly { readonly file?: string; readonly message: string }[];
  readonly interruption?: Interruption;
  /** Milliseconds per phase of the run (src/run/phases.ts), when the command measured them. */
  readonly phases?: Readonly<Record<string, number>>;
  /** Members of response bodies the contract does not declare, per schema, most seen first (absent: none seen). */
  readonly unknownMembers?: readonly UnknownMemberCount[];
  /** Occurrences of further members, past the bound on distinct members kept (absent: none). */
  readonly unknownMembersLeftOut?: number;
  /** Ledger-header prefixes the target sent besides the run's, and the verdict's hint on the flags to use (absent: none). */
  readonly foreignHeaderPrefixes?: ForeignHeaderPrefixes & { readonly hint: string };
  /** Answers per content coding, asked by the request's Accept-Encoding or not (absent: none coded). */
  readonly contentCodings?: readonly ContentCodingCount[];
  /** What the node did under the load mode: counted, never judged (absent: the run had no load). */
  readonly load?: LoadProfile;
  /** The requests the target declined (503 shed, 429 rate-limited) per endpoint, and the pace the run settled at: counted, never judged (absent: none). */
  readonly declined?: Declines;
}

export function buildSummary(
  outcome: RunOutcome,
  run: {
    target: string;
    startedAt: Date;
    durationMs: number;
    verdict: Verdict;
    phases?: Readonly<Record<string, number>>;
    /** Absent: the package's (schemas/spec-statements.yaml). */
    coverage?: CoverageCounts;
  },
): Summary {
  const { verdict } = run;
  return {
    target: run.target,
    startedAt: run.startedAt.toISOString(),
    durationMs: Math.round(run.durationMs),
    conforming: verdict.kind === "conforming" || verdict.kind === "conforming-with-baseline",
    verdict: verdict.kind,
    verdictText: verdict.headline,
    verdictCounts: verdict.counts,
    ...(outcome.baseline === undefined ? {} : { baseline: outcome.baseline.file }),
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
      ...(r.unexpectedPass ? { unexpectedPass: true as const } : {}),
    })),
    requests: outcome.requests,
    retries: outcome.retries,
    coverage: run.coverage ?? packageCoverage(),
    ...(outcome.errors.length === 0 ? {} : { errors: outcome.errors }),
    ...(outcome.interruption === undefined ? {} : { interruption: outcome.interruption }),
    ...(run.phases === undefined ? {} : { phases: run.phases }),
    ...(outcome.unknownMembers === undefined || outcome.unknownMembers.members.length === 0
      ? {}
      : { unknownMembers: outcome.unknownMembers.members }),
    ...(outcome.unknownMembers === undefined || outcome.unknownMembers.leftOut === 0
      ? {}
      : { unknownMembersLeftOut: outcome.unknownMembers.leftOut }),
    ...(outcome.foreignHeaderPrefixes === undefined || verdict.hint === undefined
      ? {}
      : { foreignHeaderPrefixes: { ...outcome.foreignHeaderPrefixes, hint: verdict.hint } }),
    ...(outcome.contentCodings === undefined ? {} : { contentCodings: outcome.contentCodings }),
    ...(outcome.loadProfile === undefined ? {} : { load: outcome.loadProfile }),
    ...(outcome.declines === undefined ? {} : { declined: outcome.declines }),
  };
}
