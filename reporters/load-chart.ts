// One endpoint's load as a small inline SVG for the HTML report (load-profile-report.ts): three
// horizontal bars for its p50/p95/p99 latency, on one scale across the endpoints so that they compare
// at a glance, and one stacked bar of its answers by status class. Inline markup and the page's own
// style rules only (classes, no style attributes, no xmlns or other URL, no script): the report stays
// one file that opens offline. Only numbers and fixed labels are drawn; the endpoint's name goes
// through escapeHtml like every text of the page.

import type { EndpointLoad, StatusCounts } from "../src/harness/load-profile.ts";
import { escapeHtml as esc } from "./escape-controls.ts";

/** The status classes in the order the stacked bar and the tables show them. */
export const STATUS_CLASSES: readonly { readonly key: keyof StatusCounts; readonly label: string; readonly css: string }[] = [
  { key: "2xx", label: "2xx", css: "lc-2xx" },
  { key: "3xx", label: "3xx", css: "lc-3xx" },
  { key: "4xx", label: "4xx", css: "lc-4xx" },
  { key: "5xx", label: "5xx", css: "lc-5xx" },
  { key: "noAnswer", label: "no answer", css: "lc-none" },
];

const PERCENTILES = [
  { key: "p50", css: "lc-p50" },
  { key: "p95", css: "lc-p95" },
  { key: "p99", css: "lc-p99" },
] as const;

const WIDTH = 360;
/** Where the bars start, after their labels; the longest bar leaves room for its value after it. */
const BAR_X = 64;
const BAR_MAX = 230;
const ROW = 16;
const BAR_H = 11;
const HEIGHT = ROW * (PERCENTILES.length + 1) + 6;

/** An SVG coordinate: finite, one decimal. */
const at = (n: number) => (Number.isFinite(n) ? Math.round(n * 10) / 10 : 0).toString();

/** The latency scale shared by every endpoint's chart: the highest p99 (at least 1 ms, so that a scale of zeros still divides). */
export function latencyScale(endpoints: readonly EndpointLoad[]): number {
  return Math.max(1, ...endpoints.map((e) => (Number.isFinite(e.latencyMs?.p99) ? (e.latencyMs?.p99 ?? 0) : 0)));
}

/**
 * Widths of the status segments over `width`: proportional, except that a class with any answer gets at
 * least 2 units (taken from the widest) so that a few 5xx among thousands of 2xx still show.
 */
export function segmentWidths(counts: readonly number[], width: number): number[] {
  const total = counts.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return counts.map(() => 0);
  const widths = counts.map((c) => (c > 0 ? Math.max(2, (c / total) * width) : 0));
  const excess = widths.reduce((a, b) => a + b, 0) - width;
  const widest = widths.indexOf(Math.max(...widths));
  widths[widest] = (widths[widest] ?? 0) - excess;
  return widths;
}

/** The chart of one endpoint; `scale` is latencyScale over every endpoint of the load. */
export function endpointChart(e: EndpointLoad, scale: number): string {
  const parts: string[] = [];
  const latency = e.latencyMs;
  PERCENTILES.forEach((p, i) => {
    const y = ROW * i + 2;
    parts.push(`<text class="lc-label" x="0" y="${at(y + BAR_H - 1)}">${p.key}</text>`);
    if (latency === undefined) {
      if (i === 0) parts.push(`<text class="lc-label" x="${BAR_X}" y="${at(y + BAR_H - 1)}">no answer to time</text>`);
      return;
    }
    const ms = latency[p.key];
    const w = Math.min(BAR_MAX, (Math.max(0, ms) / scale) * BAR_MAX);
    parts.push(
      `<rect class="${p.css}" x="${BAR_X}" y="${at(y)}" width="${at(w)}" height="${BAR_H}"><title>${p.key} ${ms} ms</title></rect>`,
      `<text class="lc-value" x="${at(BAR_X + w + 4)}" y="${at(y + BAR_H - 1)}">${ms} ms</text>`,
    );
  });
  const y = ROW * PERCENTILES.length + 4;
  parts.push(`<text class="lc-label" x="0" y="${at(y + BAR_H - 1)}">answers</text>`);
  const counts = STATUS_CLASSES.map((c) => e.statuses[c.key]);
  const widths = segmentWidths(counts, BAR_MAX);
  parts.push(`<rect class="lc-frame" x="${BAR_X}" y="${at(y)}" width="${BAR_MAX}" height="${BAR_H}"></rect>`);
  let x = BAR_X;
  STATUS_CLASSES.forEach((c, i) => {
    const w = widths[i] ?? 0;
    if (w <= 0) return;
    parts.push(
      `<rect class="${c.css}" x="${at(x)}" y="${at(y)}" width="${at(w)}" height="${BAR_H}"><title>${c.label}: ${counts[i]}</title></rect>`,
    );
    x += w;
  });
  const summary = STATUS_CLASSES.map((c, i) => `${c.label} ${counts[i]}`).join(", ");
  const label =
    latency === undefined
      ? `${e.endpoint}: no answered request; ${summary}`
      : `${e.endpoint}: p50 ${latency.p50} ms, p95 ${latency.p95} ms, p99 ${latency.p99} ms; ${summary}`;
  return `<svg class="lc" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${esc(label)}">${parts.join("")}</svg>`;
}

/** The key to the charts' colours, once above them. */
export const LOAD_LEGEND = `<p class="load-legend">${[
  ...PERCENTILES.map((p) => ({ css: p.css, label: `${p.key} latency` })),
  ...STATUS_CLASSES,
]
  .map((k) => `<span class="lc-key ${k.css}"></span> ${k.label}`)
  .join(" ")}</p>`;

/**
 * The charts' look, for the page's style element. Each colour class sets `fill` for the SVG and
 * `background` for the legend's keys; mid tones that read on a light and a dark page alike.
 */
export const LOAD_CSS = `
.load-charts{display:flex;flex-wrap:wrap;gap:8px 16px}
figure.load-chart{margin:0;background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:6px 8px}
figure.load-chart figcaption{font-size:12px;margin-bottom:2px}
svg.lc{display:block;max-width:100%;height:auto}
.lc-label,.lc-value{font:11px system-ui,sans-serif;fill:#57606a}
.lc-frame{fill:none;stroke:#d0d7de}
.lc-key{display:inline-block;width:10px;height:10px;border-radius:2px;vertical-align:middle}
.load-legend{font-size:12px;color:#57606a}
.lc-p50{fill:#54aeff;background:#54aeff}.lc-p95{fill:#0969da;background:#0969da}.lc-p99{fill:#8250df;background:#8250df}
.lc-2xx{fill:#1f883d;background:#1f883d}.lc-3xx{fill:#1b7c83;background:#1b7c83}.lc-4xx{fill:#bf8700;background:#bf8700}
.lc-5xx{fill:#cf222e;background:#cf222e}.lc-none{fill:#6e7781;background:#6e7781}
`;
