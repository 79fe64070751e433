// One fleet matrix from runs made elsewhere, e.g. a CI job matrix with a job per node whose report
// directories one last step downloads and merges (`ledger-conformance merge`). Each directory is a
// run's report directory (its summary.json, read as untrusted input by summary-reader.ts); a fleet's
// directory brings each of its nodes. A node is named after its directory (a fleet's nodes keep their
// names), and the matrix is written by the code a fleet run writes its own with.

import { existsSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { writeMatrixReports } from "../../reporters/matrix-reports.ts";
import type { MatrixNode } from "../../reporters/matrix-data.ts";
import { fleetJudgement, nodeVerdict, summaryExitCode } from "../outcome/fleet-verdict.ts";
import type { ReportLayout } from "../../reporters/report-layout.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { readRunSummary } from "./summary-reader.ts";

/**
 * Writes the matrix of `dirs` under `layout`; its exit status, the worst node's as its own run gave it.
 * A ConfigurationError when a directory is the output's own or its summary cannot be read.
 */
export function mergeRuns(dirs: readonly string[], layout: ReportLayout): number {
  if (dirs.some((d) => resolve(d) === layout.dir))
    throw new ConfigurationError(`--report-dir ${layout.display} is one of the directories merged: its summary.json would be overwritten`);
  const nodes = mergedNodes(dirs, join(layout.dir, "html"));
  const starts = nodes.map((n) => Date.parse(n.summary.startedAt)).filter((t) => Number.isFinite(t));
  const ends = nodes.map((n) => Date.parse(n.summary.startedAt) + n.summary.durationMs).filter((t) => Number.isFinite(t));
  const startedAt = new Date(starts.length === 0 ? Date.now() : Math.min(...starts));
  // The span the runs cover, from the first start to the last end.
  const durationMs = ends.length === 0 ? 0 : Math.max(0, Math.max(...ends) - startedAt.getTime());
  const fleet = fleetJudgement(nodes);
  writeMatrixReports({ layout, nodes, startedAt, durationMs, fleet });
  return fleet.exitCode;
}

/** Every DIR's node (a fleet's: each of its nodes), named uniquely, each linking its own page when it is there. */
function mergedNodes(dirs: readonly string[], htmlDir: string): MatrixNode[] {
  const nodes: MatrixNode[] = [];
  const used = new Set<string>();
  const unique = (name: string) => {
    let candidate = name;
    for (let n = 2; used.has(candidate); n++) candidate = `${name.slice(0, 36)}-${n}`;
    used.add(candidate);
    return candidate;
  };
  const pageOf = (dir: string) => {
    const page = join(dir, "html", "index.html");
    // A link, so each path segment is URL-encoded (a directory name may hold '#', '?' or spaces).
    return existsSync(page) ? { reportHref: relative(htmlDir, page).split(sep).map(encodeURIComponent).join("/") } : {};
  };
  for (const dir of dirs) {
    const summary = readRunSummary(dir);
    if (summary.targets !== undefined) {
      for (const { name, ...node } of summary.targets) {
        const exitCode = summaryExitCode(node);
        const verdict = nodeVerdict(node, exitCode);
        nodes.push({ name: unique(name), summary: node, exitCode, verdict, ...pageOf(join(dir, "targets", name)) });
      }
    } else {
      const exitCode = summaryExitCode(summary);
      nodes.push({ name: unique(nameOf(dir)), summary, exitCode, verdict: nodeVerdict(summary, exitCode), ...pageOf(dir) });
    }
  }
  return nodes;
}

/** A directory's name as a node name: letters, digits, '.', '_' and '-', at most 40. */
function nameOf(dir: string): string {
  const name = basename(resolve(dir))
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 40);
  return name === "" ? "node" : name;
}
