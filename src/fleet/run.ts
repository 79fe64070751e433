// A fleet in one run: every node is checked by the same vitest instance, each from a folder of
// its own holding a copy of the suites (src/run/run-folders.ts), with its own run configuration (runsByFolder:
// its URL, fixtures, profile, state directory) and its own reporters (src/run/reporter-per-run.ts). The workers
// are shared: their start is paid once, not once per node, and the nodes' files spread over all of them,
// so a node's files whose checks go one by one (its submissions) overlap with the other nodes' and its
// own; a node's --concurrency and --rate-limit are kept by all the workers together. Each node still
// gets its complete reports in REPORT_DIR/targets/NAME/, written as a one-node run writes them, and its
// console report in console.txt; the requirement-by-node matrix is then built from their summary.json
// files exactly as `merge` builds it from runs made elsewhere (reporters/matrix-reports.ts).
// A node that cannot be tested (its probe fails, its fixtures cannot be read) is reported with every
// requirement skipped and why, never passed, and exit 2. The exit status is the worst node's; a signal
// stops the run, the reports are written, and the command exits 128 + its number.

import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { escapeControls } from "../../reporters/escape-controls.ts";
import type { MatrixNode } from "../../reporters/matrix-data.ts";
import { RequirementReporter } from "../run/requirement-reporter.ts";
import { renderConsoleReport } from "../../reporters/console-report.ts";
import { checkTimeoutMs, isLoopbackUrl, workersSharingSlots, type RunConfig } from "../harness/config.ts";
import { shareInFlightLimit } from "../harness/shared-in-flight-limit.ts";
import { pacingOf, shareRateLimit, type SharedRateLimit } from "../harness/shared-rate-limit.ts";
import { shareDeclineTally, type DeclineTally } from "../harness/decline-tally.ts";
import type { RequirementCatalog } from "../harness/requirements.ts";
import { verdictOf } from "../outcome/verdict.ts";
import { fleetJudgement, nodeVerdict } from "../outcome/fleet-verdict.ts";
import type { CheckSelection } from "../harness/selection.ts";
import type { Reporter } from "vitest/node";
import type { ConformanceArgs } from "../run/run-options.ts";
import { writeReports, type ReportInput } from "../../reporters/run-reports.ts";
import { resolveTarget, runConfigOf, type ResolvedTarget } from "../run/run-config.ts";
import { probeTarget } from "../run/target-probe.ts";
import { runSuites, type SuiteRunResult } from "../run/vitest-run.ts";
import { writeMatrixReports } from "../../reporters/matrix-reports.ts";
import { fleetWorkers } from "../run/workers.ts";
import { readRunSummary } from "./summary-reader.ts";
import type { FleetTarget } from "./targets.ts";
import { ReportLayout } from "../../reporters/report-layout.ts";
import { ReporterPerRun } from "../run/reporter-per-run.ts";
import { makeRunFolders } from "../run/run-folders.ts";
import { settleRun, signalExitCode, untestableRun, type Baseline } from "../run/settle.ts";
import type { Comparison } from "../run/compare-phase.ts";

export interface FleetRunInput {
  readonly targets: readonly FleetTarget[];
  /** The command's flags: every node's run gets them, with its own target, fixtures and profile. */
  readonly args: ConformanceArgs;
  /** Which checks run, and the suite files that hold them (relative to the code root). */
  readonly selection: CheckSelection;
  /** The contract's operationIds: the endpoints each node's declines are counted by. */
  readonly operations: readonly string[];
  readonly files: readonly string[];
  readonly untestedReason?: string;
  readonly baseline?: Baseline;
  readonly catalog: RequirementCatalog;
  /** LEDGER_CONFORMANCE_ALLURE=off: no Allure page for any node. */
  readonly allureOff: boolean;
  readonly interrupt: AbortSignal;
  readonly say: (line: string) => void;
}

/** A node of the fleet, with where its reports go and what it printed. */
interface Node {
  readonly target: FleetTarget;
  /** The flags of its own run: the command's, with its target, fixtures and profile. */
  readonly args: ConformanceArgs;
  readonly layout: ReportLayout;
  /** Its run's private directory: state, Allure results, recorded exchanges. */
  readonly scratch: string;
  /** Adds a line to its console.txt. */
  readonly print: (text: string) => void;
}

/** A node whose target answered its probe, with the run it gets. */
interface ReadyNode extends Node {
  readonly resolved: ResolvedTarget;
  readonly latencyBound: boolean;
  readonly requests: number;
  readonly retries: number;
}

/** How a ready node's run ended. */
interface RunEnd {
  readonly reporter: RequirementReporter;
  /** Its configuration as a one-node run would have it (the compare phase's). */
  readonly config: RunConfig;
  readonly recordDir?: string;
  readonly allureResults?: string;
  readonly run: SuiteRunResult;
  /** When its last file ended (performance.now()). */
  readonly endedAt: number;
  /** Its pace and what it declined, kept by all the workers together. */
  readonly pace: SharedRateLimit;
  readonly declineTally: DeclineTally;
}

/** A node that cannot be tested, and why. */
interface UntestableNode extends Node {
  readonly reason: string;
  readonly requests: number;
  readonly retries: number;
}

export async function runFleet(input: FleetRunInput): Promise<number> {
  const { args, say } = input;
  const startedAt = new Date();
  const t0 = performance.now();
  const layout = new ReportLayout(args.reportDir);
  layout.create();
  say(
    `fleet of ${input.targets.length}: ${input.targets.map((t) => `${t.name} ${t.url}`).join(", ")}; each node's own reports go to ${join(layout.display, "targets", "NAME")}/`,
  );
  const scratch = mkdtempSync(join(tmpdir(), "ledger-conformance-fleet-"));
  try {
    const nodes = input.targets.map((target, i) => nodeOf(target, input.args, layout, join(scratch, `node-${i + 1}`)));
    const probed = await Promise.all(nodes.map((node) => probeNode(node)));
    const ready = probed.filter((n): n is ReadyNode => "resolved" in n);
    // The compared node (--compare-to) is probed once, before any check: one that cannot be reached is a configuration error (exit 2).
    const comparison =
      args.compareTo === undefined
        ? undefined
        : await (await import("../run/compare-phase.ts")).prepareComparison(args.compareTo, args.compareFixtures, args.timeoutMs);
    const { ends, closing } =
      ready.length === 0 ? { ends: new Map<Node, RunEnd>(), closing: Promise.resolve() } : await runNodes(ready, input, scratch);
    // The nodes' reports, a few at once: each may make an Allure page, in a process of its own.
    const codes = await inTurns(probed, availableParallelism(), (node) => {
      const end = ends.get(node);
      return end === undefined
        ? reportUntestable(node as UntestableNode, input, startedAt)
        : reportNode(node as ReadyNode, end, { ...input, comparison, startedAt, t0 });
    });
    const matrix: MatrixNode[] = probed.map((node, i) => {
      const code = codes[i] as number;
      const summary = readRunSummary(node.layout.dir);
      say(
        `${code === 0 ? "✓" : "✗"} ${node.target.name}: exit ${code}, ${summary.counts.failed} failed, ${summary.counts.warned} warned, ${summary.counts.passed} passed (${(summary.durationMs / 1000).toFixed(1)} s)`,
      );
      const verdict = nodeVerdict(summary, code);
      return { name: node.target.name, summary, exitCode: code, verdict, reportHref: `../targets/${node.target.name}/html/index.html` };
    });
    const fleet = fleetJudgement(matrix);
    writeMatrixReports({
      layout,
      nodes: matrix,
      startedAt,
      durationMs: performance.now() - t0,
      ...(args.format === undefined ? {} : { format: args.format }),
      fleet,
    });
    await closing;
    if (input.interrupt.aborted) return signalExitCode(String(input.interrupt.reason));
    return fleet.exitCode;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function nodeOf(target: FleetTarget, args: ConformanceArgs, fleetLayout: ReportLayout, scratch: string): Node {
  const layout = new ReportLayout(join(fleetLayout.dir, "targets", target.name));
  rmSync(layout.dir, { recursive: true, force: true });
  layout.create();
  mkdirSync(join(scratch, "state"), { recursive: true });
  const consoleFile = join(layout.dir, "console.txt");
  appendFileSync(consoleFile, "");
  return {
    target,
    args: nodeArgsOf(args, target),
    layout,
    scratch,
    print: (text) => appendFileSync(consoleFile, escapeControls(text.endsWith("\n") ? text : `${text}\n`)),
  };
}

/** A node's flags: a one-node run's given its URL as --target, and its own fixtures and profile (else --fixtures and --profile). */
export function nodeArgsOf(args: ConformanceArgs, target: FleetTarget): ConformanceArgs {
  const { fleet: _fleet, targetsFile: _targetsFile, fixtures: sharedFixtures, ...rest } = args;
  const fixtures = target.fixtures ?? sharedFixtures;
  return { ...rest, target: target.url, profile: target.profile ?? args.profile, ...(fixtures === undefined ? {} : { fixtures }) };
}

/** Its fixtures read and its target probed, as a one-node run does before its checks. */
async function probeNode(node: Node): Promise<ReadyNode | UntestableNode> {
  let resolved: ResolvedTarget;
  try {
    resolved = await resolveTarget(node.args, node.print);
  } catch (e) {
    return { ...node, reason: (e as Error).message, requests: 0, retries: 0 };
  }
  // A loopback target's answers are timed: slow ones mean a slow link, and a run that waits on the network.
  const probe = await probeTarget(resolved.target, node.args.timeoutMs, {
    secretHeaders: node.args.secretHeaders,
    timeAnswers: isLoopbackUrl(resolved.target),
  });
  if (!probe.ok) return { ...node, reason: probe.reason, requests: probe.requests, retries: probe.retries };
  node.print(`target ${resolved.target}, profile ${node.args.profile}: ${probe.note}`);
  return { ...node, resolved, latencyBound: probe.latencyBound, requests: probe.requests, retries: probe.retries };
}

/** The ready nodes' checks, in one vitest instance: how each node's run ended, and vitest's closing (see runSuites). */
async function runNodes(
  nodes: readonly ReadyNode[],
  input: FleetRunInput,
  scratch: string,
): Promise<{ ends: Map<Node, RunEnd>; closing: Promise<void> }> {
  const { args } = input;
  const workers = fleetWorkers(
    args,
    nodes.map((n) => (n.latencyBound ? "latency" : "cpu")),
  );
  // Each node's --concurrency is shared by all the workers, none with a slot of its own: a node's files
  // go to a few of the fleet's workers at a time, any of them (shared-in-flight-limit.ts).
  const sharedInFlight = workers > 1;
  const folders = makeRunFolders(nodes.length, { parent: scratch });
  try {
    // Each node's run: its folder, its configuration (as a one-node run's, then as its workers get it), its reporters.
    const runs = nodes.map((node, i) => {
      const folder = folders.folders[i] as string;
      const stateDir = join(node.scratch, "state");
      if (sharedInFlight) shareInFlightLimit(stateDir, args.concurrency, { ownSlot: false });
      // One pace per node, which its declines lower and its answers raise, and one tally of its declines,
      // kept by every worker that runs a file of the node's (shared-rate-limit.ts, decline-tally.ts).
      const pace = shareRateLimit(stateDir, args.rateLimit);
      const declineTally = shareDeclineTally(stateDir, input.operations);
      const config = runConfigOf(node.args, node.resolved, { stateDir, bodiesDir: node.layout.bodiesDir }, input.selection);
      const recordDir = args.record ? join(node.scratch, "exchanges") : undefined;
      const provided: RunConfig = {
        ...config,
        concurrency: args.concurrency,
        workers,
        ...(sharedInFlight ? { sharedInFlight } : {}),
        // Any worker may run a file of this node: they keep to its pace together.
        sharedRateLimit: true as const,
        ...(recordDir === undefined ? {} : { recordDir }),
        infoFile: join(node.layout.dir, "console.txt"),
      };
      // Named in the node's reports as a one-node run names them (suites/…), relative to its folder.
      const reporter = new RequirementReporter({
        catalog: input.catalog,
        quiet: true,
        files: input.files,
        root: folder,
        ...(input.untestedReason === undefined ? {} : { untestedReason: input.untestedReason }),
      });
      reporter.countRequestsBefore(node.requests, node.retries);
      const allureResults = input.allureOff ? undefined : join(node.scratch, "allure-results");
      const lastFile = new LastFileEnd();
      return { node, folder, config, provided, recordDir, reporter, allureResults, lastFile, pace, declineTally };
    });
    const allure = input.allureOff ? undefined : (await import("../../reporters/allure-results-writer.ts")).AllureResultsReporter;
    const reportersOf = new Map(
      runs.map(
        (r) =>
          [
            r.folder,
            [
              r.reporter,
              r.lastFile,
              ...(allure === undefined || r.allureResults === undefined ? [] : [new allure(r.allureResults, input.catalog)]),
            ],
          ] as const,
      ),
    );
    const run = await runSuites({
      runsByFolder: Object.fromEntries(runs.map((r) => [r.folder, r.provided])),
      root: folders.dir,
      include: runs.flatMap((r) => input.files.map((file) => relative(folders.dir, join(r.folder, file)))),
      files: [],
      requirementReporter: new ReporterPerRun(reportersOf, folders.folderOf),
      testTimeoutMs: Math.max(60_000, checkTimeoutMs(args.timeoutMs, workersSharingSlots({ sharedInFlight, workers }))),
      maxDurationMs: args.maxDurationMs,
      maxWorkers: workers,
      maxConcurrency: args.concurrency,
      interrupt: input.interrupt,
      onStop: (reason) => {
        for (const r of runs) r.reporter.stop(reason);
      },
    });
    const ends = new Map<Node, RunEnd>(
      runs.map((r) => [
        r.node,
        {
          reporter: r.reporter,
          config: r.config,
          ...(r.recordDir === undefined ? {} : { recordDir: r.recordDir }),
          ...(r.allureResults === undefined ? {} : { allureResults: r.allureResults }),
          run,
          endedAt: r.lastFile.at ?? performance.now(),
          pace: r.pace,
          declineTally: r.declineTally,
        },
      ]),
    );
    // vitest closes while the reports are written; the folders go once it has.
    return { ends, closing: run.closing.finally(() => folders.remove()) };
  } catch (e) {
    folders.remove();
    throw e;
  }
}

/** When a node's last file ended (performance.now()): its run's duration is until then. */
class LastFileEnd implements Reporter {
  at: number | undefined;

  onTestModuleEnd(): void {
    this.at = performance.now();
  }
}

type ReportContext = FleetRunInput & { readonly comparison: Comparison | undefined; readonly startedAt: Date; readonly t0: number };

/** A node's reports, as its own run would write them, and its console report in console.txt; its exit status. */
async function reportNode(node: ReadyNode, end: RunEnd, context: ReportContext): Promise<number> {
  const { args } = node;
  const interruptReason = context.interrupt.aborted ? String(context.interrupt.reason) : undefined;
  const settled = await settleRun({
    reporter: end.reporter,
    run: end.run,
    selection: context.selection,
    ...(context.baseline === undefined ? {} : { baseline: context.baseline }),
    ...(end.recordDir === undefined ? {} : { recordDir: end.recordDir }),
    layout: node.layout,
    ...(context.comparison === undefined ? {} : { comparison: { with: context.comparison, config: end.config } }),
    failOnDiff: args.failOnDiff === true,
    ...(interruptReason === undefined ? {} : { interruptReason }),
    say: node.print,
  });
  const { code, differential } = settled;
  const declines = end.declineTally.declines(pacingOf(end.pace));
  const outcome = declines === undefined ? settled.outcome : { ...settled.outcome, declines };
  // After a signal there is no time for the Allure page.
  const allure: ReportInput["allure"] =
    end.allureResults === undefined
      ? { skipped: "LEDGER_CONFORMANCE_ALLURE=off" }
      : interruptReason !== undefined
        ? { skipped: interruptReason }
        : { resultsDir: end.allureResults };
  const durationMs = end.endedAt - context.t0;
  const verdict = verdictOf(outcome);
  await writeReports({
    layout: node.layout,
    outcome,
    verdict,
    junitCases: end.reporter.junitCases(),
    junitPerCheck: args.junitPerCheck === true,
    target: end.config.target,
    startedAt: context.startedAt,
    durationMs,
    exitCode: code,
    allure,
    say: node.print,
    ...(differential === undefined ? {} : { differential }),
    console: false,
  });
  node.print(
    renderConsoleReport(outcome, { target: end.config.target, durationMs, reportDir: node.layout.display, exitCode: code, verdict }),
  );
  return code;
}

/** A node that cannot be tested: every requirement skipped with the reason, never passed, and exit 2, as a one-node run reports it. */
async function reportUntestable(node: UntestableNode, input: FleetRunInput, startedAt: Date): Promise<number> {
  node.print(`ledger-conformance: ${node.reason}`);
  const { outcome, junitCases } = untestableRun(input.catalog, node.reason, node);
  await writeReports({
    layout: node.layout,
    outcome,
    verdict: verdictOf(outcome),
    junitCases,
    target: node.target.url,
    startedAt,
    durationMs: 0,
    exitCode: 2,
    allure: { skipped: "nothing ran" },
    say: node.print,
    console: false,
  });
  return 2;
}

/** `work` for every item, at most `together` at once; the results in the items' order. */
async function inTurns<T, R>(items: readonly T[], together: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const turn = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(together, items.length) }, turn));
  return results;
}
