// A fleet's own reports, once each node's are written: a line per node, and the requirement-by-node
// matrix built from the nodes' summary.json files exactly as `merge` builds it from runs made elsewhere
// (reporters/matrix-reports.ts). The fleet's exit status is the worst node's.

import type { MatrixNode } from "../../reporters/matrix-data.ts";
import { writeMatrixReports } from "../../reporters/matrix-reports.ts";
import type { ReportFormat } from "../../reporters/report-format.ts";
import type { ReportLayout } from "../../reporters/report-layout.ts";
import { fleetJudgement, nodeVerdict } from "../outcome/fleet-verdict.ts";
import { readRunSummary } from "./summary-reader.ts";

export interface FleetReportInput {
  readonly layout: ReportLayout;
  /** Each node: its name, the directory of its reports, its exit status. */
  readonly nodes: readonly { readonly name: string; readonly dir: string; readonly exitCode: number }[];
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly format?: ReportFormat;
  /** false: no console table. */
  readonly console?: boolean;
  readonly say: (line: string) => void;
}

/** Writes the fleet's matrix; the fleet's exit status. */
export function writeFleetReports(input: FleetReportInput): number {
  const matrix: MatrixNode[] = input.nodes.map((node) => {
    const summary = readRunSummary(node.dir);
    input.say(
      `${node.exitCode === 0 ? "✓" : "✗"} ${node.name}: exit ${node.exitCode}, ${summary.counts.failed} failed, ${summary.counts.warned} warned, ${summary.counts.passed} passed (${(summary.durationMs / 1000).toFixed(1)} s)`,
    );
    return {
      name: node.name,
      summary,
      exitCode: node.exitCode,
      verdict: nodeVerdict(summary, node.exitCode),
      reportHref: `../targets/${node.name}/html/index.html`,
    };
  });
  const fleet = fleetJudgement(matrix);
  writeMatrixReports({
    layout: input.layout,
    nodes: matrix,
    startedAt: input.startedAt,
    durationMs: input.durationMs,
    ...(input.format === undefined ? {} : { format: input.format }),
    ...(input.console === false ? { console: false } : {}),
    fleet,
  });
  return fleet.exitCode;
}
