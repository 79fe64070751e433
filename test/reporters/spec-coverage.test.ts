// What a pass means, in every report: summary.json's coverage figure (the schema requires it), the spec
// page marking each statement of the map in the text with its requirements and this run's verdicts (a
// sentence, a table row, a list item; uncovered, untestable, partial and open statements shown as
// such; every text escaped), and the console's and summary.md's coverage line.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import { afterAll, describe, expect, it } from "vitest";
import type { Evidence } from "../../src/outcome/run-outcome.ts";
import { aggregateRequirements } from "../../src/outcome/aggregate.ts";
import { verdictOf } from "../../src/outcome/verdict.ts";
import { nodeVerdict } from "../../src/outcome/fleet-verdict.ts";
import { renderConsoleReport } from "../../reporters/console-report.ts";
import { renderHtmlReport } from "../../reporters/html-report.ts";
import { renderMarkdownSummary } from "../../reporters/markdown-summary.ts";
import { renderMatrixConsole } from "../../reporters/matrix-console.ts";
import { buildFleetSummary } from "../../reporters/matrix-data.ts";
import { renderMatrixHtml } from "../../reporters/matrix-html.ts";
import { renderMatrixMarkdown } from "../../reporters/matrix-markdown.ts";
import { renderJunit } from "../../reporters/junit-report.ts";
import { coverageFigure, coverageLine, packageCoverage, packageStatements } from "../../reporters/spec-coverage.ts";
import { readSpec, renderSpecPage } from "../../reporters/spec-page.ts";
import { buildSummary } from "../../reporters/summary.ts";
import { packagePath } from "../../src/package-root.ts";
import { parseRequirements } from "../../src/harness/requirements.ts";
import type { ResultStatus } from "../../src/harness/results.ts";
import { parseStatements } from "../../src/harness/spec-statements.ts";
import { CHROMIUM_MISSING, hasChromium, renderedDom } from "../support/chromium.ts";

const catalog = parseRequirements(
  JSON.stringify([
    { id: "1/held", level: "MUST", section: "1", endpoint: "op", text: "Holds." },
    { id: "1/broken", level: "MUST", section: "1", endpoint: "op", text: "Fails." },
    { id: "1/soft", level: "SHOULD", section: "1", endpoint: "op", text: "Warns." },
    { id: "1/unrun", level: "MUST", section: "1", endpoint: "op", text: "Needs a fixture." },
  ]),
  ["op"],
);

function ev(requirement: string, status: ResultStatus): Evidence {
  return {
    test: `${requirement}: t`,
    file: "suites/x.test.ts",
    result: {
      requirement,
      status,
      failures: status === "failed" || status === "warned" ? [{ message: `[${requirement}] no`, curl: null }] : [],
      ...(status === "not_applicable" ? { reason: "needs fixture <table>" } : {}),
    },
  };
}

const outcome = aggregateRequirements(
  catalog,
  [ev("1/held", "passed"), ev("1/broken", "failed"), ev("1/soft", "warned"), ev("1/unrun", "not_applicable")],
  [],
  4,
);

const SPEC = `# A spec

Paths begin with /v1.

## 1. What it does

- The node answers.
- It answers twice.

Every answer carries
headers <on success>. A second sentence.

| Item | Rule |
|---|---|
| GET /a | No parameters. Returns \\| pipes. |
| Errors | 400, 500. |

1. First member.
2. Second member.

## 2. Limits

The limit is not shown.
`;

const MAP = parseStatements(
  JSON.stringify([
    { id: "0#1", words: "Paths begin with /v1.", requirements: ["1/held"] },
    { id: "1#1", words: "The node answers.", requirements: ["1/held", "1/broken"] },
    { id: "1#2", words: "It answers twice.", untestable: "only the node knows <why>" },
    { id: "1#3", words: "Every answer carries headers <on success>.", requirements: ["1/soft"], partial: "the <error> statuses" },
    { id: "1#4", words: "A second sentence." },
    { id: "1#5", words: "GET /a | No parameters. Returns \\| pipes.", requirements: ["1/held"] },
    { id: "1#6", words: "Returns \\| pipes.", requirements: ["1/unrun"] },
    { id: "1#7", words: "1. First member.", requirements: ["1/gone"] },
    { id: "2#1", words: "The limit is not shown.", open: true, requirements: ["1/soft"] },
    { id: "2#2", words: "Words the spec no longer has.", untestable: "x" },
  ]),
);

describe("summary.json's coverage", () => {
  const schema = JSON.parse(readFileSync(packagePath("schemas", "run-summary.schema.json"), "utf8")) as object;
  const validate = new Ajv({ strict: false }).compile(schema);
  const summary = buildSummary(outcome, { verdict: verdictOf(outcome), target: "http://h/v1", startedAt: new Date(0), durationMs: 1 });

  it("carries the package map's figure, which the schema requires", () => {
    expect(summary.coverage).toEqual(packageCoverage());
    expect(Object.keys(summary.coverage)).toEqual(["statements", "covered", "partial", "uncovered", "untestable"]);
    const c = packageStatements().coverage();
    expect(summary.coverage.statements).toBe(c.covered + c.partial + c.uncovered + c.untestable);
    expect(validate(JSON.parse(JSON.stringify(summary))), JSON.stringify(validate.errors)).toBe(true);
    const { coverage: _coverage, ...without } = summary;
    expect(validate(without)).toBe(false);
    expect(validate({ ...summary, coverage: { ...summary.coverage, partial: -1 } })).toBe(false);
  });

  it("is the map's figure in a fleet's summary too, each node keeping its own", () => {
    const own = { statements: 3, covered: 1, partial: 1, uncovered: 0, untestable: 1 };
    const node = {
      ...buildSummary(outcome, {
        verdict: verdictOf(outcome),
        target: "http://h/v1",
        startedAt: new Date(0),
        durationMs: 1,
        coverage: own,
      }),
    };
    const verdict = nodeVerdict(node, 1);
    const fleet = buildFleetSummary([{ name: "a", summary: node, exitCode: 1, verdict }], {
      startedAt: new Date(0),
      durationMs: 1,
      verdict,
    });
    expect(fleet.coverage).toEqual(packageCoverage());
    expect(fleet.targets[0]?.coverage).toEqual(own);
    expect(validate(JSON.parse(JSON.stringify(fleet))), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe("the console and summary.md", () => {
  const coverage = { statements: 127, covered: 120, partial: 0, uncovered: 0, untestable: 7 };

  it("give the coverage figure among the console's last lines, before the verdict", () => {
    const text = renderConsoleReport(outcome, {
      verdict: verdictOf(outcome),
      target: "http://h/v1",
      durationMs: 1,
      reportDir: "reports",
      exitCode: 1,
      coverage,
    });
    const lines = text.trimEnd().split("\n");
    expect(lines.at(-3)).toBe(
      "spec coverage: 127 statements: 120 covered, 0 partial, 0 uncovered, 7 untestable (see reports/html/spec.html)",
    );
    expect(lines.at(-2)).toMatch(/^NOT CONFORMING/);
    expect(coverageLine(coverage)).toBe(
      "spec coverage: 127 statements: 120 covered, 0 partial, 0 uncovered, 7 untestable (see html/spec.html)",
    );
  });

  it("give the same figure in summary.md, and the package's by default", () => {
    const md = renderMarkdownSummary({ outcome, verdict: verdictOf(outcome), target: "http://h/v1", coverage });
    expect(md).toContain("Spec coverage: 127 statements: 120 covered, 0 partial, 0 uncovered, 7 untestable (see `html/spec.html`).");
    const c = packageCoverage();
    expect(renderMarkdownSummary({ outcome, verdict: verdictOf(outcome), target: "http://h/v1" })).toContain(
      `Spec coverage: ${c.statements} statement`,
    );
    expect(
      renderConsoleReport(outcome, { verdict: verdictOf(outcome), target: "http://h/v1", durationMs: 1, reportDir: ".", exitCode: 1 }),
    ).toContain(`spec coverage: ${c.statements} statement`);
  });

  it("give the map's figure in a fleet's console, summary.md and page", () => {
    const summary = buildSummary(outcome, { verdict: verdictOf(outcome), target: "http://h/v1", startedAt: new Date(0), durationMs: 1 });
    const verdict = nodeVerdict(summary, 1);
    const nodes = [{ name: "a", summary, exitCode: 1, verdict }];
    const c = packageCoverage();
    expect(renderMatrixConsole(nodes, { reportDir: "r", exitCode: 1, verdict })).toContain(`spec coverage: ${c.statements} statement`);
    expect(renderMatrixMarkdown(nodes, verdict)).toContain(`Spec coverage: ${c.statements} statement`);
    const page = renderMatrixHtml({ nodes, startedAt: new Date(0), durationMs: 1, exitCode: 1, verdict });
    expect(page).toContain(`<dt>Spec coverage</dt><dd>${c.statements} statement`);
  });

  it("give it in junit.xml's properties", () => {
    const xml = renderJunit([{ outcome, verdict: verdictOf(outcome), target: "http://h/v1", durationMs: 1 }], {
      name: "ledger-conformance",
      durationMs: 1,
    });
    expect(xml).toContain(`<property name="spec.coverage" value="${coverageFigure(packageCoverage())}"/>`);
  });

  it("link the figure from index.html to the spec page's legend", () => {
    const html = renderHtmlReport({
      outcome,
      verdict: verdictOf(outcome),
      target: "http://h/v1",
      startedAt: new Date(0),
      durationMs: 1,
      exitCode: 1,
    });
    expect(html).toMatch(/<dt>Spec coverage<\/dt><dd>[0-9]+ statements?: [0-9]+ covered, [^<]*: <a href="spec.html#coverage">/);
  });
});

describe("the spec page's statements", () => {
  const page = renderSpecPage(SPEC, { statements: MAP, requirements: outcome.requirements });
  const note = (id: string) =>
    new RegExp(`<li class="st-note"[^>]* id="note-${id.replace(/[.#]/g, (c) => (c === "#" ? "-" : "\\."))}">.*?</li>`).exec(page)?.[0] ??
    "";

  it("opens with the legend and the map's figures, and this run's", () => {
    expect(page).toContain('<section class="st-legend" id="coverage">');
    expect(page).toContain(
      "Spec coverage: 9 statements: 5 covered, 1 partial, 1 uncovered, 2 untestable</strong>; 1 open point listed, not counted.",
    );
    expect(page).toContain(
      "In this run: 2 held (every requirement enforcing them passed), 1 with a failed requirement, 1 with a warned one, 2 whose requirements did not all run; 3 no requirement checks.",
    );
    expect(page.indexOf('id="coverage"')).toBeLessThan(page.indexOf("<h1>"));
  });

  it("marks a sentence in its paragraph, with its id, its requirements linking to the report and their verdicts", () => {
    expect(page).toContain(
      '<mark class="st st-covered" data-statements="0#1" title="0#1: covered, held in this run">Paths begin with /v1.</mark><sup class="st-id r-passed" id="st-0-1"><a href="#note-0-1"',
    );
    expect(note("0#1")).toContain(
      '<a class="st-ref" href="#st-0-1">0#1</a> <span class="cov cov-covered">covered</span> <span class="run r-passed">held in this run</span>: enforced by <a href="index.html#req-1/held"><code>1/held</code></a> <span class="badge s-passed">passed</span>',
    );
    expect(note("1#1")).toContain('<span class="run r-failed">a requirement failed in this run</span>');
    expect(note("1#1")).toContain('<a href="index.html#req-1/broken"><code>1/broken</code></a> <span class="badge s-failed">failed</span>');
    expect(page).toMatch(
      /<li><mark class="st st-covered" data-statements="1#1"[^>]*>The node answers\.<\/mark><sup class="st-id r-failed"/,
    );
  });

  it("marks words across a line break, and the sentence beside them apart", () => {
    expect(page).toContain('<mark class="st st-partial" data-statements="1#3"');
    expect(page).toMatch(/data-statements="1#3"[^>]*>Every answer carries\nheaders &lt;on success&gt;\.<\/mark><sup[^>]*>.*?<\/sup> <mark/);
    expect(page).toMatch(/<mark class="st st-uncovered" data-statements="1#4"[^>]*>A second sentence\.<\/mark>/);
  });

  it("shows what nothing checks: uncovered, untestable with why, partial with what is not checked", () => {
    expect(note("1#4")).toContain(
      '<span class="cov cov-uncovered">uncovered</span>: <span class="why">no requirement checks it: a pass says nothing of it</span>',
    );
    expect(note("1#2")).toContain('<span class="cov cov-untestable">untestable</span>');
    expect(note("1#2")).toContain("cannot be checked from outside: only the node knows &lt;why&gt;");
    expect(note("1#3")).toContain('<span class="cov cov-partial">partial</span> <span class="run r-warned">');
    expect(note("1#3")).toContain('<span class="why">not checked: the &lt;error&gt; statuses</span>');
  });

  it("marks a table row whose cells the words span, and a sentence inside one cell", () => {
    expect(page).toMatch(/<tr class="st st-covered" title="1#5: covered, held in this run">\n<td>GET \/a<\/td>/);
    expect(page).toMatch(
      /<mark class="st st-covered" data-statements="1#6"[^>]*>Returns \| pipes\.<\/mark><sup class="st-id r-not-run" id="st-1-6">.*?<sup class="st-id r-passed" id="st-1-5">/,
    );
    expect(note("1#6")).toContain('<span class="badge s-not_applicable" title="needs fixture &lt;table&gt;">n/a</span>');
  });

  it("marks a numbered item its words quote with the number, and says when a requirement is not in this run", () => {
    expect(page).toMatch(
      /<li class="st st-covered" title="1#7: covered, not every requirement ran in this run">First member\.<sup class="st-id r-not-run" id="st-1-7">/,
    );
    expect(note("1#7")).toContain('<code>1/gone</code> <span class="badge s-skipped">not in this run</span>');
  });

  it("shows an open point as open, and lists words it cannot find at the end of their section", () => {
    expect(page).toMatch(/<mark class="st st-open" data-statements="2#1"[^>]*>The limit is not shown\.<\/mark>/);
    expect(note("2#1")).toContain('<span class="cov cov-open">open point</span>');
    expect(note("2#1")).toContain("the spec leaves it not shown; not counted in the coverage");
    expect(note("2#2")).toContain('<q>Words the spec no longer has.</q> <span class="why">(its words are not found in the text)</span>');
  });

  it("escapes every text of the map", () => {
    const hostile = parseStatements(
      JSON.stringify([
        { id: "0#1", words: "Paths begin with /v1.", untestable: '<script>alert(1)</script>"' },
        { id: "0#2", words: "<img src=x onerror=alert(1)>", untestable: "x" },
        { id: "1#1", words: "The node answers.", requirements: ['1/a"><script>'], partial: "<iframe>" },
      ]),
    );
    const html = renderSpecPage(SPEC, { statements: hostile, requirements: outcome.requirements });
    expect(html).not.toMatch(/<script|<img|<iframe/);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("renders the page as before without the map", () => {
    const plain = renderSpecPage(SPEC);
    expect(plain).not.toMatch(/<mark|st-legend|st-notes/);
    const mapOnly = renderSpecPage(SPEC, { statements: MAP });
    expect(mapOnly).toContain('<sup class="st-id" id="st-0-1">');
    expect(mapOnly).not.toMatch(/class="badge|<sup class="st-id r-|In this run/);
  });

  it("finds every statement of the package's map in the shipped spec, quickly", () => {
    const started = performance.now();
    const shipped = renderSpecPage(readSpec(), { statements: packageStatements(), requirements: outcome.requirements });
    expect(performance.now() - started).toBeLessThan(1000);
    for (const s of packageStatements().statements) expect(shipped, s.id).toContain(`id="note-${s.id.replace("#", "-")}"`);
    expect(shipped).not.toContain("its words are not found in the text");
  });
});

describe("the spec page in a browser", () => {
  const dir = mkdtempSync(join(tmpdir(), "spec-coverage-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("renders the marks, labels and notes as elements, and nothing of the map as markup", async (context) => {
    context.skip(!hasChromium(), CHROMIUM_MISSING);
    const hostile = parseStatements(
      JSON.stringify([
        ...MAP.statements.slice(0, 3),
        { id: "1#3", words: "A second sentence.", untestable: "<img src=x onerror=\"document.title='pwned'\">" },
      ]),
    );
    const file = join(dir, "spec.html");
    writeFileSync(file, renderSpecPage(SPEC, { statements: hostile, requirements: outcome.requirements }));
    const dom = await renderedDom(pathToFileURL(file).href, 1_000);
    expect(dom).toMatch(/<mark class="st st-covered" data-statements="0#1"[^>]*>Paths begin with \/v1\.<\/mark>/);
    expect(dom).toContain('<sup class="st-id r-failed" id="st-1-1">');
    expect(dom).toContain('<li class="st-note" data-coverage="untestable" id="note-1-3">');
    expect(dom).not.toContain("<img");
    expect(dom).toContain("<title>A spec</title>");
  });
});
