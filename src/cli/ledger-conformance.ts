// `npm run conformance -- …` / `npx ledger-conformance …`: runs the conformance suites against a node
// and writes summary.json, junit.xml and html/. Without --target it tests the reference node, started
// in-process on a free loopback port (by the entry, ledger-conformance-entry.ts, before this loads).
// Exit status: 0 every MUST holds; 1 some MUST failed (or a baseline entry passed, or the run had
// errors); 2 usage or configuration error, or the target cannot be reached at all. Flags: see USAGE in
// src/cli/args.ts.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseBaseline, type RunOutcome } from "../../reporters/aggregate.ts";
import type { JunitCase } from "../../reporters/junit-report.ts";
import { RequirementReporter } from "../../reporters/requirement-reporter.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { checkTimeoutMs, workersSharingSlots, type ProvidedRunConfig } from "../harness/config.ts";
import { shareInFlightLimit, sharedSlots } from "../harness/shared-in-flight-limit.ts";
import { TargetHandoff } from "../harness/target-handoff.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { ApiContract } from "../harness/openapi.ts";
import { loadRequirementAliases, type RequirementAliases } from "../harness/requirement-aliases.ts";
import { filesToLoad } from "../harness/selection.ts";
import { loadRequirements, type RequirementCatalog } from "../harness/requirements.ts";
import { parseConformanceArgs, USAGE, UsageError, type ConformanceArgs } from "./args.ts";
import { writeReports, type ReportInput } from "../../reporters/run-reports.ts";
import { resolveTarget, runConfigBesideTarget, runConfigOf, targetFactsOf } from "../run/run-config.ts";
import { startAllureGenerator, type AllureGenerator } from "../../reporters/allure-page.ts";
import { probeTarget } from "../run/target-probe.ts";
import type { EmbeddedNode } from "../run/embedded-node.ts";
import { preloadSuiteRunner, runSuites, type SuiteRunResult } from "../run/vitest-run.ts";
import { concurrencyPerWorker, runWorkers, workersBeforeAnswers } from "../run/workers.ts";
import { settleRun, untestableRun, type Baseline } from "../run/settle.ts";
import { runFleet } from "../fleet/run.ts";
import { readTargetsFile, targetsFromUrls } from "../fleet/targets.ts";
import { mergeCommand } from "./merge.ts";
import { ReportLayout } from "../../reporters/report-layout.ts";
import { PhaseClock, PhaseReporter } from "../run/phases.ts";
import { CODE_ROOT, packageVersion, SUITE_FILE_SUFFIX } from "../package-root.ts";
import { ProgressLine } from "./progress-line.ts";
import { colourAllowed } from "../../reporters/terminal.ts";
import { describeSelection, selectionOf, untestedReasonOf } from "../run/selection.ts";
// --compare-to (the differential run) and --record are imported when asked for: together they are
// ~0.5 s of the command's start that a default run does not use.


/**
 * SIGTERM or SIGINT (an outer time limit, Ctrl-C) stops the run like --max-duration does: the checks
 * that did not run are skipped, the reports are written, and the command exits 128 + the signal's
 * number. A second signal leaves at once.
 */
const interrupt = new AbortController();
for (const [signal, number] of [["SIGINT", 2], ["SIGTERM", 15]] as const) {
  process.on(signal, () => {
    if (interrupt.signal.aborted) process.exit(128 + number);
    interrupt.abort(`interrupted by ${signal}`);
  });
}

/**
 * Runs the command with `argv` and sets the exit code. `started`: the reference node the entry started
 * for a run without a target, from the same flags (without it, resolveTarget starts one).
 */
export async function runCommand(argv: readonly string[], started?: Promise<EmbeddedNode>): Promise<void> {
  const code = await main(argv, started);
  process.exitCode = code;
  // vitest sets process.exitCode too (1 when a run had failures or errors), also while it closes after
  // the command is done: a run abandoned because its target never answered had its workers' waits
  // cancelled, and its close set 1 over the 2 the command returned. The command's status is its own.
  process.on("exit", () => {
    process.exitCode = code;
  });
  // Keep-alive sockets or a stuck worker must not keep the command alive once the reports are written.
  setTimeout(() => process.exit(code), 2_000).unref();
}

async function main(argv: readonly string[], started: Promise<EmbeddedNode> | undefined): Promise<number> {
  if (argv[0] === "diff") return (await import("./diff.ts")).diffCommand(argv.slice(1));
  if (argv[0] === "proxy") return (await import("./proxy.ts")).proxyCommand(argv.slice(1));
  if (argv[0] === "merge") return mergeCommand(argv.slice(1));
  let args: ConformanceArgs;
  try {
    const parsed = parseConformanceArgs(argv);
    if (parsed === "help") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (parsed === "version") {
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    args = parsed;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(escapeControls(`ledger-conformance: ${e.message}\n${USAGE}\n`));
      return 2;
    }
    // The config file: its problems, without the usage text.
    if (e instanceof ConfigurationError) {
      process.stderr.write(escapeControls(`ledger-conformance: ${e.message}\n`));
      return 2;
    }
    throw e;
  }
  // With --format markdown stdout holds only the markdown summary: progress goes to stderr.
  const out = args.format === "markdown" ? process.stderr : process.stdout;
  const say = (line: string) => {
    if (!args.quiet) out.write(`${escapeControls(line)}\n`);
  };
  let node: EmbeddedNode | undefined;
  let scratch: string | undefined;
  let allureGenerator: AllureGenerator | undefined;
  try {
    const startedAt = new Date();
    const t0 = performance.now();
    const phases = new PhaseClock();
    phases.end("processStart", t0);
    // LEDGER_CONFORMANCE_ALLURE=off skips the Allure sub-report, about 3.5 CPU-s of a whole-suite run (its
    // results written as files end, ~1; the page, ~2.5), for runs whose Allure page no one opens: most
    // of the tests', a CI gate's.
    const allureOff = process.env.LEDGER_CONFORMANCE_ALLURE === "off";
    // A run without a target: its reference node is starting on its own thread (the entry started it),
    // and the suite runner and the catalog load meanwhile.
    preloadSuiteRunner({ allure: !allureOff });
    const catalog = loadCatalog();
    const aliases = loadRequirementAliases();
    if (args.configFile !== undefined) say(`config file ${args.configFile}`);
    const allFiles = suiteFiles();
    const selection = selectionOf(args, allFiles, aliases);
    const baseline = args.baseline === undefined ? undefined : readBaseline(args.baseline, aliases);
    const files = filesToLoad(selection, allFiles);
    const untestedReason = untestedReasonOf(selection);
    // A fleet: every node's checks in one vitest instance, then the requirement-by-node matrix (src/fleet/run.ts).
    const fleet = args.targetsFile !== undefined ? readTargetsFile(args.targetsFile) : args.fleet !== undefined ? targetsFromUrls(args.fleet) : undefined;
    if (fleet !== undefined) {
      return await runFleet({ targets: fleet, args, selection, files, ...(untestedReason === undefined ? {} : { untestedReason }), ...(baseline === undefined ? {} : { baseline }), catalog, allureOff, interrupt: interrupt.signal, say });
    }
    const layout = new ReportLayout(args.reportDir);
    const report = (target: string, outcome: RunOutcome, junitCases: readonly JunitCase[], code: number, allure: ReportInput["allure"], differential?: ReportInput["differential"]) =>
      writeReports({
        layout,
        outcome,
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
    // On a terminal: a line of progress while files run, and colour (unless NO_COLOR).
    const progress = new ProgressLine(out, { enabled: !args.quiet && out.isTTY === true, colour: colourAllowed(out) });
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
    const startSuites = (workers: number, config: ProvidedRunConfig) => {
      if (files.length === 0) throw new ConfigurationError("--skip leaves no suite file to run");
      // Several workers keep within --concurrency together: a slot of its own each, and the others shared
      // through memory, so that one may send up to all of them while the others have less to send
      // (shared-in-flight-limit.ts). With no more slots than workers, each has its share alone.
      const slots = sharedSlots(args.concurrency, workers);
      const sharedInFlight = slots > 0;
      if (sharedInFlight) shareInFlightLimit(stateDir, slots);
      const perWorker = sharedInFlight ? args.concurrency : concurrencyPerWorker(args.concurrency, workers);
      return runSuites({
        root: CODE_ROOT,
        config: { ...config, concurrency: perWorker, ...(sharedInFlight ? { sharedInFlight } : {}), ...(recordDir === undefined ? {} : { recordDir }) },
        // vitest takes an empty list for every file.
        files: files.length === allFiles.length ? [] : files,
        requirementReporter: reporter,
        reporters: [progress, phaseReporter, startAllureAtFirstCheck],
        ...(allureOff ? {} : { allure: { resultsDir: allureResults, catalog } }),
        testTimeoutMs: Math.max(60_000, checkTimeoutMs(args.timeoutMs, workersSharingSlots({ sharedInFlight, workers }))),
        maxDurationMs: args.maxDurationMs,
        maxWorkers: workers,
        maxConcurrency: perWorker,
        interrupt: AbortSignal.any([interrupt.signal, cancelRun.signal]),
        onStop: (reason) => reporter.stop(reason),
      });
    };

    // When the target's answers do not choose the workers (src/run/workers.ts), the workers start before it
    // has answered: while the embedded node makes its genesis, or while a remote one is probed across the
    // network. They load and collect the suites meanwhile (collection reads nothing of the target), and
    // get its URL and fixtures once it answers the probe (target-handoff.ts; the handoff exists before
    // the workers start, which is when they get it).
    const startEarlyRun = (handoff: TargetHandoff, workers: number) => {
      const run = startSuites(workers, { ...runConfigBesideTarget(args, dirs, selection), awaitsTarget: true });
      // The run's end comes later; a failed start is reported where it is awaited.
      run.catch(() => undefined);
      return { handoff, run };
    };
    const earlyWorkers = workersBeforeAnswers(args);
    const early = earlyWorkers === undefined ? undefined : startEarlyRun(new TargetHandoff(stateDir), earlyWorkers);
    // A signal while the target comes up: the workers stop waiting for it (the run is being stopped).
    interrupt.signal.addEventListener("abort", () => early?.handoff.cancel(String(interrupt.signal.reason)), { once: true });
    /** The target did not come up: the early run's workers stop waiting, and the run ends at once. */
    const abandonEarlyRun = async (reason: string) => {
      early?.handoff.cancel(reason);
      cancelRun.abort(reason);
      await early?.run.catch(() => undefined);
    };

    let resolved: Awaited<ReturnType<typeof resolveTarget>>;
    let probe: Awaited<ReturnType<typeof probeTarget>>;
    let comparison: Awaited<ReturnType<typeof import("../run/compare-phase.ts").prepareComparison>> | undefined;
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
        comparison = args.compareTo === undefined ? undefined : await (await import("../run/compare-phase.ts")).prepareComparison(args.compareTo, args.compareFixtures, args.timeoutMs);
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

    const { outcome, code, differential } = await settleRun({
      reporter,
      run,
      selection,
      ...(baseline === undefined ? {} : { baseline }),
      ...(recordDir === undefined ? {} : { recordDir }),
      layout,
      ...(comparison === undefined ? {} : { comparison: { with: comparison, config } }),
      failOnDiff: args.failOnDiff === true,
      ...(interrupt.signal.aborted ? { interruptReason: String(interrupt.signal.reason) } : {}),
      say,
    });
    // After a signal there is no time for the Allure page.
    const allure: ReportInput["allure"] =
      allureOff
        ? { skipped: "LEDGER_CONFORMANCE_ALLURE=off" }
        : run.interrupted
          ? { skipped: String(interrupt.signal.reason) }
          : { resultsDir: allureResults, ...(allureGenerator === undefined ? {} : { generator: allureGenerator }) };
    await report(target, outcome, reporter.junitCases(), code, allure, differential);
    await run.closing;
    return code;
  } catch (e) {
    // A configuration error (fixtures, catalog, baseline, a node that cannot start, --only): its message.
    const text = e instanceof ConfigurationError ? e.message : ((e as Error).stack ?? String(e));
    process.stderr.write(escapeControls(`ledger-conformance: ${text}\n`));
    return 2;
  } finally {
    allureGenerator?.dispose();
    // The node, also when the run ended before it was awaited.
    await (node ?? (await started?.catch(() => undefined)))?.close().catch(() => undefined);
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  }
}

function loadCatalog(): RequirementCatalog {
  let contract: ApiContract;
  try {
    contract = ApiContract.load();
  } catch (e) {
    throw new ConfigurationError(`cannot load schemas/openapi.yaml: ${(e as Error).message}`);
  }
  return loadRequirements(contract.operations.map((o) => o.id));
}

function readBaseline(file: string, aliases: RequirementAliases): Baseline {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ConfigurationError(`cannot read baseline ${file}: ${(e as Error).message}`);
  }
  return { file, ids: parseBaseline(text, file, aliases) };
}

/** Every suite and property file, relative to the root. */
function suiteFiles(): string[] {
  const files: string[] = [];
  for (const dir of ["suites", "properties"]) {
    const abs = join(CODE_ROOT, dir);
    if (!existsSync(abs)) continue;
    for (const entry of readdirSync(abs, { recursive: true })) {
      const rel = `${dir}/${String(entry)}`;
      if (rel.endsWith(SUITE_FILE_SUFFIX)) files.push(rel);
    }
  }
  return files;
}

