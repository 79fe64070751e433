// What the node did under the load mode, in every report: the requirement reporter carries a check's
// load profile to the run's outcome; summary.json holds it as it is and validates against the schema
// with it and without it; the console, summary.md and the HTML page show it under "Under load" (the
// page with inline SVG charts and nothing loaded from outside), escape every name, and say nothing when
// the run had no load.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { TestCase } from "vitest/node";
import { afterAll, describe, expect, it } from "vitest";
import type { RunOutcome } from "../../src/outcome/run-outcome.ts";
import { aggregateRequirements } from "../../src/outcome/aggregate.ts";
import { verdictOf } from "../../src/outcome/verdict.ts";
import { renderConsoleReport } from "../../reporters/console-report.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { renderHtmlReport } from "../../reporters/html-report.ts";
import { segmentWidths } from "../../reporters/load-chart.ts";
import { grouped, rate } from "../../src/harness/figures.ts";
import { renderMarkdownSummary } from "../../reporters/markdown-summary.ts";
import { RequirementReporter } from "../../src/run/requirement-reporter.ts";
import { buildSummary } from "../../reporters/summary.ts";
import { readRunSummary, UnreadableSummaryError } from "../../src/fleet/summary-reader.ts";
import type { LoadProfile } from "../../src/harness/load-profile.ts";
import { parseRequirements } from "../../src/harness/requirements.ts";
import type { ConformanceMeta } from "../../src/harness/results.ts";
import { CHROMIUM_MISSING, hasChromium, renderedDom } from "../support/chromium.ts";

const HOSTILE = "<img src=x>\u001b[2J|*";

const LOAD: LoadProfile = {
  clients: 32,
  writers: 3,
  durationMs: 20_004,
  requests: 41_203,
  perSecond: 2060.15,
  endpoints: [
    {
      endpoint: "get_ledger_info",
      requests: 30_000,
      perSecond: 1499.7,
      latencyMs: { p50: 3, p95: 12, p99: 30, max: 210 },
      statuses: { "2xx": 29_990, "3xx": 0, "4xx": 0, "5xx": 7, noAnswer: 3 },
    },
    {
      endpoint: "estimate_gas_price",
      requests: 11_200,
      perSecond: 559.9,
      latencyMs: { p50: 5, p95: 40, p99: 90, max: 1200 },
      statuses: { "2xx": 9_000, "3xx": 0, "4xx": 0, "5xx": 2_200, noAnswer: 0 },
    },
    // Named to break a page or a terminal, and never answered.
    { endpoint: HOSTILE, requests: 3, perSecond: 0.15, statuses: { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, noAnswer: 3 } },
  ],
};

const catalog = parseRequirements(
  JSON.stringify([{ id: "4.6/a", level: "MUST", section: "4.6", endpoint: "estimate_gas_price", text: "Text." }]),
  ["estimate_gas_price"],
);
const passed = aggregateRequirements(
  catalog,
  [{ test: "4.6/a: t", file: "suites/gas.test.ts", result: { requirement: "4.6/a", status: "passed", failures: [] } }],
  [],
  1,
);
const withLoad: RunOutcome = { ...passed, loadProfile: LOAD };
const run = { target: "http://h/v1", durationMs: 21_000, reportDir: "reports", exitCode: 0 };
const html = (outcome: RunOutcome) =>
  renderHtmlReport({ outcome, verdict: verdictOf(outcome), target: "http://h/v1", startedAt: new Date(0), durationMs: 1, exitCode: 0 });
const consoleText = (outcome: RunOutcome) => escapeControls(renderConsoleReport(outcome, { ...run, verdict: verdictOf(outcome) }));

const dir = mkdtempSync(join(tmpdir(), "load-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the requirement reporter", () => {
  const fakeCase = (conformance: ConformanceMeta) =>
    ({
      name: "7.1/x: load",
      module: { relativeModuleId: "suites/load.test.ts" },
      meta: () => ({ conformance }),
      result: () => ({ state: "passed" }),
    }) as unknown as TestCase;

  it("carries the load profile of a check's meta to the run's outcome, and none when no check ran a load", () => {
    const reporter = new RequirementReporter({ catalog, quiet: true });
    reporter.onTestCaseResult(fakeCase({ results: [], requests: [] }));
    reporter.onTestCaseResult(fakeCase({ results: [], requests: [], loadProfile: LOAD }));
    reporter.onTestCaseResult(fakeCase({ results: [], requests: [] }));
    reporter.onTestRunEnd([], [], "passed");
    expect(reporter.outcome?.loadProfile).toEqual(LOAD);

    const none = new RequirementReporter({ catalog, quiet: true });
    none.onTestCaseResult(fakeCase({ results: [], requests: [] }));
    none.onTestRunEnd([], [], "passed");
    expect(none.outcome).toBeDefined();
    expect(none.outcome).not.toHaveProperty("loadProfile");
  });

  it("keeps the last load profile seen when two checks recorded one", () => {
    const reporter = new RequirementReporter({ catalog, quiet: true });
    const later = { ...LOAD, clients: 4 };
    reporter.onTestCaseResult(fakeCase({ results: [], requests: [], loadProfile: LOAD }));
    reporter.onTestCaseResult(fakeCase({ results: [], requests: [], loadProfile: later }));
    reporter.onTestRunEnd([], [], "passed");
    expect(reporter.outcome?.loadProfile).toEqual(later);
  });
});

describe("summary.json", () => {
  const write = (name: string, json: unknown) => {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, "summary.json"), JSON.stringify(json));
    return join(dir, name);
  };
  const summaryOf = (outcome: RunOutcome) =>
    buildSummary(outcome, { verdict: verdictOf(outcome), target: "http://h/v1", startedAt: new Date(0), durationMs: 1 });

  it("holds the load profile as it is, numbers as numbers, and validates against the schema", () => {
    const summary = summaryOf(withLoad);
    expect(summary.load).toEqual(LOAD);
    const read = readRunSummary(write("with", summary));
    expect(read.load).toEqual(LOAD);
    expect(read.load?.endpoints[0]?.latencyMs?.p99).toBe(30);
    expect(read.load?.perSecond).toBe(2060.15);
  });

  it("has no load member when the run had no load, and still validates", () => {
    const summary = summaryOf(passed);
    expect(summary).not.toHaveProperty("load");
    expect(readRunSummary(write("without", summary))).not.toHaveProperty("load");
  });

  it("is refused when its load is malformed or unbounded", () => {
    const base = summaryOf(passed);
    const first = LOAD.endpoints[0]!;
    const bad: Record<string, unknown> = {
      "load-negative": { ...LOAD, requests: -1 },
      "load-string": { ...LOAD, perSecond: "2060" },
      "load-missing": { ...LOAD, endpoints: undefined },
      "load-long-name": { ...LOAD, endpoints: [{ ...first, endpoint: "x".repeat(201) }] },
      "load-fraction": { ...LOAD, endpoints: [{ ...first, statuses: { ...first.statuses, "5xx": 1.5 } }] },
      "load-no-p99": { ...LOAD, endpoints: [{ ...first, latencyMs: { p50: 1, p95: 2, max: 3 } }] },
      "load-many": { ...LOAD, endpoints: Array.from({ length: 201 }, () => first) },
    };
    for (const [name, load] of Object.entries(bad)) {
      const d = write(name, { ...base, load });
      expect(() => readRunSummary(d), name).toThrow(UnreadableSummaryError);
      expect(() => readRunSummary(d), name).toThrow(/not a ledger-conformance summary: \/load/);
    }
  });
});

describe("the console", () => {
  it("says what the node did under load after the table, one line per endpoint, escaped", () => {
    const text = consoleText(withLoad);
    const lines = text.split("\n");
    const head = lines.indexOf("under load: 32 clients, 3 writers, 20.0 s, 41,203 requests (2,060/s)");
    expect(head).toBeGreaterThan(lines.findIndex((l) => l.startsWith("total")));
    expect(lines[head + 1]).toMatch(/^ {2}get_ledger_info +1,500\/s {2}p50 3 \/ p95 12 \/ p99 30 ms {2}5xx 7 {2}no answer 3$/);
    expect(lines[head + 2]).toMatch(/^ {2}estimate_gas_price +560\/s {2}p50 5 \/ p95 40 \/ p99 90 ms {2}5xx 2,200 {2}no answer 0$/);
    expect(lines[head + 3]).toContain("<img src=x>\\x1b[2J|*");
    expect(lines[head + 3]).toMatch(/0\.1\/s {2}no answer to time {2}5xx 0 {2}no answer 3$/);
    expect(text).not.toContain("\u001b");
  });

  it("says why there were no writers", () => {
    const text = consoleText({ ...passed, loadProfile: { ...LOAD, writers: 0, writersSkipped: "submissions not allowed" } });
    expect(text).toContain("under load: 32 clients, no writers (submissions not allowed), 20.0 s");
  });

  it("prints nothing of load when the run had none", () => {
    expect(consoleText(passed)).not.toMatch(/under load/i);
  });
});

describe("summary.md", () => {
  it("has an Under load table with the same columns, every cell escaped", () => {
    const md = renderMarkdownSummary({ outcome: withLoad, verdict: verdictOf(withLoad), target: "http://h/v1" });
    expect(md).toContain("**Under load**: 32 clients, 3 writers, 20.0 s, 41,203 requests \\(2,060/s\\)");
    expect(md).toContain("| endpoint | requests | req/s | p50 ms | p95 ms | p99 ms | max ms | 2xx | 3xx | 4xx | 5xx | no answer |");
    expect(md).toContain("| get\\_ledger\\_info | 30,000 | 1,500 | 3 | 12 | 30 | 210 | 29,990 | 0 | 0 | 7 | 3 |");
    expect(md).toContain("| &lt;img src=x&gt;\\\\x1b\\[2J\\|\\* | 3 | 0.1 | – | – | – | – | 0 | 0 | 0 | 0 | 3 |");
    expect(md).not.toMatch(/<img|\u001b/);
    // Before the requirement table, which may run to a hundred rows.
    expect(md.indexOf("**Under load**")).toBeLessThan(md.indexOf("| status | requirement"));
  });

  it("has no Under load table when the run had no load", () => {
    expect(renderMarkdownSummary({ outcome: passed, verdict: verdictOf(passed), target: "http://h/v1" })).not.toMatch(/under load/i);
  });
});

describe("the HTML report", () => {
  const page = html(withLoad);
  const section = page.slice(
    page.indexOf('<section class="under-load"'),
    page.indexOf("</section>", page.indexOf('<section class="under-load"')),
  );

  it("shows an Under load section after what failed and before the matrix, with the figures and a table per endpoint", () => {
    expect(section).toContain("<h2>Under load</h2>");
    expect(section).toContain("32 clients, 3 writers, 20.0 s, 41,203 requests (2,060/s)");
    expect(section).toContain(
      '<tr><td><code>get_ledger_info</code></td><td class="num">30,000</td><td class="num">1,500</td><td class="num">3</td><td class="num">12</td><td class="num">30</td><td class="num">210</td><td class="num">29,990</td><td class="num">0</td><td class="num">0</td><td class="num">7</td><td class="num">3</td></tr>',
    );
    const at = page.indexOf('<section class="under-load"');
    expect(at).toBeGreaterThan(page.indexOf('<section class="what-failed"'));
    expect(at).toBeLessThan(page.indexOf('<table class="matrix"><thead><tr><th>endpoint</th><th>passed</th>'));
  });

  it("draws a chart per endpoint as inline SVG: latency bars on one scale, answers by status class", () => {
    const charts = section.match(/<svg class="lc"[\s\S]*?<\/svg>/g) ?? [];
    expect(charts).toHaveLength(3);
    const [ledger, gas, hostile] = charts as [string, string, string];
    // One scale: the highest p99 (90 ms) spans the whole bar, 30 ms a third of it.
    expect(gas).toMatch(/<rect class="lc-p99" x="64" y="[\d.]+" width="230" /);
    expect(ledger).toMatch(/<rect class="lc-p99" x="64" y="[\d.]+" width="76.7" /);
    expect(gas).toContain("<title>5xx: 2200</title>");
    expect(ledger).toContain("<title>no answer: 3</title>");
    expect(hostile).toContain("no answer to time");
    expect(hostile).not.toContain('class="lc-p50"');
  });

  it("loads nothing from outside and escapes the endpoint's name", () => {
    expect(page).not.toMatch(/<script[^>]*\bsrc\s*=/i);
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(section).not.toMatch(/https?:/);
    expect(section).not.toMatch(/\b(href|src|xlink:href)\s*=\s*["']/);
    expect(section).not.toMatch(/\bstyle\s*=|<style|<foreignObject/);
    expect(section).toContain("<code>&lt;img src=x&gt;\\x1b[2J|*</code>");
    expect(section).toContain('aria-label="&lt;img src=x&gt;\\x1b[2J|*: no answered request;');
    expect(page).not.toMatch(/<img|\u001b/);
  });

  it("has no Under load section when the run had no load", () => {
    const plain = html(passed);
    expect(plain).not.toContain("under-load");
    expect(plain).not.toMatch(/<svg|Under load/);
  });

  it("renders the section and its charts in a browser", async (context) => {
    context.skip(!hasChromium(), CHROMIUM_MISSING);
    const file = join(dir, "index.html");
    writeFileSync(file, page);
    const dom = await renderedDom(pathToFileURL(file).href, 1_000);
    expect(dom).toContain('<section class="under-load" id="under-load"><h2>Under load</h2>');
    expect(dom.match(/<svg class="lc"/g)).toHaveLength(3);
    expect(dom).not.toMatch(/<img/);
  });
});

describe("the figures", () => {
  it("groups thousands without the locale, and gives rates a decimal below 100/s", () => {
    expect([grouped(0), grouped(999), grouped(41_203), grouped(1_234_567.4)]).toEqual(["0", "999", "41,203", "1,234,567"]);
    expect([rate(2060.15), rate(99.94), rate(0.15)]).toEqual(["2,060", "99.9", "0.1"]);
  });

  it("gives a status class with any answer a visible segment, and the segments fill the bar", () => {
    const widths = segmentWidths([39_990, 0, 0, 3, 7], 230);
    expect(widths[3]).toBe(2);
    expect(widths[4]).toBe(2);
    expect(widths[1]).toBe(0);
    expect(widths.reduce((a, b) => a + b, 0)).toBeCloseTo(230);
    expect(segmentWidths([0, 0, 0, 0, 0], 230)).toEqual([0, 0, 0, 0, 0]);
  });
});
