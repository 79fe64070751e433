// summary.md, and what `--format markdown` prints: the verdict line and the requirement table, failed and
// warned first, for a CI job summary (GitHub's $GITHUB_STEP_SUMMARY, GitLab or Buildkite annotations).
// Every cell is escaped: a failure message quotes the target, and a job summary renders markdown and
// some HTML, so markup, table pipes and control characters are neutralised and cells are cut short.
// The line after the target gives how much of the spec the suite checks (the package's coverage figure).
// One node's part is renderNodeMarkdown, so that a summary over several nodes can reuse it.

import { describeContentCodings } from "../src/harness/content-coding-tally.ts";
import type { RequirementOutcome, RunOutcome } from "../src/outcome/run-outcome.ts";
import { escapeControls } from "./escape-controls.ts";
import type { Verdict } from "../src/outcome/verdict.ts";
import { unknownMemberMarkdown } from "./unknown-members-report.ts";
import { loadMarkdown } from "./load-profile-report.ts";
import { declinesMarkdown } from "./declines-report.ts";
import type { CoverageCounts } from "../src/harness/spec-statements.ts";
import { coverageFigure, packageCoverage } from "./spec-coverage.ts";

/** The longest cell text, in characters: a job summary is read at a glance. */
const CELL_CUT = 200;

const ORDER: Record<RequirementOutcome["status"], number> = { failed: 0, warned: 1, skipped: 2, not_applicable: 3, passed: 4 };
const STATUS_WORD: Record<RequirementOutcome["status"], string> = {
  failed: "❌ failed",
  warned: "⚠️ warned",
  skipped: "skipped",
  not_applicable: "n/a",
  passed: "✅ passed",
};

/** One node's run as the markdown shows it; `coverage` absent: the package's (schemas/spec-statements.yaml). */
export interface MarkdownNode {
  readonly outcome: RunOutcome;
  readonly verdict: Verdict;
  readonly target: string;
  readonly coverage?: CoverageCounts;
}

export function renderMarkdownSummary(node: MarkdownNode): string {
  return `# ledger-conformance\n\n${renderNodeMarkdown(node)}`;
}

export function renderNodeMarkdown(node: MarkdownNode): string {
  const { outcome, verdict } = node;
  const rank = (r: RequirementOutcome) => ORDER[r.status] + (r.expectedFailure ? 0.5 : 0);
  const rows = [...outcome.requirements].sort((a, b) => rank(a) - rank(b)).map((r) => `| ${cells(r).map(cell).join(" | ")} |`);
  const errors = outcome.errors.map((e) => `- run error: ${cell(`${e.file === undefined ? "" : `${e.file}: `}${e.message}`)}`);
  const unknown = unknownMemberMarkdown(outcome.unknownMembers, cell);
  const load = loadMarkdown(outcome.loadProfile, cell);
  const declined = declinesMarkdown(outcome.declines, cell);
  return [
    `**${cell(verdict.label)}**: ${cell(verdict.detail)}`,
    "",
    `Target \`${escapeControls(node.target).replace(/[`\r\n]/g, "")}\`, ${outcome.requests} requests.`,
    ...(outcome.contentCodings === undefined
      ? []
      : ["", `Content codings of the answers (read whether asked or not): ${cell(describeContentCodings(outcome.contentCodings))}.`]),
    "",
    `Spec coverage: ${coverageFigure(node.coverage ?? packageCoverage())} (see \`html/spec.html\`).`,
    ...(errors.length === 0 ? [] : ["", ...errors]),
    ...(load.length === 0 ? [] : ["", ...load]),
    ...(declined.length === 0 ? [] : ["", ...declined]),
    "",
    "| status | requirement | level | § | endpoint | detail |",
    "|---|---|---|---|---|---|",
    ...rows,
    ...(unknown.length === 0 ? [] : ["", ...unknown]),
    "",
  ].join("\n");
}

function cells(r: RequirementOutcome): string[] {
  const status = r.expectedFailure
    ? `${r.status} (expected by baseline)`
    : `${STATUS_WORD[r.status]}${r.unexpectedPass ? " (baselined, but passes)" : ""}`;
  const detail =
    r.failures.length > 0
      ? (r.failures[0]?.message.split("\n")[0] ?? "")
      : r.status === "skipped" || r.status === "not_applicable"
        ? (r.reason ?? "")
        : "";
  const more = r.failures.length > 1 ? ` (and ${r.failures.length - 1} more)` : "";
  return [
    status,
    `${r.requirement.id}: ${r.requirement.text}`,
    r.requirement.level,
    r.requirement.section,
    r.requirement.endpoint,
    `${detail}${more}`,
  ];
}

/** One table cell of untrusted text: one line, cut short, markup and markdown punctuation escaped. */
export function cell(text: string): string {
  const line = escapeControls(text.replace(/\r?\n/g, " ")).trim();
  const cut = line.length > CELL_CUT ? `${line.slice(0, CELL_CUT)}…` : line;
  return cut
    .replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c] as string)
    .replace(/[\\`*_[\]{}()#+!|~]/g, (c) => `\\${c}`);
}
