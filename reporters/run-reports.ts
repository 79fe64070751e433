// Writes the run's reports, however the run ended (completed, stopped by --max-duration or a signal,
// or never started because the target cannot be tested): summary.json, summary.md, junit.xml, the
// Allure page when there are results for it, html/index.html and the spec page it links (each statement
// of the spec marked with the requirements that enforce it and how they fared), the
// --write-baseline file when asked for, and the console report (or, with --format markdown, the
// markdown summary) on stdout.

import { writeFileSync } from "node:fs";
import type { RunOutcome } from "../src/outcome/run-outcome.ts";
import type { Verdict } from "../src/outcome/verdict.ts";
import { renderBaseline } from "./baseline-file.ts";
import { renderConsoleReport } from "./console-report.ts";
import { renderHtmlReport } from "./html-report.ts";
import { renderJunit, renderJunitPerCheck, type JunitCase } from "./junit-report.ts";
import { renderMarkdownSummary } from "./markdown-summary.ts";
import { readSpec, renderSpecPage } from "./spec-page.ts";
import { buildSummary } from "./summary.ts";
import { packageStatements } from "./spec-coverage.ts";
import { differencesSummary, renderDifferencesConsole, renderDifferencesSection, withSections } from "./differences-report.ts";
import type { DifferentialResult } from "../src/harness/differential/differential-run.ts";
import { escapeControls } from "./escape-controls.ts";
import { ConfigurationError } from "../src/harness/configuration-error.ts";
import type { ReportFormat } from "./report-format.ts";
import { generateAllureReport, type AllureGenerator, type AllureOutcome } from "./allure-page.ts";
import { forTerminal } from "./terminal.ts";
import type { ReportLayout } from "./report-layout.ts";

/**
 * The run's time so far, phase by phase, kept by the run engine: writing the reports ends the "allure"
 * and "reports" phases, and summary.json's `phases` is read from it once they have ended.
 */
export interface ReportPhases {
  end(name: "allure" | "reports"): void;
  readonly phases: Readonly<Record<string, number>>;
}

export interface ReportInput {
  readonly layout: ReportLayout;
  readonly outcome: RunOutcome;
  /** Every check with its status, for --junit-per-check. */
  readonly junitCases: readonly JunitCase[];
  readonly junitPerCheck?: boolean;
  /** Absent: console. */
  readonly format?: ReportFormat;
  /** --write-baseline FILE. */
  readonly writeBaseline?: string;
  readonly target: string;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly exitCode: number;
  /** The outcome's verdict, which every report states. */
  readonly verdict: Verdict;
  /** The allure-results directory (and the generator started for it), or why there is no Allure page. */
  readonly allure: { readonly resultsDir: string; readonly generator?: AllureGenerator } | { readonly skipped: string };
  readonly say: (line: string) => void;
  /** The --compare-to comparison, when one ran. */
  readonly differential?: DifferentialResult;
  /** false: no console report (a proxy's periodic writes). */
  readonly console?: boolean;
  /** The run's phases so far; the Allure page and the reports are added to them before summary.json is written. */
  readonly phases?: ReportPhases;
}

export async function writeReports(input: ReportInput): Promise<void> {
  const { layout, outcome, verdict, target, startedAt, durationMs, exitCode, phases } = input;
  layout.create();
  const differential = input.differential;
  const junitRun = { name: "ledger-conformance", durationMs };
  const node = { outcome, verdict, target, durationMs };
  writeFileSync(layout.junit, input.junitPerCheck ? renderJunitPerCheck(input.junitCases, node, junitRun) : renderJunit([node], junitRun));
  const markdown = renderMarkdownSummary({ outcome, verdict, target });
  writeFileSync(layout.summaryMarkdown, markdown);
  let allureHref: string | undefined;
  // The Allure page is made in its own process: the spec page is written meanwhile.
  let allurePage: Promise<AllureOutcome> | undefined;
  if ("resultsDir" in input.allure) {
    input.say("writing the Allure report…");
    const name = `ledger-conformance: ${target}`;
    const { resultsDir, generator } = input.allure;
    allurePage =
      generator === undefined
        ? generateAllureReport(resultsDir, layout.allureDir, name)
        : generator.generate(resultsDir, layout.allureDir, name);
  }
  writeFileSync(layout.specPage, renderSpecPage(readSpec(), { statements: packageStatements(), requirements: outcome.requirements }));
  if (allurePage !== undefined) {
    const allure = await allurePage;
    if (allure.ok) allureHref = layout.allureHref;
    else process.stderr.write(escapeControls(`ledger-conformance: warning: no Allure report: ${allure.reason}\n`));
  }
  phases?.end("allure");
  const html = renderHtmlReport({
    outcome,
    verdict,
    target,
    startedAt,
    durationMs,
    exitCode,
    ...(allureHref === undefined ? {} : { allureHref }),
  });
  writeFileSync(layout.htmlIndex, differential === undefined ? html : withSections(html, [renderDifferencesSection(differential)]));
  phases?.end("reports");
  const summary = {
    ...buildSummary(outcome, { target, startedAt, durationMs, verdict, ...(phases === undefined ? {} : { phases: phases.phases }) }),
    ...(differential === undefined ? {} : differencesSummary(differential)),
  };
  writeFileSync(layout.summary, `${JSON.stringify(summary, null, 2)}\n`);
  if (input.writeBaseline !== undefined) writeBaselineFile(input.writeBaseline, outcome, { target, startedAt });
  if (input.console === false) return;
  if (input.format === "markdown") process.stdout.write(markdown);
  else {
    if (differential !== undefined) process.stdout.write(forTerminal(renderDifferencesConsole(differential)));
    process.stdout.write(forTerminal(renderConsoleReport(outcome, { target, durationMs, reportDir: layout.display, exitCode, verdict })));
  }
}

/** Only a run that ran to its end knows which MUSTs fail: a stopped or unstarted run writes no baseline, and says so. */
function writeBaselineFile(file: string, outcome: RunOutcome, run: { target: string; startedAt: Date }): void {
  if (outcome.interruption !== undefined) {
    process.stderr.write(
      escapeControls(
        `ledger-conformance: --write-baseline: ${file} not written: the run did not run to its end (${outcome.interruption.reason})\n`,
      ),
    );
    return;
  }
  try {
    writeFileSync(file, renderBaseline(outcome, run));
  } catch (e) {
    throw new ConfigurationError(`cannot write the baseline ${file}: ${(e as Error).message}`);
  }
}
