// What the target declined (503: shed; 429: rate-limited) per endpoint, and the pace the run kept to
// it, as each report shows it: console lines, a markdown table, an HTML section. Declines are counted,
// never judged (src/harness/decline-tally.ts): §7.1 lists 503 for every endpoint but /spec, and a
// rate limiter's 429 is no answer of the node's. Endpoint names are the contract's operationIds,
// escaped all the same. Every renderer says nothing when nothing was declined.

import type { Declines } from "../src/harness/decline-tally.ts";
import { escapeHtml as esc } from "./escape-controls.ts";
import { grouped, rate } from "../src/harness/figures.ts";

export const DECLINED = "Declined requests";

/** "41 shed (503), 900 rate-limited (429); paced to 118/s (5 decreases)". */
export function declinesHeadline(d: Declines): string {
  const pace =
    d.pacing === undefined
      ? ""
      : `; paced to ${rate(d.pacing.settledPerSecond)} requests/s (lowered ${grouped(d.pacing.decreases)} time${d.pacing.decreases === 1 ? "" : "s"})`;
  return `${grouped(d.shed)} shed (503), ${grouped(d.rateLimited)} rate-limited (429), each sent again, never judged${pace}`;
}

/** Console lines (without a leading blank line); [] when nothing was declined. */
export function declinesLines(d: Declines | undefined): string[] {
  if (d === undefined) return [];
  const width = Math.max(0, ...d.endpoints.map((e) => e.endpoint.length));
  return [
    `declined: ${declinesHeadline(d)}`,
    ...d.endpoints.map((e) => `  ${e.endpoint.padEnd(width)}  shed ${grouped(e.shed)}  rate-limited ${grouped(e.rateLimited)}`),
  ];
}

/** A markdown line and table, each cell through `cell`; [] when nothing was declined. */
export function declinesMarkdown(d: Declines | undefined, cell: (text: string) => string): string[] {
  if (d === undefined) return [];
  return [
    `**${DECLINED}**: ${cell(declinesHeadline(d))}`,
    "",
    "| endpoint | shed (503) | rate-limited (429) |",
    "|---|---:|---:|",
    ...d.endpoints.map((e) => `| ${[e.endpoint, grouped(e.shed), grouped(e.rateLimited)].map(cell).join(" | ")} |`),
  ];
}

/** The HTML section; "" when nothing was declined. */
export function declinesSection(d: Declines | undefined, prefix: string): string {
  if (d === undefined) return "";
  const rows = d.endpoints
    .map(
      (e) =>
        `<tr><td><code>${esc(e.endpoint)}</code></td><td class="num">${esc(grouped(e.shed))}</td><td class="num">${esc(grouped(e.rateLimited))}</td></tr>`,
    )
    .join("\n");
  return `<section class="declined" id="${esc(prefix)}declined"><h2>${DECLINED}</h2>
<p>${esc(declinesHeadline(d))}. A 503 (the node shedding load, §7.1) or a 429 (a rate limiter) declines a request without answering it: it was sent again after its Retry-After, and a check that never got an answer was skipped.</p>
<table class="matrix declined"><thead><tr><th>endpoint</th><th>shed (503)</th><th>rate-limited (429)</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</section>`;
}
