// The expected-failures list applied to a run's outcome: listed failures are expected, a listed id
// that passes on complete evidence fails the gate, one whose evidence cannot tell is not run.

import type { Failure, ResultStatus } from "../harness/results.ts";
import { BaselineError, baselineIds, type BaselineEntry } from "./baseline-list.ts";
import type { Evidence, RequirementOutcome, RunOutcome } from "./run-outcome.ts";

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
