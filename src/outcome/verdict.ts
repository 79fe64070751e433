// The one verdict of a run, which the console headline, summary.json, junit.xml, the HTML banner and the
// markdown summary all state in the same words. It follows the exit status: every run that does not exit
// 0 is not conforming; a run that exits 0 is conforming, conforming with the baseline's expected
// failures, or partial when some requirement was not run (--only, a missing fixture, a check skipped).

import { pacingHint } from "../harness/decline-tally.ts";
import { foreignPrefixHint } from "../harness/foreign-header-prefix.ts";
import { exitCode } from "./exit-code.ts";
import type { RunOutcome } from "./run-outcome.ts";

/** Best to worst; a fleet's verdict is its worst node's. */
export const VERDICT_KINDS = ["conforming", "conforming-with-baseline", "partial", "not-conforming"] as const;
export type VerdictKind = (typeof VERDICT_KINDS)[number];

/** The counts a verdict rests on (summary.json's `verdictCounts`). */
export interface VerdictCounts {
  /** Requirements in the catalog (the N of "K of N requirements run"). */
  readonly requirements: number;
  /** Requirements some check decided: passed, failed or warned (the K). Skipped and not applicable ones were not run. */
  readonly run: number;
  /** MUST requirements that failed and the baseline does not list. */
  readonly mustFailed: number;
  /** Requirements the baseline lists that failed (or, a SHOULD, warned) as expected. */
  readonly expectedFailures: number;
  /** Requirements the baseline lists that passed: they fail the gate until removed from it. */
  readonly unexpectedPasses: number;
  /** SHOULD requirements that warned and the baseline does not list (they do not fail the gate). */
  readonly warned: number;
  /** Files that failed to load, checks that died outside the harness, unhandled errors. */
  readonly errors: number;
}

export interface Verdict {
  readonly kind: VerdictKind;
  /** "CONFORMING", "CONFORMING WITH 3 EXPECTED FAILURES", "PARTIAL", "NOT CONFORMING". */
  readonly label: string;
  /** What the label rests on, in a sentence; ends with `hint` when there is one. */
  readonly detail: string;
  /**
   * When the target sent its ledger headers under another prefix than the run's: which, and the flags
   * that make the run expect them. In the detail too, so every report states it with the verdict.
   */
  readonly hint?: string;
  /** `${label}: ${detail}`, the console headline and the words of every report. */
  readonly headline: string;
  readonly counts: VerdictCounts;
}

export function verdictCounts(outcome: RunOutcome): VerdictCounts {
  const rs = outcome.requirements;
  return {
    requirements: rs.length,
    run: rs.filter((r) => r.status === "passed" || r.status === "failed" || r.status === "warned").length,
    mustFailed: rs.filter((r) => r.status === "failed" && r.requirement.level === "MUST" && !r.expectedFailure && !r.unexpectedPass).length,
    expectedFailures: rs.filter((r) => r.expectedFailure === true).length,
    unexpectedPasses: rs.filter((r) => r.unexpectedPass === true).length,
    warned: rs.filter((r) => r.status === "warned" && !r.expectedFailure).length,
    errors: outcome.errors.length,
  };
}

export function verdictOf(outcome: RunOutcome): Verdict {
  const counts = verdictCounts(outcome);
  const kind = kindOf(outcome, counts);
  const label =
    kind === "conforming-with-baseline"
      ? `CONFORMING WITH ${plural(counts.expectedFailures, "EXPECTED FAILURE")}`
      : kind.replace(/-/g, " ").toUpperCase();
  const hint = outcome.foreignHeaderPrefixes === undefined ? undefined : foreignPrefixHint(outcome.foreignHeaderPrefixes);
  const pacing = pacingHint(outcome.declines);
  const detail = `${detailOf(kind, outcome, counts)}${hint === undefined ? "" : `; ${hint}`}${pacing === undefined ? "" : `; ${pacing}`}`;
  return { kind, label, detail, headline: `${label}: ${detail}`, counts, ...(hint === undefined ? {} : { hint }) };
}

function kindOf(outcome: RunOutcome, c: VerdictCounts): VerdictKind {
  if (exitCode(outcome) !== 0) return "not-conforming";
  if (c.run < c.requirements) return "partial";
  return c.expectedFailures > 0 ? "conforming-with-baseline" : "conforming";
}

function detailOf(kind: VerdictKind, outcome: RunOutcome, c: VerdictCounts): string {
  const file = outcome.baseline?.file ?? "the baseline";
  const warnings = c.warned > 0 ? `; ${plural(c.warned, "SHOULD requirement")} warned` : "";
  const expected = `${plural(c.expectedFailures, "expected failure")} from the baseline ${file}`;
  switch (kind) {
    case "conforming":
      return `every MUST requirement holds${warnings}`;
    case "conforming-with-baseline":
      return `every MUST requirement holds except the ${expected}${warnings}`;
    case "partial": {
      const held =
        c.expectedFailures === 0 && c.warned === 0
          ? "all hold"
          : `every MUST among them holds${c.expectedFailures > 0 ? ` except the ${expected}` : ""}${warnings}`;
      const listedNotRun = baselinedNotRun(outcome);
      const unknown =
        listedNotRun.length === 0 ? "" : `; not run, so neither known to fail nor to hold: ${listedNotRun.join(", ")}, which ${file} lists`;
      return `${c.run} of ${c.requirements} requirements run, ${held}; the others were not run (skipped or not applicable, never passed)${unknown}`;
    }
    case "not-conforming": {
      if (outcome.interruption?.kind === "not_started") return `nothing could be tested: ${outcome.interruption.reason}`;
      const why: string[] = [];
      if (c.mustFailed > 0) why.push(`${plural(c.mustFailed, "MUST requirement")} failed`);
      const one = c.unexpectedPasses === 1;
      if (c.unexpectedPasses > 0)
        why.push(
          `${plural(c.unexpectedPasses, "requirement")} the baseline ${file} lists as expected ${one ? "failure now passes (remove it" : "failures now pass (remove them"} from the baseline)`,
        );
      if (outcome.interruption !== undefined)
        why.push(`the run stopped before its end (${outcome.interruption.reason}): the checks that did not run are skipped`);
      if (c.errors > 0) why.push(`the run had ${plural(c.errors, "error")}`);
      if (c.expectedFailures > 0) why.push(`besides, the ${expected}`);
      return why.join("; ");
    }
  }
}

/** Requirements the baseline lists that did not run: a verdict on them would be a guess either way. */
function baselinedNotRun(outcome: RunOutcome): string[] {
  const listed = new Set(outcome.baseline?.ids ?? []);
  return outcome.requirements
    .filter((r) => listed.has(r.requirement.id) && (r.status === "skipped" || r.status === "not_applicable"))
    .map((r) => r.requirement.id);
}

function plural(n: number, noun: string): string {
  const upper = noun === noun.toUpperCase();
  return `${n} ${n === 1 ? noun : `${noun}${upper ? "S" : "s"}`}`;
}
