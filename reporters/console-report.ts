// The end of the console output: a table of requirement statuses by endpoint, what the node did under
// load (when the run had a load mode), the failures with their curl lines, why requirements were
// skipped, run errors, how much of the spec the suite checks (the package's coverage figure: what a
// pass covers), and the verdict. The caller passes the text through escapeControls: failure
// messages quote what the target sent.

import { describeContentCodings, type ContentCodingCount } from "../src/harness/content-coding-tally.ts";
import type { RunOutcome } from "../src/outcome/run-outcome.ts";
import { countStatuses } from "./status-counts.ts";
import type { Verdict } from "../src/outcome/verdict.ts";
import { unknownMemberLines } from "./unknown-members-report.ts";
import { loadLines } from "./load-profile-report.ts";
import { declinesLines } from "./declines-report.ts";
import type { CoverageCounts } from "../src/harness/spec-statements.ts";
import { coverageLine, packageCoverage } from "./spec-coverage.ts";

const COLUMNS = ["pass", "fail", "warn", "skip", "n/a"] as const;

export function renderConsoleReport(
  outcome: RunOutcome,
  run: {
    target: string;
    durationMs: number;
    reportDir: string;
    exitCode: number;
    verdict: Verdict;
    /** Absent: the package's (schemas/spec-statements.yaml). */
    coverage?: CoverageCounts;
  },
): string {
  const lines: string[] = [""];
  const byEndpoint = new Map<string, RunOutcome["requirements"][number][]>();
  for (const r of outcome.requirements) {
    const list = byEndpoint.get(r.requirement.endpoint) ?? [];
    list.push(r);
    byEndpoint.set(r.requirement.endpoint, list);
  }
  const rows: string[][] = [];
  for (const [endpoint, list] of [...byEndpoint.entries()].sort(([a], [b]) => (a === "*" ? -1 : b === "*" ? 1 : a.localeCompare(b)))) {
    const c = countStatuses(list);
    rows.push([
      endpoint === "*" ? "* (every response)" : endpoint,
      ...[c.passed, c.failed, c.warned, c.skipped, c.notApplicable].map(String),
    ]);
  }
  const total = countStatuses(outcome.requirements);
  rows.push(["total", ...[total.passed, total.failed, total.warned, total.skipped, total.notApplicable].map(String)]);
  const header = ["requirements by endpoint", ...COLUMNS];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  lines.push(fmt(header), widths.map((w) => "-".repeat(w)).join("  "));
  rows.forEach((r, i) => {
    if (i === rows.length - 1) lines.push(widths.map((w) => "-".repeat(w)).join("  "));
    lines.push(fmt(r));
  });
  const load = loadLines(outcome.loadProfile);
  if (load.length > 0) lines.push("", ...load);
  const declined = declinesLines(outcome.declines);
  if (declined.length > 0) lines.push("", ...declined);

  const failing = outcome.requirements.filter((r) => r.status === "failed" || r.status === "warned");
  if (failing.length > 0) {
    lines.push("", "Failures and warnings:");
    for (const r of failing) {
      const tag = `${r.status === "failed" ? "FAIL" : "WARN"}${r.expectedFailure ? " (expected by baseline)" : r.unexpectedPass ? " (baselined, but passes)" : ""}`;
      lines.push("", `${tag} ${r.requirement.id} (${r.requirement.level}, ${r.requirement.endpoint}): ${r.requirement.text}`);
      const shown = r.failures.slice(0, 3);
      for (const f of shown) lines.push(indent(f.message, "  "));
      if (r.failures.length > shown.length) lines.push(`  … and ${r.failures.length - shown.length} more in summary.json`);
    }
  }
  const untested = outcome.requirements.filter((r) => r.status === "skipped" && r.reason === "untested");
  if (untested.length > 0) lines.push("", `Untested (no check exercised them): ${untested.map((r) => r.requirement.id).join(", ")}`);
  const skippedByReason = new Map<string, string[]>();
  for (const r of outcome.requirements) {
    if (r.status !== "skipped" || r.reason === "untested") continue;
    const reason = r.reason ?? "skipped";
    skippedByReason.set(reason, [...(skippedByReason.get(reason) ?? []), r.requirement.id]);
  }
  if (skippedByReason.size > 0) {
    lines.push("", "Skipped (never counted as passed):");
    for (const [reason, ids] of skippedByReason) {
      lines.push(
        `  ${ids.length} requirement${ids.length === 1 ? "" : "s"}: ${reason}`,
        `    ${ids.slice(0, 12).join(", ")}${ids.length > 12 ? `, … and ${ids.length - 12} more` : ""}`,
      );
    }
  }
  if (outcome.errors.length > 0) {
    lines.push("", "Run errors:");
    for (const e of outcome.errors) lines.push(`  ${e.file ? `${e.file}: ` : ""}${e.message}`);
  }
  const unknown = unknownMemberLines(outcome.unknownMembers);
  if (unknown.length > 0) lines.push("", ...unknown);
  if (outcome.contentCodings !== undefined) lines.push("", contentCodingsLine(outcome.contentCodings));
  lines.push(
    "",
    coverageLine(run.coverage ?? packageCoverage(), `${run.reportDir}/html/spec.html`),
    `${run.verdict.headline} — ${outcome.requests} requests (${outcome.retries} retries after connection faults) to ${run.target} in ${(run.durationMs / 1000).toFixed(1)} s`,
    `Reports: ${run.reportDir}/summary.json, summary.md, junit.xml, html/index.html — exit ${run.exitCode}`,
  );
  return `${lines.join("\n")}\n`;
}

/** The codings the answers came in: a fact of the run, as the load profile is, never a verdict. */
export function contentCodingsLine(counts: readonly ContentCodingCount[]): string {
  return `Content codings of the answers (read whether asked or not, RFC 9110 §12.5.3): ${describeContentCodings(counts)}`;
}

function indent(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((l) => prefix + l)
    .join("\n");
}
