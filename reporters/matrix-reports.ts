// Writes a fleet's matrix report, for a fleet run and for `merge` alike: summary.json (the fleet's
// members and targets[], reporters/matrix-data.ts), html/index.html (reporters/matrix-html.ts), summary.md
// (reporters/matrix-markdown.ts) and the console table, or with --format markdown summary.md, each
// stating the fleet's verdict and exit status as the engine judged them (src/outcome/fleet-verdict.ts).

import { writeFileSync } from "node:fs";
import { escapeControls } from "./escape-controls.ts";
import { renderMatrixConsole } from "./matrix-console.ts";
import { buildFleetSummary, type MatrixNode } from "./matrix-data.ts";
import type { Judgement } from "../src/outcome/fleet-verdict.ts";
import { renderMatrixHtml } from "./matrix-html.ts";
import { renderMatrixMarkdown } from "./matrix-markdown.ts";
import type { ReportFormat } from "./report-format.ts";
import type { ReportLayout } from "./report-layout.ts";

export interface MatrixReportInput {
  readonly layout: ReportLayout;
  readonly nodes: readonly MatrixNode[];
  readonly startedAt: Date;
  readonly durationMs: number;
  /** What stdout gets: the console table (when absent), or summary.md. */
  readonly format?: ReportFormat;
  /** The fleet's verdict and exit status. */
  readonly fleet: Judgement;
  /** false: no console table (a caller that reads the reports itself). */
  readonly console?: boolean;
}

export function writeMatrixReports(input: MatrixReportInput): void {
  const { layout, nodes, startedAt, durationMs } = input;
  const { verdict, exitCode } = input.fleet;
  layout.create();
  writeFileSync(layout.summary, `${JSON.stringify(buildFleetSummary(nodes, { startedAt, durationMs, verdict }), null, 2)}\n`);
  writeFileSync(layout.htmlIndex, renderMatrixHtml({ nodes, startedAt, durationMs, exitCode, verdict }));
  const markdown = renderMatrixMarkdown(nodes, verdict);
  writeFileSync(layout.summaryMarkdown, markdown);
  // The table is the command's answer: printed with --quiet too, as a one-node run prints its own.
  if (input.console === false) return;
  process.stdout.write(
    input.format === "markdown" ? markdown : escapeControls(renderMatrixConsole(nodes, { reportDir: layout.display, exitCode, verdict })),
  );
}
