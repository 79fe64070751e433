// html/index.html of a fleet: one self-contained page (inline CSS, no scripts, nothing loaded from
// elsewhere). The nodes with their verdicts; the requirement-by-node matrix (rows requirements by
// endpoint, a column per node, each cell the node's status linking to that requirement in the node's
// own section); then a section per node with what did not pass there (failures with their curl lines,
// why a requirement was skipped) and a link to the node's own full report. The header gives the spec
// coverage figure of this version's map. Built from the nodes'
// summaries alone, which may come from other machines: every text is escaped.

import type { ResultStatus } from "../src/harness/results.ts";
import { declinesSection } from "./declines-report.ts";
import { escapeHtml as esc } from "./escape-controls.ts";
import { REPORT_CSS } from "./report-style.ts";
import { coverageFigure, packageCoverage } from "./spec-coverage.ts";
import { fleetStatus } from "../src/outcome/fleet-status.ts";
import { buildMatrix, verdictWords, type MatrixCell, type MatrixNode, type MatrixRow } from "./matrix-data.ts";
import type { Summary, SummaryRequirement } from "./summary.ts";
import type { VerdictKind } from "../src/outcome/verdict.ts";

export interface MatrixHtmlInput {
  readonly nodes: readonly MatrixNode[];
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly exitCode: number;
  /** The fleet's. */
  readonly verdict: VerdictKind;
}

const LABEL: Record<ResultStatus | "absent", string> = {
  passed: "passed",
  failed: "failed",
  warned: "warned",
  skipped: "skipped",
  not_applicable: "n/a",
  absent: "–",
};

export function renderMatrixHtml(input: MatrixHtmlInput): string {
  const { nodes } = input;
  const matrix = buildMatrix(nodes);
  const { verdict } = input;
  const ok = verdict === "conforming" || verdict === "conforming-with-baseline";
  const worst = nodes.filter((n) => n.verdict === verdict).map((n) => n.name);
  const verdictText = `Fleet ${verdictWords(verdict)}: the worst node's verdict${ok && worst.length === nodes.length ? `, on all ${nodes.length}` : ` (${worst.join(", ")})`}`;
  const nodeRows = nodes
    .map((n, i) => {
      const c = n.summary.counts;
      return `<tr><th scope="row"><a href="#${nodeAnchor(i)}">${esc(n.name)}</a></th><td><code>${esc(n.summary.target)}</code></td><td class="${n.exitCode === 0 ? "c-passed" : "c-failed"}">${esc(verdictWords(n.verdict))}</td><td class="num">${n.exitCode}</td>${[c.passed, c.failed, c.warned, c.skipped, c.notApplicable].map((x) => `<td class="num">${x}</td>`).join("")}<td>${n.reportHref === undefined ? "" : `<a href="${esc(n.reportHref)}">report</a>`}</td></tr>`;
    })
    .join("\n");
  const header = nodes.map((n, i) => `<th scope="col"><a href="#${nodeAnchor(i)}">${esc(n.name)}</a></th>`).join("");
  const matrixRows = [...byEndpoint(matrix.rows).entries()]
    .map(
      ([endpoint, rows]) =>
        `<tr class="group"><th colspan="${nodes.length + 2}">${esc(endpoint === "*" ? "Every response (cross-cutting)" : endpoint)}</th></tr>\n` +
        rows
          .map((row) => {
            const overall = fleetStatus(row.cells);
            return `<tr><th scope="row" class="req"><code>${esc(row.id)}</code> <span class="level">${esc(row.level)}</span></th><td class="c-${overall}">${LABEL[overall]}</td>${row.cells.map((cell, i) => matrixCell(cell, i, row.id)).join("")}</tr>`;
          })
          .join("\n"),
    )
    .join("\n");
  const sections = nodes.map((n, i) => renderNodeSection(n, i)).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ledger-conformance: a fleet of ${nodes.length}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>ledger-conformance: a fleet of ${nodes.length}</h1>
<p class="verdict v-${verdict}" id="verdict" data-verdict="${verdict}">${esc(verdictText)}</p>
<dl>
<dt>Started</dt><dd>${esc(input.startedAt.toISOString())}</dd>
<dt>Duration</dt><dd>${(input.durationMs / 1000).toFixed(1)} s</dd>
<dt>Exit status</dt><dd>${input.exitCode} (the worst node's)</dd>
<dt>Spec coverage</dt><dd>${esc(coverageFigure(packageCoverage()))} (each node's own report marks the statements in the spec's text)</dd>
</dl>
</header>
<main>
<section>
<h2>Nodes</h2>
<table class="nodes" id="nodes"><thead><tr><th>node</th><th>target</th><th>verdict</th><th>exit</th><th>passed</th><th>failed</th><th>warned</th><th>skipped</th><th>n/a</th><th></th></tr></thead>
<tbody>
${nodeRows}
</tbody></table>
</section>
<section>
<h2>Requirements by node</h2>
<table class="matrix" id="matrix"><thead><tr><th>requirement</th><th>fleet</th>${header}</tr></thead>
<tbody>
${matrixRows}
</tbody></table>
</section>
${sections}
</main>
</body>
</html>
`;
}

function matrixCell(cell: MatrixCell, node: number, id: string): string {
  if (cell.status === "absent") return `<td class="c-absent" title="not in this node's catalog">${LABEL.absent}</td>`;
  const expected = cell.expectedFailure ? " (baseline)" : "";
  // A passed cell has no entry in the node's section: it links to the section itself.
  const href = cell.status === "passed" ? nodeAnchor(node) : requirementAnchor(node, id);
  return `<td class="c-${cell.status}"><a href="#${esc(href)}">${LABEL[cell.status]}${expected}</a></td>`;
}

function renderNodeSection(node: MatrixNode, i: number): string {
  const s = node.summary;
  const notPassed = s.requirements.filter((r) => r.status !== "passed");
  const errors = s.errors ?? [];
  return `<section class="node" id="${nodeAnchor(i)}">
<h2>${esc(node.name)}: ${esc(verdictWords(node.verdict))}</h2>
${(s as Partial<Summary>).verdictText === undefined ? "" : `<p>${esc(s.verdictText)}</p>`}
<p><code>${esc(s.target)}</code>, exit ${node.exitCode}, ${s.counts.passed} passed, ${s.counts.failed} failed, ${s.counts.warned} warned, ${s.counts.skipped} skipped, ${s.counts.notApplicable} n/a; ${s.requests} requests, started ${esc(s.startedAt)}, ${(s.durationMs / 1000).toFixed(1)} s${node.reportHref === undefined ? "" : `; <a href="${esc(node.reportHref)}">its own report</a>`}</p>
${s.interruption === undefined ? "" : `<p class="interruption">${esc(s.interruption.kind === "not_started" ? "Not run" : "Stopped")}: ${esc(s.interruption.reason)}</p>`}
${declinesSection(s.declined, `${nodeAnchor(i)}-`)}
${errors.length === 0 ? "" : `<ul class="errors">${errors.map((e) => `<li>${e.file === undefined ? "" : `<code>${esc(e.file)}</code>: `}<pre>${esc(e.message)}</pre></li>`).join("")}</ul>`}
${notPassed.length === 0 ? "<p>Every requirement passed.</p>" : notPassed.map((r) => renderRequirement(r, i)).join("\n")}
</section>`;
}

function renderRequirement(r: SummaryRequirement, node: number): string {
  const open = r.status === "failed" || r.status === "warned" ? " open" : "";
  const failures = r.failures
    .map(
      (f) =>
        `<div class="failure"><pre>${esc(f.message)}</pre>${f.curl === null ? "" : `<p class="curl-label">replay:</p><pre class="curl">${esc(f.curl)}</pre>`}</div>`,
    )
    .join("");
  return `<details class="req"${open} id="${esc(requirementAnchor(node, r.id))}">
<summary><span class="badge s-${r.status}">${LABEL[r.status]}</span>${r.expectedFailure === true ? ' <span class="badge s-skipped">expected by baseline</span>' : ""} <code>${esc(r.id)}</code> <span class="level">${esc(r.level)}</span> <span class="count">${r.checks} result${r.checks === 1 ? "" : "s"}, §${esc(r.section)}, ${esc(r.endpoint)}</span>${r.reason === undefined ? "" : `<br><span class="reason">${esc(r.reason)}</span>`}</summary>
${failures}
</details>`;
}

/** Anchors by the node's position: names are safe already, but positions cannot collide. */
function nodeAnchor(node: number): string {
  return `node-${node + 1}`;
}

function requirementAnchor(node: number, id: string): string {
  return `node-${node + 1}-${id}`;
}

function byEndpoint(rows: readonly MatrixRow[]): Map<string, MatrixRow[]> {
  const map = new Map<string, MatrixRow[]>();
  for (const row of rows) map.set(row.endpoint, [...(map.get(row.endpoint) ?? []), row]);
  return new Map([...map.entries()].sort(([a], [b]) => (a === "*" ? -1 : b === "*" ? 1 : a.localeCompare(b))));
}

const CSS = `${REPORT_CSS}
header,main{max-width:1400px} header{max-width:none}
th,td{padding:3px 8px}
.matrix td{text-align:center;white-space:nowrap} .matrix th.req{font-weight:normal;white-space:nowrap}
tr.group th{background:#eaeef2}
.matrix a{color:inherit}
.c-absent{color:#8c959f}
.interruption{background:#ffebe9}
`;
