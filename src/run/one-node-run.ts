// One node's run, from its flags to its reports: the run's scratch directory, the target (the embedded
// reference node, or --target) and its probe, the suite files on vitest's workers (started before the
// target answers when its answers do not choose the workers), the compare phase, settling, and the
// reports. A target that cannot be tested at all ends the run with its reports saying why (exit 2).

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Reporter } from "vitest/node";
import type { RunOutcome } from "../outcome/run-outcome.ts";
import { verdictOf } from "../outcome/verdict.ts";
import { startAllureGenerator, type AllureGenerator } from "../../reporters/allure-page.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import type { JunitCase } from "../../reporters/junit-report.ts";
import { ReportLayout } from "../../reporters/report-layout.ts";
import { RequirementReporter } from "./requirement-reporter.ts";
import { writeReports, type ReportInput } from "../../reporters/run-reports.ts";
import type { ConformanceArgs } from "./run-options.ts";
import { checkTimeoutMs, workersSharingSlots, type ProvidedRunConfig } from "../harness/config.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { shareInFlightLimit, sharedSlots } from "../harness/shared-in-flight-limit.ts";
import { pacingOf, shareRateLimit, type SharedRateLimit } from "../harness/shared-rate-limit.ts";
import { shareDeclineTally, type DeclineTally } from "../harness/decline-tally.ts";
import { TargetHandoff } from "../harness/target-handoff.ts";
import { CODE_ROOT } from "../package-root.ts";
import type { EmbeddedNode } from "./embedded-node.ts";
import { type PhaseClock, PhaseReporter } from "./phases.ts";
import { resolveTarget, runConfigOf, runConfigWithoutTarget, targetFactsOf } from "./run-config.ts";
import type { RunInputs } from "./run-inputs.ts";
import { describeSelection } from "./selection.ts";
import { settleRun, untestableRun } from "./settle.ts";
import { probeTarget } from "./target-probe.ts";
import { runSuites, type SuiteRunResult } from "./vitest-run.ts";
import { concurrencyPerWorker, runWorkers, workersBeforeAnswers, type RunSizing } from "./workers.ts";

export interface OneNodeRunInput {
  readonly args: ConformanceArgs;
  readonly inputs: RunInputs;
  /** The reference node the entry started for a run without a target (without it, resolveTarget starts one). */
  readonly started?: Promise<EmbeddedNode>;
  /** Aborted by SIGINT or SIGTERM: the run stops like at --max-duration, and its reports are written. */
  readonly interrupt: AbortSignal;
  readonly say: (line: string) => void;
  /** The terminal's progress line: a reporter of the run, and where the run's lines are printed. */
  readonly progress: Reporter & { print(text: string): void };
  readonly startedAt: Date;
  /** When the command started (performance.now()). */
  readonly t0: number;
  readonly phases: PhaseClock;
}

/** The run's exit status; throws a ConfigurationError for what makes it a configuration error (exit 2). */
export async function runOneNode(input: OneNodeRunInput): Promise<number> {
  const { args, started, interrupt, say, progress, startedAt, t0, phases } = input;
  const { catalog, selection, baseline, files, allFiles, excluded, untestedReason, allureOff } = input.inputs;
  let node: EmbeddedNode | undefined;
  let scratch: string | undefined;
  let allureGenerator: AllureGenerator | undefined;
  try {
    const layout = new ReportLayout(args.reportDir);
    const report = (
      target: string,
      outcome: RunOutcome,
      junitCases: readonly JunitCase[],
      code: number,
      allure: ReportInput["allure"],
      differential?: ReportInput["differential"],
    ) =>
      writeReports({
        layout,
        outcome,
        verdict: verdictOf(outcome),
        junitCases,
        junitPerCheck: args.junitPerCheck === true,
        ...(args.format === undefined ? {} : { format: args.format }),
        ...(args.writeBaseline === undefined ? {} : { writeBaseline: args.writeBaseline }),
        target,
        startedAt,
        durationMs: performance.now() - t0,
        exitCode: code,
        allure,
        say,
        phases,
        ...(differential === undefined ? {} : { differential }),
      });

    const runScratch = mkdtempSync(join(tmpdir(), "ledger-conformance-"));
    scratch = runScratch;
    const stateDir = join(runScratch, "state");
    const allureResults = join(runScratch, "allure-results");
    mkdirSync(stateDir);
    const reporter = new RequirementReporter({
      catalog,
      quiet: args.quiet,
      write: (text) => progress.print(text),
      ...(untestedReason === undefined ? {} : { untestedReason }),
      files,
    });
    const phaseReporter = new PhaseReporter();
    // The Allure page's generator starts loading when the first check starts: earlier it would take CPU
    // from the workers' start.
    const startAllureAtFirstCheck = {
      onTestCaseReady: () => {
        if (!allureOff) allureGenerator ??= startAllureGenerator(runScratch);
      },
    };
    const recordDir = args.record ? join(runScratch, "exchanges") : undefined;
    const dirs = { stateDir, bodiesDir: layout.bodiesDir };
    /** Cancels a run whose target did not come up: its results are not the node's. */
    const cancelRun = new AbortController();
    let pace: SharedRateLimit | undefined;
    let declineTally: DeclineTally | undefined;
    const startSuites = ({ workers, concurrency }: RunSizing, config: ProvidedRunConfig) => {
      if (files.length === 0) throw new ConfigurationError("--skip leaves no suite file to run");
      // Several workers keep within --concurrency together: a slot of its own each, and the others shared
      // through memory, so that one may send up to all of them while the others have less to send
      // (shared-in-flight-limit.ts). With no more slots than workers, each has its share alone.
      const slots = sharedSlots(concurrency, workers);
      const sharedInFlight = slots > 0;
      if (sharedInFlight) shareInFlightLimit(stateDir, slots);
      const perWorker = sharedInFlight ? concurrency : concurrencyPerWorker(concurrency, workers);
      // One pace for all the workers, which declines lower and answers raise, and one tally of the declines.
      pace = shareRateLimit(stateDir, args.rateLimit);
      declineTally = shareDeclineTally(stateDir, input.inputs.operations);
      return runSuites({
        root: CODE_ROOT,
        config: {
          ...config,
          concurrency: perWorker,
          ...(sharedInFlight ? { sharedInFlight } : {}),
          sharedRateLimit: true as const,
          ...(recordDir === undefined ? {} : { recordDir }),
        },
        // vitest takes an empty list for every file.
        files: files.length === allFiles.length ? [] : files,
        exclude: excluded,
        requirementReporter: reporter,
        reporters: [progress, phaseReporter, startAllureAtFirstCheck],
        ...(allureOff ? {} : { allure: { resultsDir: allureResults, catalog } }),
        testTimeoutMs: Math.max(60_000, checkTimeoutMs(args.timeoutMs, workersSharingSlots({ sharedInFlight, workers }))),
        maxDurationMs: args.maxDurationMs,
        maxWorkers: workers,
        maxConcurrency: perWorker,
        interrupt: AbortSignal.any([interrupt, cancelRun.signal]),
        onStop: (reason) => reporter.stop(reason),
      });
    };

    // When the target's answers do not choose the workers (src/run/workers.ts), the workers start before it
    // has answered: while the embedded node makes its genesis, or while a remote one is probed across the
    // network. They load and collect the suites meanwhile (collection reads nothing of the target), and
    // get its URL and fixtures once it answers the probe (target-handoff.ts; the handoff exists before
    // the workers start, which is when they get it).
    const startEarlyRun = (handoff: TargetHandoff, sizing: RunSizing) => {
      const run = startSuites(sizing, { ...runConfigWithoutTarget(args, dirs, selection), awaitsTarget: true });
      // The run's end comes later; a failed start is reported where it is awaited.
      run.catch(() => undefined);
      return { handoff, run };
    };
    const earlyWorkers = workersBeforeAnswers(args);
    const early = earlyWorkers === undefined ? undefined : startEarlyRun(new TargetHandoff(stateDir), earlyWorkers);
    // A signal while the target comes up: the workers stop waiting for it (the run is being stopped).
    interrupt.addEventListener("abort", () => early?.handoff.cancel(String(interrupt.reason)), { once: true });
    /** The target did not come up: the early run's workers stop waiting, and the run ends at once. */
    const abandonEarlyRun = async (reason: string) => {
      early?.handoff.cancel(reason);
      cancelRun.abort(reason);
      await early?.run.catch(() => undefined);
    };

    let resolved: Awaited<ReturnType<typeof resolveTarget>>;
    let probe: Awaited<ReturnType<typeof probeTarget>>;
    // --compare-to (the differential run) is imported when asked for, as --record's recordings are
    // (settle.ts): their modules are a share of the command's start that a default run does not use.
    let comparison: Awaited<ReturnType<typeof import("./compare-phase.ts").prepareComparison>> | undefined;
    try {
      resolved = await resolveTarget(args, say, started);
      phases.end("target");
      node = resolved.node;
      // Its answers are timed only when they choose the run's workers (below).
      const timeAnswers = early === undefined;
      probe = await probeTarget(resolved.target, args.timeoutMs, { secretHeaders: args.secretHeaders, timeAnswers });
      phases.end("probe");
      if (probe.ok) {
        say(`target ${resolved.target}${node ? " (embedded reference node)" : ""}, profile ${args.profile}: ${probe.note}`);
        comparison =
          args.compareTo === undefined
            ? undefined
            : await (await import("./compare-phase.ts")).prepareComparison(args.compareTo, args.compareFixtures, args.timeoutMs);
      }
    } catch (e) {
      await abandonEarlyRun(e instanceof Error ? e.message : String(e));
      throw e;
    }
    const { target } = resolved;
    reporter.countRequestsBefore(probe.requests, probe.retries);
    if (!probe.ok) {
      await abandonEarlyRun(probe.reason);
      // Nothing can be tested: exit 2 as for a usage error, with the reports saying why.
      process.stderr.write(escapeControls(`ledger-conformance: ${probe.reason}\n`));
      const { outcome, junitCases } = untestableRun(catalog, probe.reason, probe);
      await report(target, outcome, junitCases, 2, { skipped: "nothing ran" });
      return 2;
    }

    layout.create();
    for (const line of describeSelection(selection)) say(line);
    const config = runConfigOf(args, resolved, dirs, selection);
    let run: SuiteRunResult;
    if (early !== undefined) {
      early.handoff.handOver(targetFactsOf(args, resolved));
      run = await early.run;
    } else {
      // A loopback target whose answers chose the workers: slow ones once warm mean a slow link, and a run
      // that will wait on the network, not on this machine's CPU.
      run = await startSuites(runWorkers(args, probe.latencyBound), config);
    }
    if (phaseReporter.firstCheckAt !== undefined) phases.end("workers", phaseReporter.firstCheckAt);
    if (phaseReporter.runEndAt !== undefined) phases.end("checks", phaseReporter.runEndAt);
    phases.end("vitestClose");

    const settled = await settleRun({
      reporter,
      run,
      selection,
      ...(baseline === undefined ? {} : { baseline }),
      ...(recordDir === undefined ? {} : { recordDir }),
      layout,
      ...(comparison === undefined ? {} : { comparison: { with: comparison, config } }),
      failOnDiff: args.failOnDiff === true,
      ...(interrupt.aborted ? { interruptReason: String(interrupt.reason) } : {}),
      say,
    });
    const { code, differential } = settled;
    const declines = declineTally?.declines(pace === undefined ? undefined : pacingOf(pace));
    const outcome = declines === undefined ? settled.outcome : { ...settled.outcome, declines };
    // After a signal there is no time for the Allure page.
    const allure: ReportInput["allure"] = allureOff
      ? { skipped: "LEDGER_CONFORMANCE_ALLURE=off" }
      : run.interrupted
        ? { skipped: String(interrupt.reason) }
        : { resultsDir: allureResults, ...(allureGenerator === undefined ? {} : { generator: allureGenerator }) };
    await report(target, outcome, reporter.junitCases(), code, allure, differential);
    await run.closing;
    return code;
  } finally {
    allureGenerator?.dispose();
    // The node, also when the run ended before it was awaited.
    await (node ?? (await started?.catch(() => undefined)))?.close().catch(() => undefined);
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  }
}
