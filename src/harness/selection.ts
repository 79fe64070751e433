// Which checks a run runs: --only and --skip patterns (each one a suite file path substring when some
// suite file's path contains it, else a check name substring; repeated flags combine) and --level
// must. The command resolves each pattern against the suite files once; every worker decides each
// check from the same description when it registers the check, and a check left out is registered
// skipped with the reason, so that the report lists it as not selected, never as passed.

import type { Level } from "./requirements.ts";

export interface SelectionPattern {
  readonly text: string;
  /** "file": some suite file's path contains the text; "name": matched against check names instead. */
  readonly matches: "file" | "name";
}

export interface CheckSelection {
  /** Empty: every check is a candidate. Otherwise a check runs when any pattern matches it. */
  readonly only: readonly SelectionPattern[];
  /** A check any of these match does not run, whatever --only says. */
  readonly skip: readonly SelectionPattern[];
  /** "must": SHOULD requirements are not run. */
  readonly level: "all" | "must";
}

export const EVERY_CHECK: CheckSelection = { only: [], skip: [], level: "all" };

/** What a check is matched on: its file (relative to the suite root), its name (`id: text`), its level. */
export interface CheckIdentity {
  readonly file: string;
  readonly name: string;
  readonly level: Level;
}

export const LEVEL_MUST_REASON = "not run: --level must runs MUST requirements only";

function matches(pattern: SelectionPattern, check: CheckIdentity): boolean {
  return pattern.matches === "file" ? check.file.includes(pattern.text) : check.name.includes(pattern.text);
}

/** Why the check does not run, or undefined when it does. */
export function whyNotSelected(selection: CheckSelection, check: CheckIdentity): string | undefined {
  if (selection.level === "must" && check.level !== "MUST") return LEVEL_MUST_REASON;
  const skippedBy = selection.skip.find((p) => matches(p, check));
  if (skippedBy !== undefined) return `not selected: left out by --skip ${skippedBy.text}`;
  if (selection.only.length > 0 && !selection.only.some((p) => matches(p, check))) return notSelectedByOnly(selection);
  return undefined;
}

/** The reason of a check (or requirement) that no --only pattern selected. */
export function notSelectedByOnly(selection: CheckSelection): string {
  return `not selected by --only ${selection.only.map((p) => p.text).join(", ")}`;
}

/** Resolves pattern texts against the suite files: a text some file path contains is a file pattern. */
export function resolvePatterns(texts: readonly string[], suiteFiles: readonly string[]): SelectionPattern[] {
  return texts.map((text) => ({ text, matches: suiteFiles.some((f) => f.includes(text)) ? "file" : "name" }));
}

/**
 * The suite files worth loading: those a file pattern of --only names (every file when a name
 * pattern is among them, since any file may hold a check of that name), less those a file pattern
 * of --skip names.
 */
export function filesToLoad(selection: CheckSelection, suiteFiles: readonly string[]): string[] {
  const everyFile = selection.only.length === 0 || selection.only.some((p) => p.matches === "name");
  return suiteFiles.filter(
    (f) =>
      (everyFile || selection.only.some((p) => f.includes(p.text))) &&
      !selection.skip.some((p) => p.matches === "file" && f.includes(p.text)),
  );
}
