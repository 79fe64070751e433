// How a differential comparison (--compare-to) appears in a run's reports: summary.json's
// `comparison` and `differences[]`, a section of the HTML report with both answers and both curl lines
// of each difference, and one console line per difference. Text from either node is escaped (esc,
// escapeControls) before it reaches a page or a terminal.

import type { DifferentialResult } from "../src/harness/differential/differential-run.ts";
import { escapeControls, escapeHtml as esc } from "./escape-controls.ts";

/** The members the comparison adds to summary.json. */
export function differencesSummary(result: DifferentialResult): Record<string, unknown> {
  const { differences, ...comparison } = result;
  return { comparison, differences };
}

/** Inserts sections at the end of the HTML report's main content. */
export function withSections(html: string, sections: readonly string[]): string {
  const at = html.lastIndexOf("</main>");
  return at < 0 ? html : `${html.slice(0, at)}${sections.join("\n")}\n${html.slice(at)}`;
}

export function renderDifferencesSection(result: DifferentialResult): string {
  const head = `<p>Compared <code>${esc(result.target)}</code> with <code>${esc(result.compareTo)}</code>${result.version === undefined ? "" : ` at ledger version ${esc(result.version)}`}: ${result.compared} request${result.compared === 1 ? "" : "s"} compared, ${result.differences.length} difference${result.differences.length === 1 ? "" : "s"}, ${result.skipped.length} skipped.</p>`;
  const note = result.note === undefined ? "" : `<p class="reason">${esc(result.note)}</p>`;
  const differences = result.differences
    .map(
      (
        d,
      ) => `<details class="req" open><summary><span class="badge s-failed">differs</span> ${esc(d.request)} <code>${esc(d.operation)}</code> <code>${esc(d.accept)}</code><br><span class="text">${esc(d.kind)}${d.at === undefined ? "" : ` at <code>${esc(d.at)}</code>`}: ${esc(d.detail)}</span></summary>
<table class="evidence"><thead><tr><th>node</th><th>answer</th></tr></thead><tbody>
${[d.target, d.compareTo]
  .map(
    (side) =>
      `<tr><td><code>${esc(side.url)}</code></td><td>HTTP ${side.status}<br><code>${esc(
        Object.entries(side.headers)
          .map(([n, v]) => `${n}: ${v}`)
          .join("; "),
      )}</code><pre>${esc(side.body)}</pre><p class="curl-label">replay:</p><pre class="curl">${esc(side.curl)}</pre></td></tr>`,
  )
  .join("\n")}
</tbody></table></details>`,
    )
    .join("\n");
  const skipped =
    result.skipped.length === 0
      ? ""
      : `<p>Skipped (no evidence either way):</p><ul>${result.skipped.map((s) => `<li>${esc(s.request)}: <span class="reason">${esc(s.reason)}</span></li>`).join("")}</ul>`;
  return `<section id="differences">
<h2>Differences from another node</h2>
${head}
${note}
${differences}
${skipped}
</section>`;
}

/** Console lines: one per difference, and the totals. */
export function renderDifferencesConsole(result: DifferentialResult): string {
  const lines = [
    `compared with ${result.compareTo}${result.version === undefined ? "" : ` at ledger version ${result.version}`}: ${result.compared} compared, ${result.differences.length} difference(s), ${result.skipped.length} skipped`,
  ];
  if (result.note !== undefined) lines.push(`  note: ${result.note}`);
  for (const d of result.differences) {
    lines.push(`  DIFFERS ${d.request} [${d.accept}]: ${d.kind}${d.at === undefined ? "" : ` at ${d.at}`}: ${d.detail}`);
    lines.push(`    ${d.target.curl}`);
    lines.push(`    ${d.compareTo.curl}`);
  }
  return escapeControls(`${lines.join("\n")}\n`);
}
