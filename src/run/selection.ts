// The command's side of --only, --skip and --level (the workers' side is src/harness/selection.ts):
// the selection from the flags, what the console says of it, the reason requirements nothing
// exercised are given, and --level must's SHOULD requirements reported not run.

import type { RunOutcome } from "../outcome/run-outcome.ts";
import { currentIds, type RequirementAliases } from "../harness/requirement-aliases.ts";
import { LEVEL_MUST_REASON, notSelectedByOnly, resolvePatterns, type CheckSelection, type SelectionPattern } from "../harness/selection.ts";
import type { RunOptions } from "./run-plan.ts";

/** The selection of the flags; an old requirement id given as a pattern selects the ids that hold it now (all of them, when it was split). */
export function selectionOf(
  args: Pick<RunOptions, "only" | "skip" | "level">,
  suiteFiles: readonly string[],
  aliases: RequirementAliases,
): CheckSelection {
  const current = (patterns: readonly string[]) => patterns.flatMap((p) => currentIds(p, aliases));
  return {
    only: resolvePatterns(current(args.only), suiteFiles),
    skip: resolvePatterns(current(args.skip), suiteFiles),
    level: args.level,
  };
}

export function isFiltered(selection: CheckSelection): boolean {
  return selection.only.length > 0 || selection.skip.length > 0 || selection.level === "must";
}

/** One line per flag for the console: which files, which check names. */
export function describeSelection(selection: CheckSelection): string[] {
  const describe = (flag: string, patterns: readonly SelectionPattern[]) => {
    if (patterns.length === 0) return [];
    const files = patterns.filter((p) => p.matches === "file").map((p) => p.text);
    const names = patterns.filter((p) => p.matches === "name").map((p) => JSON.stringify(p.text));
    const parts = [
      ...(files.length > 0 ? [`files whose path contains ${files.join(", ")}`] : []),
      ...(names.length > 0 ? [`checks whose name contains ${names.join(", ")}`] : []),
    ];
    return [`${flag}: ${parts.join("; and ")}`];
  };
  return [
    ...describe("--only", selection.only),
    ...describe("--skip", selection.skip),
    ...(selection.level === "must" ? ["--level must: MUST requirements only"] : []),
  ];
}

/** The reason a requirement no check exercised is given in a filtered run; undefined: "untested". */
export function untestedReasonOf(selection: CheckSelection): string | undefined {
  const reasons = [
    ...(selection.only.length > 0 ? [notSelectedByOnly(selection)] : []),
    ...(selection.skip.length > 0 ? [`left out by --skip ${selection.skip.map((p) => p.text).join(", ")}`] : []),
  ];
  return reasons.length === 0 ? undefined : reasons.join(", or ");
}

/**
 * Under --level must no SHOULD check ran, but MUST checks' responses are still observed for every
 * requirement: the SHOULD requirements are reported not run, whatever was observed of them.
 */
export function withLevel(outcome: RunOutcome, selection: CheckSelection): RunOutcome {
  if (selection.level !== "must") return outcome;
  return {
    ...outcome,
    requirements: outcome.requirements.map((r) =>
      r.requirement.level === "MUST"
        ? r
        : { requirement: r.requirement, status: "skipped", reason: LEVEL_MUST_REASON, checks: 0, evidence: [], failures: [] },
    ),
  };
}
