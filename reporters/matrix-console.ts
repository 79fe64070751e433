// The end of a fleet's console output: a line per node (verdict, exit status, counts) and one per node
// that declined requests (503, 429), the requirements
// that did not pass on every node with each node's status, the spec coverage figure of this version's
// map (reporters/spec-coverage.ts), and the fleet's verdict. The caller passes
// the text through escapeControls: names, targets and reasons may come from summaries made elsewhere.

import { declinesHeadline } from "./declines-report.ts";
import { coverageLine, packageCoverage } from "./spec-coverage.ts";
import type { Declines } from "../src/harness/decline-tally.ts";
import { buildMatrix, verdictWords, type MatrixNode } from "./matrix-data.ts";
import type { VerdictKind } from "../src/outcome/verdict.ts";

/** Rows listed on the console; the HTML page has every row. */
const MAX_ROWS = 40;

const SHORT = { passed: "pass", failed: "FAIL", warned: "warn", skipped: "skip", not_applicable: "n/a", absent: "-" } as const;

export function renderMatrixConsole(
  nodes: readonly MatrixNode[],
  run: { readonly reportDir: string; readonly exitCode: number; readonly verdict: VerdictKind },
): string {
  const table = [
    ["node", "verdict", "exit", "pass", "fail", "warn", "skip", "n/a", "target"],
    ...nodes.map((n) => {
      const c = n.summary.counts;
      return [
        n.name,
        verdictWords(n.verdict),
        String(n.exitCode),
        ...[c.passed, c.failed, c.warned, c.skipped, c.notApplicable].map(String),
        n.summary.target,
      ];
    }),
  ];
  const lines = ["", ...columns(table)];
  // What each node declined (503, 429): counted, never judged; its own console.txt has the endpoints.
  const declined = nodes.filter((n) => n.summary.declined !== undefined);
  if (declined.length > 0)
    lines.push("", ...declined.map((n) => `${n.name} declined: ${declinesHeadline(n.summary.declined as Declines)}`));
  const matrix = buildMatrix(nodes);
  // What tells the nodes apart or fails somewhere; a requirement every node skipped alike (--only) is not news.
  const shown = matrix.rows.filter((row) =>
    row.cells.some((c) => c.status === "failed" || c.status === "warned" || c.status !== row.cells[0]?.status),
  );
  if (shown.length > 0) {
    lines.push("", "requirements that failed, warned or differ between nodes:");
    const rows = shown.slice(0, MAX_ROWS).map((row) => [row.id, ...row.cells.map((c) => SHORT[c.status])]);
    lines.push(...columns([["requirement", ...matrix.nodes], ...rows]).map((l) => `  ${l}`));
    if (shown.length > MAX_ROWS) lines.push(`  … and ${shown.length - MAX_ROWS} more (html/index.html has them all)`);
  }
  const { verdict } = run;
  const worst = nodes.filter((n) => n.verdict === verdict).map((n) => n.name);
  lines.push(
    "",
    coverageLine(packageCoverage(), "each node's html/spec.html"),
    `FLEET ${verdictWords(verdict).toUpperCase()}: the worst node's verdict (${worst.length === nodes.length ? `all ${nodes.length} nodes` : worst.join(", ")})`,
    `Reports: ${run.reportDir}/summary.json, html/index.html — exit ${run.exitCode}`,
    "",
  );
  return lines.join("\n");
}

/** Left-aligned columns two spaces apart (the last one unpadded). */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "));
}
