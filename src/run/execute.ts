// The checks of a run's nodes, in one vitest instance on shared workers (vitest-run.ts). A one-node
// run's suite files are the running code's own, its configuration provided as the worker's one run; a
// fleet's nodes each get a folder holding a copy of the suite files (run-folders.ts), with their
// configuration provided under it. Each node has its own reporters (the requirement reporter, the
// Allure results, when its last file ended), its own pace and tally of declines, and keeps its
// --concurrency across every worker that runs a file of it.

import { dirname, join, relative } from "node:path";
import type { Reporter } from "vitest/node";
import { startAllureGenerator, type AllureGenerator } from "../../reporters/allure-page.ts";
import { checkTimeoutMs, workersSharingSlots, type ProvidedRunConfig, type RunConfig } from "../harness/config.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { type DeclineTally, shareDeclineTally } from "../harness/decline-tally.ts";
import { shareInFlightLimit, sharedSlots } from "../harness/shared-in-flight-limit.ts";
import { type SharedRateLimit, shareRateLimit } from "../harness/shared-rate-limit.ts";
import { CODE_ROOT } from "../package-root.ts";
import type { EngineIo } from "./engine.ts";
import type { RunNode } from "./run-nodes.ts";
import { PhaseReporter } from "./phases.ts";
import { ReporterPerRun } from "./reporter-per-run.ts";
import { RequirementReporter } from "./requirement-reporter.ts";
import { makeRunFolders, type RunFolders } from "./run-folders.ts";
import type { RunPlan } from "./run-plan.ts";
import { allureResultsReporter, runSuites, type SuiteRunResult } from "./vitest-run.ts";
import { concurrencyPerWorker, type RunSizing } from "./workers.ts";

/** How a node's checks ended. */
export interface NodeEnd {
  readonly reporter: RequirementReporter;
  readonly run: SuiteRunResult;
  /** Where its workers appended its exchanges (--record). */
  readonly recordDir?: string;
  /** Its Allure results, and the page's generator when it started while the checks ran. */
  readonly allure?: { readonly resultsDir: string; readonly generator?: AllureGenerator };
  /** When a fleet node's last file ended (performance.now()); a one-node run lasts until its reports. */
  readonly endedAt?: number;
  readonly pace: SharedRateLimit;
  readonly declineTally: DeclineTally;
}

/** A run's checks under way. */
export interface Execution {
  /** Every node's end by its state directory, once the checks are done. */
  ended(): Promise<ReadonlyMap<string, NodeEnd>>;
  /** Cancels a run whose target did not come up (its results are not the node's), and waits for it to stop. */
  cancel(reason: string): Promise<void>;
  /** Settles when vitest has closed, or its time to close ran out. */
  closing(): Promise<void>;
  /** Stops the Allure generators and removes the run folders. */
  dispose(): void;
}

/** A node with the configuration its workers get (awaiting its target's facts when the workers start before it answers). */
export interface NodeConfig {
  readonly node: RunNode;
  readonly config: ProvidedRunConfig;
}

/** Starts the checks of `nodes` with `sizing`'s workers. */
export function startExecution(plan: RunPlan, nodes: readonly NodeConfig[], sizing: RunSizing, io: EngineIo): Execution {
  const { options } = plan;
  if (nodes.some(({ node }) => node.inputs.files.length === 0)) throw new ConfigurationError("--skip leaves no suite file to run");
  const alone = "one" in plan.targets;
  const { workers } = sizing;
  const cancelRun = new AbortController();
  // Under the run's private directory, beside the nodes'.
  const folders: RunFolders | undefined = alone
    ? undefined
    : makeRunFolders(nodes.length, { parent: dirname(nodes[0]?.node.scratch ?? CODE_ROOT) });
  const phaseReporter = new PhaseReporter();

  const runs = nodes.map(({ node, config }, i) => {
    const { inputs } = node;
    const folder = folders?.folders[i];
    // A node's --concurrency, kept by all the workers together. A one-node run's workers have a slot of
    // their own each and share the others through memory, so that one may send up to all of them while
    // the others have less to send; with no more slots than workers, each has its share alone. A fleet's
    // node has no slot of its own on any worker: its files go to a few of the workers at a time, any of
    // them (shared-in-flight-limit.ts).
    const concurrency = alone ? sizing.concurrency : node.options.concurrency;
    const slots = alone ? sharedSlots(concurrency, workers) : workers > 1 ? concurrency : 0;
    const sharedInFlight = slots > 0;
    if (sharedInFlight) shareInFlightLimit(node.stateDir, slots, { ownSlot: alone });
    const perWorker = alone && !sharedInFlight ? concurrencyPerWorker(concurrency, workers) : concurrency;
    // One pace per node, which its declines lower and its answers raise, and one tally of its declines,
    // kept by every worker that runs a file of the node's (shared-rate-limit.ts, decline-tally.ts).
    const pace = shareRateLimit(node.stateDir, node.options.rateLimit);
    const declineTally = shareDeclineTally(node.stateDir, inputs.operations);
    const recordDir = node.options.record ? join(node.scratch, "exchanges") : undefined;
    const provided: ProvidedRunConfig = {
      ...config,
      concurrency: perWorker,
      ...(sharedInFlight ? { sharedInFlight } : {}),
      sharedRateLimit: true as const,
      ...(recordDir === undefined ? {} : { recordDir }),
      // A fleet node's info lines go to its console.txt.
      ...(alone ? {} : { infoFile: join(node.layout.dir, "console.txt") }),
      ...(folder === undefined ? {} : { workers }),
    };
    // A fleet node's checks are named in its reports as a one-node run names them (suites/…), relative to its folder.
    const reporter = new RequirementReporter({
      catalog: inputs.catalog,
      quiet: alone ? plan.reports.quiet : true,
      ...(alone ? { write: (text: string) => io.progress.print(text) } : {}),
      files: inputs.files,
      ...(folder === undefined ? {} : { root: folder }),
      ...(inputs.untestedReason === undefined ? {} : { untestedReason: inputs.untestedReason }),
    });
    const allureResults = inputs.allureOff ? undefined : join(node.scratch, "allure-results");
    // A one-node run lasts until its reports; a fleet node's, until its last file ended.
    const lastFile = alone ? undefined : new LastFileEnd();
    return { node, inputs, folder, provided, sharedInFlight, reporter, recordDir, allureResults, lastFile, pace, declineTally };
  });

  // A one-node run's Allure page starts loading when its first check starts: earlier it would take CPU
  // from the workers' start. A fleet's pages are made with its reports.
  let generator: AllureGenerator | undefined;
  const onlyRun = alone ? runs[0] : undefined;
  const startAllureAtFirstCheck: Reporter = {
    onTestCaseReady: () => {
      if (onlyRun?.allureResults !== undefined) generator ??= startAllureGenerator(onlyRun.node.scratch);
    },
  };
  const sharedInFlight = runs.some((r) => r.sharedInFlight);
  const run = (async () => {
    const reportersOf = new Map<string, Reporter[]>();
    for (const [i, r] of runs.entries())
      reportersOf.set(String(i), [
        r.reporter,
        ...(r.lastFile === undefined ? [] : [r.lastFile]),
        ...(r.allureResults === undefined ? [] : [await allureResultsReporter(r.allureResults, r.inputs.catalog)]),
      ]);
    const runOfFile = (file: string) => {
      if (folders === undefined) return "0";
      const folder = folders.folderOf(file);
      const i = runs.findIndex((r) => r.folder === folder);
      return i < 0 ? undefined : String(i);
    };
    const common = {
      requirementReporter: new ReporterPerRun(reportersOf, runOfFile),
      reporters: alone ? [io.progress, phaseReporter, startAllureAtFirstCheck] : [],
      testTimeoutMs: Math.max(
        60_000,
        ...runs.map((r) => checkTimeoutMs(r.node.options.timeoutMs, workersSharingSlots({ sharedInFlight, workers }))),
      ),
      maxDurationMs: options.maxDurationMs,
      maxWorkers: workers,
      maxConcurrency: Math.max(1, ...runs.map((r) => r.provided.concurrency ?? 1)),
      interrupt: AbortSignal.any([io.interrupt, cancelRun.signal]),
      onStop: (reason: string) => {
        for (const r of runs) r.reporter.stop(reason);
      },
    };
    if (folders === undefined) {
      const { provided, inputs } = onlyRun as (typeof runs)[number];
      return runSuites({
        ...common,
        config: provided,
        root: CODE_ROOT,
        // vitest takes an empty list for every file.
        files: inputs.files.length === inputs.allFiles.length ? [] : inputs.files,
        exclude: inputs.excluded,
      });
    }
    return runSuites({
      ...common,
      runsByFolder: Object.fromEntries(runs.map((r) => [r.folder as string, r.provided as RunConfig])),
      root: folders.dir,
      include: runs.flatMap((r) => r.inputs.files.map((file) => relative(folders.dir, join(r.folder as string, file)))),
      files: [],
    });
  })();
  // The run's end comes later; a failed start is reported where it is awaited.
  run.catch(() => undefined);

  return {
    ended: async () => {
      const result = await run;
      if (alone) {
        if (phaseReporter.firstCheckAt !== undefined) io.phases.end("workers", phaseReporter.firstCheckAt);
        if (phaseReporter.runEndAt !== undefined) io.phases.end("checks", phaseReporter.runEndAt);
        io.phases.end("vitestClose");
      }
      return new Map(
        runs.map((r) => [
          r.node.stateDir,
          {
            reporter: r.reporter,
            run: result,
            ...(r.recordDir === undefined ? {} : { recordDir: r.recordDir }),
            ...(r.allureResults === undefined
              ? {}
              : { allure: { resultsDir: r.allureResults, ...(alone && generator !== undefined ? { generator } : {}) } }),
            ...(r.lastFile === undefined ? {} : { endedAt: r.lastFile.at ?? performance.now() }),
            pace: r.pace,
            declineTally: r.declineTally,
          },
        ]),
      );
    },
    cancel: async (reason) => {
      cancelRun.abort(reason);
      await run.catch(() => undefined);
    },
    closing: async () => {
      const result = await run.catch(() => undefined);
      await result?.closing;
    },
    dispose: () => {
      generator?.dispose();
      // The folders go once vitest has closed.
      if (folders !== undefined)
        void run
          .then((r) => r.closing)
          .finally(() => folders.remove())
          .catch(() => undefined);
    },
  };
}

/** When a node's last file ended (performance.now()): a fleet node's run lasts until then. */
class LastFileEnd implements Reporter {
  at: number | undefined;

  onTestModuleEnd(): void {
    this.at = performance.now();
  }
}
