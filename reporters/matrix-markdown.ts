// A fleet's summary.md, and what `--format markdown` prints for a fleet: the fleet's verdict line, the
// spec coverage figure of this version's map, a line per node, and the requirement-by-node table (with each row's first failure or reason), failed and warned rows first, for a CI job summary (as
// markdown-summary.ts is for one node). Names, targets and messages may come from summaries made
// elsewhere, so every cell goes through that file's `cell` escaping.

import { declinesHeadline } from "./declines-report.ts";
import { cell } from "./markdown-summary.ts";
import { coverageFigure, packageCoverage } from "./spec-coverage.ts";
import { fleetStatus } from "../src/outcome/fleet-status.ts";
import { buildMatrix, verdictWords, type MatrixCell, type MatrixNode } from "./matrix-data.ts";
import type { VerdictKind } from "../src/outcome/verdict.ts";

const ORDER = { failed: 0, warned: 1, skipped: 2, not_applicable: 3, passed: 4 } as const;
const WORD = {
  failed: "❌ failed",
  warned: "⚠️ warned",
  skipped: "skipped",
  not_applicable: "n/a",
  passed: "✅ passed",
  absent: "—",
} as const;

/** `verdict`: the fleet's. */
export function renderMatrixMarkdown(nodes: readonly MatrixNode[], verdict: VerdictKind): string {
  const worst = nodes.filter((n) => n.verdict === verdict).map((n) => n.name);
  const matrix = buildMatrix(nodes);
  const rows = matrix.rows
    .map((row) => ({ row, status: fleetStatus(row.cells) }))
    .sort((a, b) => ORDER[a.status] - ORDER[b.status])
    .map(
      ({ row, status }) =>
        `| ${[WORD[status], row.id, row.level, row.section, row.endpoint, ...row.cells.map(cellWord), detail(nodes, row.id)].map(cell).join(" | ")} |`,
    );
  return [
    `# ledger-conformance: a fleet of ${nodes.length} nodes`,
    "",
    `**FLEET ${cell(verdictWords(verdict).toUpperCase())}**: the worst node's verdict (${cell(worst.length === nodes.length ? `all ${nodes.length} nodes` : worst.join(", "))})`,
    "",
    `Spec coverage: ${coverageFigure(packageCoverage())} (see each node's \`html/spec.html\`).`,
    "",
    "| node | verdict | exit | passed | failed | warned | skipped | n/a | target |",
    "|---|---|---|---|---|---|---|---|---|",
    ...nodes.map((n) => {
      const c = n.summary.counts;
      return `| ${[n.name, verdictWords(n.verdict), String(n.exitCode), ...[c.passed, c.failed, c.warned, c.skipped, c.notApplicable].map(String), n.summary.target].map(cell).join(" | ")} |`;
    }),
    "",
    // What each node declined (503, 429): counted, never judged.
    ...nodes.flatMap((n) =>
      n.summary.declined === undefined ? [] : [`**${cell(n.name)} declined**: ${cell(declinesHeadline(n.summary.declined))}`, ""],
    ),
    `| fleet | requirement | level | § | endpoint | ${matrix.nodes.map(cell).join(" | ")} | detail |`,
    `|---|---|---|---|---|${matrix.nodes.map(() => "---|").join("")}---|`,
    ...rows,
    "",
  ].join("\n");
}

function cellWord(c: MatrixCell): string {
  return c.status === "absent" ? WORD.absent : `${WORD[c.status]}${c.expectedFailure ? " (expected by baseline)" : ""}`;
}

/** What to read first, with the node's name: the first failure of the first node with one, else the first reason a check did not run. */
function detail(nodes: readonly MatrixNode[], id: string): string {
  const own = nodes.map((node) => ({ node, req: node.summary.requirements.find((r) => r.id === id) }));
  const failed = own.find(({ req }) => req?.failures[0] !== undefined);
  if (failed !== undefined) return `[${failed.node.name}] ${failed.req?.failures[0]?.message.split("\n")[0] ?? ""}`;
  const skipped = own.find(({ req }) => req?.reason !== undefined && (req.status === "skipped" || req.status === "not_applicable"));
  return skipped === undefined ? "" : `[${skipped.node.name}] ${skipped.req?.reason ?? ""}`;
}
