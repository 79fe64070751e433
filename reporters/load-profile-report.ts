// What the node did under the load mode (--load N), as each report shows it under "Under load": console
// lines, a markdown table, an HTML section with a table and a chart per endpoint (load-chart.ts). The
// figures are counted, never judged (src/harness/load-profile.ts). Endpoint names are the contract's
// operationIds, escaped all the same: the console's caller escapes its text (escapeControls), markdown
// goes through cell(), HTML through escapeHtml. Every renderer says nothing when the run had no load.

import type { EndpointLoad, LoadProfile } from "../src/harness/load-profile.ts";
import { grouped, rate } from "../src/harness/figures.ts";
import { escapeHtml as esc } from "./escape-controls.ts";
import { endpointChart, latencyScale, LOAD_LEGEND, STATUS_CLASSES } from "./load-chart.ts";

export const UNDER_LOAD = "Under load";

const plural = (n: number, word: string) => `${grouped(n)} ${word}${n === 1 ? "" : "s"}`;

/** "32 clients, 3 writers, 20.0 s, 41,203 requests (2,060/s)"; without writers, why there were none. */
export function loadHeadline(load: LoadProfile): string {
  const writers = load.writers > 0 ? plural(load.writers, "writer") : `no writers (${load.writersSkipped ?? "none ran"})`;
  return `${plural(load.clients, "client")}, ${writers}, ${(load.durationMs / 1000).toFixed(1)} s, ${plural(load.requests, "request")} (${rate(load.perSecond)}/s)`;
}

/** The table's columns after the endpoint's name, the same in markdown and HTML. */
const COLUMNS = ["requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "2xx", "3xx", "4xx", "5xx", "no answer"] as const;

/** One endpoint's figures in COLUMNS' order; latencies are "–" when no request of it was answered. */
function figures(e: EndpointLoad): string[] {
  const l = e.latencyMs;
  const ms = (n: number | undefined) => (n === undefined ? "–" : grouped(n));
  return [
    grouped(e.requests),
    rate(e.perSecond),
    ms(l?.p50),
    ms(l?.p95),
    ms(l?.p99),
    ms(l?.max),
    ...STATUS_CLASSES.map((c) => grouped(e.statuses[c.key])),
  ];
}

/** Console lines (without a leading blank line); [] when the run had no load. */
export function loadLines(load: LoadProfile | undefined): string[] {
  if (load === undefined) return [];
  const width = Math.max(0, ...load.endpoints.map((e) => e.endpoint.length));
  return [
    `under load: ${loadHeadline(load)}`,
    ...load.endpoints.map((e) => {
      const l = e.latencyMs;
      const latency = l === undefined ? "no answer to time" : `p50 ${grouped(l.p50)} / p95 ${grouped(l.p95)} / p99 ${grouped(l.p99)} ms`;
      return `  ${e.endpoint.padEnd(width)}  ${rate(e.perSecond).padStart(7)}/s  ${latency}  5xx ${grouped(e.statuses["5xx"])}  no answer ${grouped(e.statuses.noAnswer)}`;
    }),
    ...lawLines(load),
  ];
}

/** "laws: 2.7/monotonic-under-load 1,336 decided, 0 anomalies": what each law found (its verdict is in the table). */
function lawLines(load: LoadProfile): string[] {
  return (load.laws ?? []).map(
    (l) => `  law ${l.id}: ${plural(l.decided, "case")} decided, ${grouped(l.anomalies)} ${l.anomalies === 1 ? "anomaly" : "anomalies"}`,
  );
}

/** A markdown heading line and table, each cell through `cell` (markdown-summary.ts); [] when the run had no load. */
export function loadMarkdown(load: LoadProfile | undefined, cell: (text: string) => string): string[] {
  if (load === undefined) return [];
  return [
    `**${UNDER_LOAD}**: ${cell(loadHeadline(load))}`,
    "",
    `| endpoint | ${COLUMNS.join(" | ")} |`,
    `|---|${COLUMNS.map(() => "---:").join("|")}|`,
    ...load.endpoints.map((e) => `| ${[e.endpoint, ...figures(e)].map(cell).join(" | ")} |`),
    ...(load.laws === undefined ? [] : ["", ...lawLines(load).map((line) => `- ${cell(line.trim())}`)]),
  ];
}

/** The HTML section; "" when the run had no load. */
export function loadSection(load: LoadProfile | undefined, prefix: string): string {
  if (load === undefined) return "";
  const rows = load.endpoints
    .map(
      (e) =>
        `<tr><td><code>${esc(e.endpoint)}</code></td>${figures(e)
          .map((f) => `<td class="num">${esc(f)}</td>`)
          .join("")}</tr>`,
    )
    .join("\n");
  const scale = latencyScale(load.endpoints);
  const charts = load.endpoints.map(
    (e) => `<figure class="load-chart"><figcaption><code>${esc(e.endpoint)}</code></figcaption>${endpointChart(e, scale)}</figure>`,
  );
  return `<section class="under-load" id="${esc(prefix)}under-load"><h2>${UNDER_LOAD}</h2>
<p>${esc(loadHeadline(load))}. Counted, never judged: §7.1 lists 500 and 503 for every endpoint but /spec, so a node that sheds load conforms; these figures say how much it shed and how fast it answered.</p>
<table class="matrix load"><thead><tr><th>endpoint</th>${COLUMNS.map((c) => `<th>${c}</th>`).join("")}</tr></thead>
<tbody>
${rows}
</tbody></table>
${
  (load.laws ?? []).length === 0
    ? ""
    : `<ul class="load-laws">${lawLines(load)
        .map((line) => `<li>${esc(line.trim())}</li>`)
        .join("")}</ul>`
}
${LOAD_LEGEND}
<div class="load-charts">
${charts.join("\n")}
</div>
</section>`;
}
