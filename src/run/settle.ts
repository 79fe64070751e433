// What a run comes to once its checks are done, for a one-node run and for each node of a fleet alike:
// its outcome (--level applied, then the baseline), its recorded exchanges joined into the report
// directory (--record), its comparison with another node (--compare-to), and its exit status; and what a
// run comes to when its target cannot be tested at all.

import { join } from "node:path";
import type { RunOutcome } from "../outcome/run-outcome.ts";
import { notStartedOutcome } from "../outcome/aggregate.ts";
import type { BaselineEntry } from "../outcome/baseline-list.ts";
import { applyBaseline } from "../outcome/apply-baseline.ts";
import { exitCode } from "../outcome/exit-code.ts";
import type { JunitCase } from "../../reporters/junit-report.ts";
import type { RequirementReporter } from "./requirement-reporter.ts";
import type { RunConfig } from "../harness/config.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import type { DifferentialResult } from "../harness/differential/differential-run.ts";
import type { RequirementCatalog } from "../harness/requirements.ts";
import type { CheckSelection } from "../harness/selection.ts";
import type { Comparison } from "./compare-phase.ts";
import type { SuiteRunResult } from "./vitest-run.ts";
import type { ReportLayout } from "../../reporters/report-layout.ts";
import { describeSelection, isFiltered, withLevel } from "./selection.ts";

/** --baseline: the file, and its entries (the requirement ids it expects to fail, grouped by the id each line names). */
export interface Baseline {
  readonly file: string;
  readonly entries: readonly BaselineEntry[];
}

export interface SettleInput {
  readonly reporter: RequirementReporter;
  readonly run: Pick<SuiteRunResult, "capped" | "interrupted">;
  readonly selection: CheckSelection;
  readonly baseline?: Baseline;
  /** Where the workers appended the run's exchanges (--record). */
  readonly recordDir?: string;
  readonly layout: ReportLayout;
  /** The compared node (--compare-to), and the run's configuration to compare with it. */
  readonly comparison?: { readonly with: Comparison; readonly config: RunConfig };
  /** --fail-on-diff. */
  readonly failOnDiff: boolean;
  /** The signal that stopped the run, if one did ("interrupted by SIGINT", …). */
  readonly interruptReason?: string;
  readonly say: (line: string) => void;
}

export interface SettledRun {
  readonly outcome: RunOutcome;
  readonly code: number;
  readonly differential?: DifferentialResult;
}

export async function settleRun(input: SettleInput): Promise<SettledRun> {
  const { run, selection, layout, say } = input;
  let outcome = withLevel(input.reporter.finalize(), selection);
  if (
    !run.capped &&
    !run.interrupted &&
    isFiltered(selection) &&
    outcome.errors.length === 0 &&
    outcome.requirements.every((r) => r.checks === 0)
  ) {
    throw new ConfigurationError(
      `${describeSelection(selection).join("; ")}: selects no check (a pattern matches a suite file path, else check names)`,
    );
  }
  if (input.baseline !== undefined) outcome = applyBaseline(outcome, input.baseline.entries, input.baseline.file);
  if (input.recordDir !== undefined) {
    const { EXCHANGES_FILE, joinRecordings } = await import("../harness/recording.ts");
    say(
      `recorded ${joinRecordings(input.recordDir, join(layout.dir, EXCHANGES_FILE))} exchanges in ${join(layout.display, EXCHANGES_FILE)}`,
    );
  }
  const differential =
    input.comparison === undefined || run.interrupted
      ? undefined
      : await (await import("./compare-phase.ts")).runComparePhase(input.comparison.with, input.comparison.config, say);
  // --fail-on-diff: a difference fails a run that would otherwise pass.
  const differs = input.failOnDiff && (differential?.differences.length ?? 0) > 0;
  const code = run.interrupted ? signalExitCode(input.interruptReason ?? "") : Math.max(exitCode(outcome), differs ? 1 : 0);
  return { outcome, code, ...(differential === undefined ? {} : { differential }) };
}

/**
 * The exit status of a run a signal stopped ("interrupted by SIGINT", else SIGTERM): the conventional
 * 128 + the signal's number, so that a caller sees the run was cut short.
 */
export function signalExitCode(interruptReason: string): number {
  return 128 + (interruptReason.endsWith("SIGINT") ? 2 : 15);
}

/** A target that cannot be tested: every requirement skipped with the reason, never passed, and one error case saying why (exit 2). */
export function untestableRun(
  catalog: RequirementCatalog,
  reason: string,
  probe: { readonly requests: number; readonly retries: number },
): { outcome: RunOutcome; junitCases: JunitCase[] } {
  return {
    outcome: notStartedOutcome(catalog, reason, probe.requests, probe.retries),
    junitCases: [{ file: "(target probe)", name: "the target can be tested", status: "error", durationMs: 0, detail: reason }],
  };
}
