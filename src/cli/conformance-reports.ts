// Writes the run's reports, however the run ended (completed, stopped by --max-duration or a signal,
// or never started because the target cannot be tested): summary.json, summary.md, junit.xml, the
// Allure page when there are results for it, html/index.html and the spec page it links, the
// --write-baseline file when asked for, and the console report (or, with --format markdown, the
// markdown summary) on stdout.

import { writeFileSync } from "node:fs";
import type { RunOutcome } from "../../reporters/aggregate.ts";
import { renderBaseline } from "../../reporters/baseline-file.ts";
import { renderConsoleReport } from "../../reporters/console-report.ts";
import { renderHtmlReport } from "../../reporters/html-report.ts";
import { renderJunit, renderJunitPerCheck, type JunitCase } from "../../reporters/junit-report.ts";
import { renderMarkdownSummary } from "../../reporters/markdown-summary.ts";
import { readSpec, renderSpecPage } from "../../reporters/spec-page.ts";
import { buildSummary } from "../../reporters/summary.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import type { ReportFormat } from "./conformance-args.ts";
import { generateAllureReport } from "./conformance-allure.ts";
import { forTerminal } from "./terminal.ts";
import type { ReportLayout } from "./report-layout.ts";

export interface ReportInput {
  readonly layout: ReportLayout;
  readonly outcome: RunOutcome;
  /** Every check with its status, for --junit-per-check. */
  readonly junitCases: readonly JunitCase[];
  readonly junitPerCheck: boolean;
  /** Absent: console. */
  readonly format?: ReportFormat;
  /** --write-baseline FILE. */
  readonly writeBaseline?: string;
  readonly target: string;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly exitCode: number;
  /** The allure-results directory, or why there is no Allure page. */
  readonly allure: { readonly resultsDir: string } | { readonly skipped: string };
  readonly say: (line: string) => void;
}

export async function writeReports(input: ReportInput): Promise<void> {
  const { layout, outcome, target, startedAt, durationMs, exitCode } = input;
  layout.create();
  writeFileSync(layout.summary, `${JSON.stringify(buildSummary(outcome, { target, startedAt, durationMs }), null, 2)}\n`);
  const junitRun = { name: "ledger-conformance", durationMs };
  const node = { outcome, target, durationMs };
  writeFileSync(layout.junit, input.junitPerCheck ? renderJunitPerCheck(input.junitCases, node, junitRun) : renderJunit([node], junitRun));
  const markdown = renderMarkdownSummary({ outcome, target });
  writeFileSync(layout.summaryMarkdown, markdown);
  let allureHref: string | undefined;
  if ("resultsDir" in input.allure) {
    input.say("writing the Allure report…");
    const allure = await generateAllureReport(input.allure.resultsDir, layout.allureDir, `ledger-conformance: ${target}`);
    if (allure.ok) allureHref = layout.allureHref;
    else process.stderr.write(escapeControls(`ledger-conformance: warning: no Allure report: ${allure.reason}\n`));
  }
  writeFileSync(layout.specPage, renderSpecPage(readSpec()));
  writeFileSync(
    layout.htmlIndex,
    renderHtmlReport({ outcome, target, startedAt, durationMs, exitCode, ...(allureHref === undefined ? {} : { allureHref }) }),
  );
  process.stdout.write(input.format === "markdown" ? markdown : forTerminal(renderConsoleReport(outcome, { target, durationMs, reportDir: layout.display, exitCode })));
  if (input.writeBaseline !== undefined) writeBaselineFile(input.writeBaseline, outcome, { target, startedAt });
}

/** Only a run that ran to its end knows which MUSTs fail: a stopped or unstarted run writes no baseline, and says so. */
function writeBaselineFile(file: string, outcome: RunOutcome, run: { target: string; startedAt: Date }): void {
  if (outcome.interruption !== undefined) {
    process.stderr.write(escapeControls(`ledger-conformance: --write-baseline: ${file} not written: the run did not run to its end (${outcome.interruption.reason})\n`));
    return;
  }
  try {
    writeFileSync(file, renderBaseline(outcome, run));
  } catch (e) {
    throw new ConfigurationError(`cannot write the baseline ${file}: ${(e as Error).message}`);
  }
}
