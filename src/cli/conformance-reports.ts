// Writes the run's reports, however the run ended (completed, stopped by --max-duration or a signal,
// or never started because the target cannot be tested): summary.json, junit.xml, the Allure page when
// there are results for it, html/index.html, and the console report.

import { writeFileSync } from "node:fs";
import type { RunOutcome } from "../../reporters/aggregate.ts";
import { renderConsoleReport } from "../../reporters/console-report.ts";
import { renderHtmlReport } from "../../reporters/html-report.ts";
import { renderJunit, type JunitCase } from "../../reporters/junit-report.ts";
import { buildSummary } from "../../reporters/summary.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { generateAllureReport, type AllureGenerator } from "./conformance-allure.ts";
import type { ReportLayout } from "./report-layout.ts";
import type { PhaseClock } from "./run-phases.ts";

export interface ReportInput {
  readonly layout: ReportLayout;
  readonly outcome: RunOutcome;
  readonly junitCases: readonly JunitCase[];
  readonly target: string;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly exitCode: number;
  /** The allure-results directory (and the generator started for it), or why there is no Allure page. */
  readonly allure: { readonly resultsDir: string; readonly generator?: AllureGenerator } | { readonly skipped: string };
  readonly say: (line: string) => void;
  /** The run's phases so far; the Allure page and the reports are added to them before summary.json is written. */
  readonly phases?: PhaseClock;
}

export async function writeReports(input: ReportInput): Promise<void> {
  const { layout, outcome, target, startedAt, durationMs, exitCode, phases } = input;
  layout.create();
  let allureHref: string | undefined;
  if ("resultsDir" in input.allure) {
    input.say("writing the Allure report…");
    const name = `ledger-conformance: ${target}`;
    const { resultsDir, generator } = input.allure;
    const allure = await (generator === undefined ? generateAllureReport(resultsDir, layout.allureDir, name) : generator.generate(resultsDir, layout.allureDir, name));
    if (allure.ok) allureHref = layout.allureHref;
    else process.stderr.write(escapeControls(`ledger-conformance: warning: no Allure report: ${allure.reason}\n`));
  }
  phases?.end("allure");
  writeFileSync(layout.junit, renderJunit(input.junitCases, { name: "ledger-conformance", durationMs }));
  writeFileSync(
    layout.htmlIndex,
    renderHtmlReport({ outcome, target, startedAt, durationMs, exitCode, ...(allureHref === undefined ? {} : { allureHref }) }),
  );
  phases?.end("reports");
  const summary = buildSummary(outcome, { target, startedAt, durationMs, ...(phases === undefined ? {} : { phases: phases.phases }) });
  writeFileSync(layout.summary, `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(escapeControls(renderConsoleReport(outcome, { target, durationMs, reportDir: layout.display, exitCode })));
}
