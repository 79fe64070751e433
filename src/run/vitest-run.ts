// Runs the suites with vitest's Node API and an inline configuration (the project's vitest.config.ts
// is for the self-tests and is not loaded): suites/ and properties/, worker threads, and the run's
// reporters (the engine's: execute.ts; junit.xml is written by the command from the requirement reporter). A
// hard cap, or an interrupt (a signal to the command), cancels the run, and closing vitest is itself
// time-limited, so the command always gets to write its reports.

import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { Reporter } from "vitest/node";
import type { ProvidedRunConfig, RunConfig } from "../harness/config.ts";
import { shareLedgerTracker } from "../harness/ledger-tracker.ts";
import { shareSequenceBook } from "../harness/sequence-book.ts";
import type { RequirementCatalog } from "../harness/requirements.ts";
import { CODE_ROOT, COMPILED, SUITE_FILE_SUFFIX } from "../package-root.ts";
import { moduleCacheDir } from "./module-cache.ts";

/**
 * vitest's Node API and the Allure reporter (which loads vitest too): the largest share of the command's
 * loading, started by preloadSuiteRunner while the embedded node starts on its thread, awaited by runSuites.
 */
let vitestNode: Promise<typeof import("vitest/node")> | undefined;
let allureWriter: Promise<typeof import("../../reporters/allure-results-writer.ts")> | undefined;
const loadVitestNode = () => (vitestNode ??= import("vitest/node"));
const loadAllureWriter = () => (allureWriter ??= import("../../reporters/allure-results-writer.ts"));

/** Starts loading what runSuites will need: the Allure reporter only for a run that makes the Allure page. */
export function preloadSuiteRunner(options: { readonly allure: boolean }): void {
  // A failed load is reported where runSuites awaits it.
  loadVitestNode().catch(() => undefined);
  if (options.allure) loadAllureWriter().catch(() => undefined);
}

/** The reporter that writes a run's results for its Allure page, labelled by the catalog (loaded once, preloaded by preloadSuiteRunner). */
export async function allureResultsReporter(resultsDir: string, catalog: RequirementCatalog): Promise<Reporter> {
  return new (await loadAllureWriter()).AllureResultsReporter(resultsDir, catalog);
}

/** The suite and property files under the code root: the .ts sources, or their compiled .js in dist/. */
export const SUITE_GLOBS = [`suites/**/*${SUITE_FILE_SUFFIX}`, `properties/**/*${SUITE_FILE_SUFFIX}`];

/**
 * What the workers' harness reads. One run: its configuration, provided as "runConfig"; without the
 * target's facts when the command hands them over later (target-handoff.ts): then the run's setup file
 * has each worker wait for them before a file's checks. Several runs (a fleet's nodes): each one's
 * whole configuration under the folder that holds its copy of the suites (src/run/run-folders.ts), provided as
 * "runsByFolder"; the configurations give their workers' count themselves.
 */
export type ProvidedRuns = { readonly config: ProvidedRunConfig } | { readonly runsByFolder: Readonly<Record<string, RunConfig>> };

export type SuiteRunInput = ProvidedRuns & {
  /** The code root (CODE_ROOT), or the directory of the runs' folders. */
  readonly root: string;
  /** Globs or paths of the suite files under root (default SUITE_GLOBS). */
  readonly include?: readonly string[];
  /** File filters (substrings of paths); empty: every file. */
  readonly files: readonly string[];
  /** Paths under root never loaded, whatever the filters (a mode's files the run did not ask for). */
  readonly exclude?: readonly string[];
  readonly testNamePattern?: RegExp;
  readonly requirementReporter: Reporter;
  /** More reporters of the run in the command's process: the progress line, the phase clock's. */
  readonly reporters?: readonly Reporter[];
  /** vitest's own test timeout; checks set their own below it. */
  readonly testTimeoutMs: number;
  readonly maxDurationMs: number;
  /** Worker threads (src/run/workers.ts); default vitest's. */
  readonly maxWorkers?: number;
  /** Checks of a file run at once in a worker (its share of --concurrency, or all of it when the workers share it); default 1, one by one. */
  readonly maxConcurrency?: number;
  /** Aborted when the command is told to stop (SIGTERM, SIGINT): the run is cancelled like at the cap. */
  readonly interrupt?: AbortSignal;
  /** Called with the reason ("max duration reached", …) just before the run is cancelled. */
  readonly onStop?: (reason: string) => void;
};

/**
 * What a worker imports natively instead of through vite's module runner: the compiled harness, codec,
 * reporters and suite support modules under `root` (plain JavaScript: every .js file but the suite files,
 * which vitest's runner must collect itself). Inlined, each of their ~150 modules is fetched from the
 * main thread one round trip at a time: about a second of a worker's start, most of it waiting. Only for
 * compiled suites: a checkout's .ts sources need vite's transform (the workers run no TypeScript loader).
 */
export function nativeImports(root: string): RegExp {
  const under = root
    .replace(/\\/g, "/")
    .replace(/\/$/, "")
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${under}/(?!.*\\.test\\.js$).*\\.js$`);
}

/** The setup file of a run whose target's facts come later: the running code's own (.ts, or .js in dist/). */
const TARGET_HANDOFF_SETUP = fileURLToPath(new URL(`../harness/target-handoff-setup${COMPILED ? ".js" : ".ts"}`, import.meta.url));

/** The reason a run cut short by --max-duration gives every check that did not run. */
export const MAX_DURATION_REACHED = "max duration reached";

export interface SuiteRunResult {
  /** The hard cap fired and the run was cancelled. */
  readonly capped: boolean;
  /** The interrupt fired and the run was cancelled. */
  readonly interrupted: boolean;
  /**
   * Settles when vitest has closed, or its time to close ran out (workers left behind; the command
   * exits anyway). The run's results are complete before: the caller writes its reports meanwhile.
   */
  readonly closing: Promise<void>;
}

const CLOSE_GRACE_MS = 15_000;
/** After a signal the caller's own time limit is near: a short wait for checks in flight, then the reports. */
const INTERRUPT_GRACE_MS = 3_000;

export async function runSuites(input: SuiteRunInput): Promise<SuiteRunResult> {
  const signals = ["SIGINT", "SIGTERM"] as const;
  const ownListeners = new Map(signals.map((s) => [s, process.listeners(s)]));
  // vitest's logger exits the process 1 ms after SIGINT or SIGTERM; the command handles those itself
  // (stop the run, write the reports, then exit), so vitest's listeners are taken off again, at once:
  // createVitest adds them synchronously, before its first await, so no signal can reach them.
  const dropVitestSignalListeners = () => {
    for (const s of signals) {
      for (const listener of process.listeners(s)) if (!ownListeners.get(s)?.includes(listener)) process.off(s, listener);
    }
  };
  const { createVitest } = await loadVitestNode();
  const { LongestSuitesFirst } = await import("./suite-order.ts");
  // Not for several runs' folders: those are made anew for every run, and their entries would only pile up.
  const cacheDir = "config" in input ? moduleCacheDir(input.root) : undefined;
  // The workers' count goes with the configuration they read: one worker keeps its ledger mark to itself.
  const provide =
    "config" in input
      ? { runConfig: input.maxWorkers === undefined ? input.config : { ...input.config, workers: input.maxWorkers } }
      : { runsByFolder: input.runsByFolder };
  // Each run's ledger mark and senders' sequence numbers, in memory its workers share: made before any of
  // them starts (ledger-tracker.ts, sequence-book.ts).
  for (const config of "config" in input ? [input.config] : Object.values(input.runsByFolder)) {
    if (config.stateDir === undefined) continue;
    shareLedgerTracker(config.stateDir);
    shareSequenceBook(config.stateDir);
  }
  const creating = createVitest(
    "test",
    {
      config: false,
      root: input.root,
      include: [...(input.include ?? SUITE_GLOBS)],
      // vitest's default exclude (node_modules, .git…) lies outside the include globs anyway.
      exclude: [...(input.exclude ?? [])],
      watch: false,
      run: true,
      passWithNoTests: true,
      provide,
      ...("config" in input && "awaitsTarget" in input.config ? { setupFiles: [TARGET_HANDOFF_SETUP] } : {}),
      // Threads (forks measured the same) without per-file isolation: importing the harness, codec and
      // validators takes ~0.7 s per file when every file re-imports them; shared, a worker pays it once
      // and its HTTP client, compiled contract and ledger mark serve every file it runs.
      pool: "threads",
      // The transformed harness and suites, kept between runs (src/run/module-cache.ts).
      ...(cacheDir === undefined ? {} : { experimental: { fsModuleCache: true, fsModuleCachePath: cacheDir } }),
      isolate: false,
      // The running code's modules, which several runs' folders link to (their copies of the suites are inlined).
      ...(COMPILED ? { server: { deps: { external: [nativeImports(CODE_ROOT)] } } } : {}),
      ...(input.maxWorkers === undefined ? {} : { maxWorkers: input.maxWorkers }),
      // Checks are independent unless their file says otherwise (describeEndpoint's inOrder):
      // concurrent, they keep both the target and the worker busy instead of waiting on each other.
      sequence: {
        sequencer: LongestSuitesFirst,
        ...(input.maxConcurrency === undefined || input.maxConcurrency <= 1 ? {} : { concurrent: true }),
      },
      ...(input.maxConcurrency === undefined || input.maxConcurrency <= 1 ? {} : { maxConcurrency: input.maxConcurrency }),
      testTimeout: input.testTimeoutMs,
      hookTimeout: input.testTimeoutMs,
      teardownTimeout: 5_000,
      ...(input.testNamePattern === undefined ? {} : { testNamePattern: input.testNamePattern }),
      reporters: [...(input.reporters ?? []), input.requirementReporter],
    },
    {},
    // vitest's own stdout (the JUnit reporter's "report written" line, banners) is not ours to print;
    // its errors go to stderr, which is kept.
    { stdout: new Writable({ write: (_chunk, _enc, done) => done() }) },
  );
  dropVitestSignalListeners();
  const vitest = await creating;
  dropVitestSignalListeners();
  let capped = false;
  let interrupted = false;
  let cap: NodeJS.Timeout | undefined;
  let onInterrupt: (() => void) | undefined;
  // Resolves once the cap (or the interrupt) has fired and the cancelled run had a grace period to wind down.
  const stopReached = new Promise<"stopped">((resolve) => {
    const stop = (reason: string, graceMs: number) => {
      clearTimeout(cap);
      input.onStop?.(reason);
      void vitest.cancelCurrentRun("keyboard-input");
      setTimeout(() => resolve("stopped"), graceMs).unref();
    };
    cap = setTimeout(() => {
      capped = true;
      stop(MAX_DURATION_REACHED, CLOSE_GRACE_MS);
    }, input.maxDurationMs);
    onInterrupt = () => {
      if (capped) return;
      interrupted = true;
      stop(String(input.interrupt?.reason ?? "interrupted"), INTERRUPT_GRACE_MS);
    };
    if (input.interrupt?.aborted) onInterrupt();
    else input.interrupt?.addEventListener("abort", onInterrupt, { once: true });
  });
  const run = vitest.start([...input.files]).then(
    () => "done" as const,
    (e: unknown) => {
      // No files matching the filters is not an error here: the report shows everything untested.
      if ((e as { code?: string }).code !== "VITEST_FILES_NOT_FOUND") throw e;
      return "done" as const;
    },
  );
  const ended = await Promise.race([run, stopReached]);
  clearTimeout(cap);
  if (onInterrupt) input.interrupt?.removeEventListener("abort", onInterrupt);
  if (ended === "stopped") return { capped, interrupted, closing: Promise.resolve() };
  // vitest closes (its workers, its server: ~0.2-0.3 s) while the command writes its reports.
  const closing = Promise.race([
    vitest.close(),
    new Promise<void>((r) => setTimeout(r, interrupted ? INTERRUPT_GRACE_MS : CLOSE_GRACE_MS).unref()),
  ]).catch(() => undefined);
  return { capped, interrupted, closing };
}
