// --write-baseline FILE: the MUST requirements that failed, one id a line, each under a comment holding its
// first failure's first line, in the text form --baseline reads (src/outcome/baseline-list.ts). A
// requirement the baseline listed that now passes is left out (it is no longer an expected failure).

import type { RunOutcome } from "../src/outcome/run-outcome.ts";
import { escapeControls } from "./escape-controls.ts";

/** A comment line is cut here: the full message is in the reports. */
const COMMENT_CUT = 240;

export function failedMustIds(outcome: RunOutcome): string[] {
  return outcome.requirements
    .filter((r) => r.requirement.level === "MUST" && r.status === "failed" && !r.unexpectedPass)
    .map((r) => r.requirement.id);
}

export function renderBaseline(outcome: RunOutcome, run: { target: string; startedAt: Date }): string {
  const failed = new Set(failedMustIds(outcome));
  const lines = [
    `# Expected failures: the MUST requirements that failed against ${oneLine(run.target)}`,
    `# (ledger-conformance --write-baseline, run of ${run.startedAt.toISOString()}).`,
    "# Use it with --baseline: these do not fail the gate, and a listed id that starts passing does.",
  ];
  for (const r of outcome.requirements) {
    if (!failed.has(r.requirement.id)) continue;
    lines.push("", `# ${oneLine(r.failures[0]?.message ?? r.requirement.text)}`, r.requirement.id);
  }
  if (failed.size === 0) lines.push("", "# (none failed)");
  return `${lines.join("\n")}\n`;
}

/** The first line, with control characters shown, cut to a comment's length. */
function oneLine(text: string): string {
  const line = escapeControls(text.split("\n")[0] ?? "");
  return line.length > COMMENT_CUT ? `${line.slice(0, COMMENT_CUT)}…` : line;
}
