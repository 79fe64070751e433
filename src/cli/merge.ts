// `ledger-conformance merge [--report-dir OUT] DIR...`: one fleet matrix report from runs made
// elsewhere (issue 13), e.g. a CI job matrix with a job per node whose report directories one last step
// downloads and merges. Each DIR is a run's report directory (its summary.json, read as untrusted input
// by src/fleet/summary-reader.ts); a fleet's directory brings each of its nodes. A node is named after its
// directory (a fleet's nodes keep their names). The report is the one a fleet run writes, from the same
// code: OUT/summary.json with targets[], OUT/html/index.html. Exit status: the worst node's, as its own
// run gave it (0, 1, or 2 for a node that could not be tested at all); 2 for a usage error or a DIR
// whose summary cannot be read.

import { existsSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { summaryExitCode, type MatrixNode } from "../../reporters/matrix-data.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { writeMatrixReports } from "../../reporters/matrix-reports.ts";
import { defaultOf, parseOptionsOf } from "./flags.ts";
import { usageOf } from "./usage.ts";
import { readRunSummary } from "../fleet/summary-reader.ts";
import { ReportLayout } from "../../reporters/report-layout.ts";

export const MERGE_USAGE = usageOf("merge");

export async function mergeCommand(argv: readonly string[]): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: parseOptionsOf("merge") });
    } catch (e) {
      throw new ConfigurationError(`${(e as Error).message}\n${MERGE_USAGE}`);
    }
    if (parsed.values.help) {
      process.stdout.write(`${MERGE_USAGE}\n`);
      return 0;
    }
    const dirs = parsed.positionals;
    if (dirs.length === 0) throw new ConfigurationError(`merge needs at least one report directory\n${MERGE_USAGE}`);
    const layout = new ReportLayout((parsed.values["report-dir"] as string | undefined) ?? defaultOf("merge", "report-dir"));
    if (dirs.some((d) => resolve(d) === layout.dir)) throw new ConfigurationError(`--report-dir ${layout.display} is one of the directories merged: its summary.json would be overwritten`);
    const nodes = mergedNodes(dirs, join(layout.dir, "html"));
    const starts = nodes.map((n) => Date.parse(n.summary.startedAt)).filter((t) => Number.isFinite(t));
    const ends = nodes.map((n) => Date.parse(n.summary.startedAt) + n.summary.durationMs).filter((t) => Number.isFinite(t));
    const startedAt = new Date(starts.length === 0 ? Date.now() : Math.min(...starts));
    // The span the runs cover, from the first start to the last end.
    const durationMs = ends.length === 0 ? 0 : Math.max(0, Math.max(...ends) - startedAt.getTime());
    return writeMatrixReports({ layout, nodes, startedAt, durationMs });
  } catch (e) {
    if (!(e instanceof ConfigurationError)) throw e;
    process.stderr.write(escapeControls(`ledger-conformance merge: ${e.message}\n`));
    return 2;
  }
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
        nodes.push({ name: unique(name), summary: node, exitCode: summaryExitCode(node), ...pageOf(join(dir, "targets", name)) });
      }
    } else {
      nodes.push({ name: unique(nameOf(dir)), summary, exitCode: summaryExitCode(summary), ...pageOf(dir) });
    }
  }
  return nodes;
}

/** A directory's name as a node name: letters, digits, '.', '_' and '-', at most 40. */
function nameOf(dir: string): string {
  const name = basename(resolve(dir)).replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[^A-Za-z0-9]+/, "").slice(0, 40);
  return name === "" ? "node" : name;
}
