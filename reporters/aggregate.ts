// From the results the checks recorded to one status per requirement of the catalog, with the
// evidence behind it; then the expected-failures baseline, and the exit status the gate uses.

import type { Declines } from "../src/harness/decline-tally.ts";
import { currentIds, type RequirementAliases } from "../src/harness/requirement-aliases.ts";
import type { Requirement, RequirementCatalog } from "../src/harness/requirements.ts";
import { aggregateStatus, type CheckResult, type Failure, type ResultStatus } from "../src/harness/results.ts";
import { ConfigurationError } from "../src/harness/configuration-error.ts";
import type { UnknownMembersSeen } from "../src/harness/unknown-member-tally.ts";
import type { ContentCodingCount } from "../src/harness/content-coding-tally.ts";
import type { ForeignHeaderPrefixes } from "../src/harness/foreign-header-prefix.ts";
import type { LoadProfile } from "../src/harness/load-profile.ts";

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

export class BaselineError extends ConfigurationError {
  override readonly name = "BaselineError";
}

/**
 * One entry of an expected-failures list: the id it names, and the catalog ids that hold that
 * requirement now (the id itself; the one it was renamed or merged into; the parts it was split into).
 */
export interface BaselineEntry {
  readonly listed: string;
  readonly ids: readonly [string, ...string[]];
}

/**
 * An expected-failures list: a JSON array of ids, a JSON object {"expectedFailures": [...]}, or text
 * with one id per line (# starts a comment). An id the alias table maps (an id from before a merge, a
 * rename or a split) is read as the ids that hold its requirement now.
 */
export function parseBaselineEntries(text: string, source = "baseline", aliases: RequirementAliases = new Map()): BaselineEntry[] {
  return listedIds(text, source).map((listed) => ({ listed, ids: currentIds(listed, aliases) }));
}

/** The catalog ids an expected-failures list names, each once (parseBaselineEntries, flattened). */
export function parseBaseline(text: string, source = "baseline", aliases: RequirementAliases = new Map()): string[] {
  return baselineIds(parseBaselineEntries(text, source, aliases));
}

export function baselineIds(entries: readonly BaselineEntry[]): string[] {
  return [...new Set(entries.flatMap((e) => e.ids))];
}

function listedIds(text: string, source: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (e) {
      throw new BaselineError(`${source}: not JSON: ${(e as Error).message}`);
    }
    const list = Array.isArray(json) ? json : (json as { expectedFailures?: unknown }).expectedFailures;
    if (!Array.isArray(list) || !list.every((x) => typeof x === "string")) {
      throw new BaselineError(`${source}: expected an array of requirement ids or {"expectedFailures": [...]}`);
    }
    return list as string[];
  }
  return trimmed
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter((l) => l !== "");
}

/**
 * Listed ids that failed (a MUST) or warned (a SHOULD: its failures are reported warned) keep their
 * status but are marked expected; a listed id that passed is turned into a failure "unexpectedly
 * passing" so the baseline is kept honest; unlisted failures stay failures. Unknown ids are a
 * configuration error.
 *
 * An entry naming an id that was split lists the group of its parts: the group is expected to fail
 * when at least one part fails (the parts that pass were never what failed), and it is "unexpectedly
 * passing" only when every part passes. A bare id is an entry of its own.
 *
 * A listed id passes only on the evidence of every one of its checks: when some did not run (skipped,
 * not applicable), the ones that ran may be exactly those that cannot show the deviation the baseline
 * lists it for, so the id is "not run" (skipped, with the reason), never "unexpectedly passing". A rule
 * judged on every response (endpoint "*") is judged by every check of the run: when any check of the
 * run did not run, the responses it would have brought are missing from its evidence too.
 */
export function applyBaseline(outcome: RunOutcome, baseline: readonly (string | BaselineEntry)[], source: string): RunOutcome {
  const entries = baseline.map((e): BaselineEntry => (typeof e === "string" ? { listed: e, ids: [e] } : e));
  const ids = baselineIds(entries);
  const known = new Set(outcome.requirements.map((r) => r.requirement.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new BaselineError(`${source} lists ids that are not in the catalog: ${unknown.join(", ")}`);
  const byId = new Map(outcome.requirements.map((r) => [r.requirement.id, r]));
  const runIncomplete = incompleteRun(outcome);
  /** Why a passed requirement's evidence cannot tell that it no longer fails, or undefined when it can. */
  const notRunReason = (r: RequirementOutcome): string | undefined => {
    const notRun = r.evidence.filter((e) => !ran(e.result.status));
    if (notRun.length > 0) return `${notRun.length} of its ${r.checks} checks did not run (${reasonsOf(notRun)})`;
    return r.requirement.endpoint === "*" ? runIncomplete : undefined;
  };
  const failing = (id: string) => {
    const status = byId.get(id)?.status;
    return status === "failed" || status === "warned";
  };
  // Per passed id: the entry that shows it stale (every id of the entry passed on complete evidence), or
  // failing that the reason an entry of it cannot tell.
  const stale = new Map<string, BaselineEntry>();
  const undecided = new Map<string, string>();
  for (const entry of entries) {
    if (entry.ids.some(failing)) continue;
    const passed = entry.ids.map((id) => byId.get(id) as RequirementOutcome).filter((r) => r.status === "passed");
    if (passed.length < entry.ids.length) {
      // A part neither failed nor passed (skipped, not applicable): the entry cannot be decided.
      for (const r of passed) undecided.set(r.requirement.id, "another requirement of the same entry did not run");
      continue;
    }
    const reasons = passed.map(notRunReason);
    const why = reasons.find((w) => w !== undefined);
    if (why === undefined) for (const r of passed) stale.set(r.requirement.id, entry);
    else for (const r of passed) undecided.set(r.requirement.id, reasons[passed.indexOf(r)] ?? why);
  }
  const listed = new Set(ids);
  const requirements = outcome.requirements.map((r): RequirementOutcome => {
    const id = r.requirement.id;
    if (!listed.has(id)) return r;
    if (r.status === "failed" || r.status === "warned") return { ...r, expectedFailure: true };
    if (r.status !== "passed") return r;
    const entry = stale.get(id);
    if (entry !== undefined) {
      const what =
        entry.ids.length === 1 && entry.listed === id ? "" : ` (as part of ${entry.listed}: ${entry.ids.join(", ")}, all of which passed)`;
      const failure: Failure = {
        message: `[${id}] unexpectedly passing: ${source} lists it as an expected failure${what}, but it passed; remove it from the baseline`,
        curl: null,
      };
      const { reason: _reason, ...rest } = r;
      return { ...rest, status: "failed", unexpectedPass: true, failures: [failure, ...r.failures] };
    }
    const why = undecided.get(id);
    if (why !== undefined) {
      const reason = `not run: ${why}; ${source} lists it as an expected failure, and the checks that ran cannot tell whether it still fails`;
      return { ...r, status: "skipped", reason };
    }
    // Listed only in groups another part of which fails: the part that passes was never the failure.
    return r;
  });
  return { ...outcome, requirements, baseline: { file: source, ids } };
}

const ran = (status: ResultStatus) => status !== "skipped" && status !== "not_applicable";

function reasonsOf(evidence: readonly Evidence[]): string {
  return [...new Set(evidence.map((e) => e.result.reason ?? e.result.status))].join("; ");
}

/** Why not every check of the run ran (stopped, a check or a requirement not run), or undefined when all did. */
function incompleteRun(outcome: RunOutcome): string | undefined {
  if (outcome.interruption !== undefined) return `the run stopped before its end (${outcome.interruption.reason})`;
  const notRun = outcome.requirements.flatMap((r) => r.evidence.filter((e) => !ran(e.result.status)));
  const untested = outcome.requirements.filter((r) => r.checks === 0).length;
  if (notRun.length === 0 && untested === 0) return undefined;
  const parts = [
    ...(notRun.length > 0 ? [`${notRun.length} checks of the run did not run (${reasonsOf(notRun.slice(0, 50))})`] : []),
    ...(untested > 0 ? [`${untested} requirements had no check run`] : []),
  ];
  return `${parts.join(", and ")}: a rule judged on every response has not seen the responses they would have brought`;
}

export interface StatusCounts {
  passed: number;
  failed: number;
  skipped: number;
  notApplicable: number;
  warned: number;
}

export function countStatuses(requirements: readonly Pick<RequirementOutcome, "status">[]): StatusCounts {
  const counts: StatusCounts = { passed: 0, failed: 0, skipped: 0, notApplicable: 0, warned: 0 };
  for (const r of requirements) {
    if (r.status === "not_applicable") counts.notApplicable += 1;
    else counts[r.status] += 1;
  }
  return counts;
}

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
