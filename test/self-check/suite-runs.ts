// Many conformance runs in one vitest instance: each run (a target, its profile, its fixtures, the
// suite files it needs, a baseline) is a vitest project with its own provided run configuration, so
// its workers' harness reaches its target alone, and its results go to a RequirementReporter of its
// own; every run's outcome is then made as the command makes it (baseline applied, exit status,
// summary.json). One process, one vite server and one transform of the suite for all the runs, where
// the command as a child process per run paid its start-up (tsx, vitest, the reporters) every time.
// The workers run the suites compiled, as the tests' command does (.test-dist, test-build.ts), and
// import the harness natively (nativeImports), not module by module from this process, which also
// serves the runs' nodes. The command itself, end to end, is what test/self-check/clean-node.test.ts runs.

import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { SerializedError } from "vitest";
import { createVitest, type Reporter, type TestCase, type TestModule, type TestRunEndReason } from "vitest/node";
import { applyBaseline, exitCode, parseBaseline } from "../../reporters/aggregate.ts";
import { RequirementReporter } from "../../reporters/requirement-reporter.ts";
import { buildSummary, type Summary } from "../../reporters/summary.ts";
import { parseConformanceArgs, type ConformanceArgs } from "../../src/cli/conformance-args.ts";
import { moduleCacheDir } from "../../src/cli/module-cache.ts";
import { nativeImports } from "../../src/cli/conformance-vitest.ts";
import { runConfigOf } from "../../src/cli/conformance-setup.ts";
import { selectionOf } from "../../src/cli/run-selection.ts";
import { checkTimeoutMs } from "../../src/harness/config.ts";
import type { Fixtures } from "../../src/harness/fixtures.ts";
import { ApiContract } from "../../src/harness/openapi.ts";
import { loadRequirementAliases } from "../../src/harness/requirement-aliases.ts";
import { loadRequirements } from "../../src/harness/requirements.ts";
import { ROOT } from "../support/conformance-command.ts";
import { TEST_BUILD } from "../support/test-build.ts";

export interface SuiteRun {
  /** Unique among the runs: the vitest project's name. */
  readonly name: string;
  /** Base URL including /v1. */
  readonly target: string;
  readonly fixtures: Fixtures;
  readonly profile: "node" | "aptos";
  /** Suite files relative to the root (test/self-check/suite-files.ts). */
  readonly files: readonly string[];
  /** An expected-failures file relative to the root, as `--baseline`. */
  readonly baseline?: string;
}

export interface SuiteRunResult {
  /** What the command would exit with. */
  readonly exitCode: number;
  readonly summary: Summary;
  /** From the first file of the run starting to its last ending (runs overlap). */
  readonly durationMs: number;
}

export interface SuiteRunOptions {
  /** A directory for the runs' state and bodies. */
  readonly scratch: string;
  /** Cap on the whole batch: the runs still going are cancelled (their checks end skipped, never passed). */
  readonly maxDurationMs: number;
}

/** A run's worker threads: one, which runs its files one after another (runSuitesAtOnce). */
const WORKERS_PER_RUN = 1;

/**
 * Runs every run's files against its target in one vitest instance, one worker at a time: with one
 * worker vitest gives a run's files to one worker thread, where more workers would start several for
 * the same run, each paying the harness's imports again (parallelism comes from several processes
 * each running a share: fault-runs.ts). Results by run name.
 */
export async function runSuitesAtOnce(runs: readonly SuiteRun[], options: SuiteRunOptions): Promise<Map<string, SuiteRunResult>> {
  const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));
  const aliases = loadRequirementAliases();
  const startedAt = new Date();
  const reporters = new Map<string, RequirementReporter>();
  const timings = new Map<string, { first: number; last: number }>();
  const projects = runs.map((run, i) => {
    const args = parseConformanceArgs(["--target", run.target, "--profile", run.profile, "--quiet", ...(run.baseline === undefined ? [] : ["--baseline", run.baseline])]) as ConformanceArgs;
    const stateDir = join(options.scratch, `run-${i}`, "state");
    mkdirSync(stateDir, { recursive: true });
    const selection = selectionOf(args, run.files, aliases);
    // One worker a run: the run's whole --concurrency is that worker's, as ledger-conformance.ts shares it.
    // Told its worker count, as runSuites tells its workers, a run keeps its ledger mark in memory.
    const config = { ...runConfigOf(args, { target: run.target, fixtures: run.fixtures }, { stateDir, bodiesDir: join(options.scratch, `run-${i}`, "bodies") }, selection), concurrency: args.concurrency, workers: WORKERS_PER_RUN };
    const compiledFiles = run.files.map(compiledSuiteFile);
    reporters.set(run.name, new RequirementReporter({ catalog, quiet: true, files: compiledFiles, untestedReason: "not among this run's files" }));
    const timeoutMs = Math.max(60_000, checkTimeoutMs(args.timeoutMs));
    return {
      test: {
        name: run.name,
        root: TEST_BUILD,
        include: compiledFiles,
        provide: { runConfig: config },
        // As the command runs them (src/cli/conformance-vitest.ts): threads, files sharing a worker's imports.
        pool: "threads" as const,
        isolate: false,
        server: { deps: { external: [nativeImports(TEST_BUILD)] } },
        maxWorkers: WORKERS_PER_RUN,
        // As the command runs them: the checks of a file concurrently, up to the run's --concurrency.
        sequence: { concurrent: true },
        maxConcurrency: args.concurrency,
        testTimeout: timeoutMs,
        hookTimeout: timeoutMs,
        teardownTimeout: 5_000,
      },
    };
  });
  const router = new ReporterPerProject(reporters, timings);
  const stop = () => {
    for (const reporter of reporters.values()) reporter.stop("the self-check's time cap was reached");
  };
  await runInstance(projects, router, options.maxDurationMs, stop);

  const results = new Map<string, SuiteRunResult>();
  for (const run of runs) {
    let outcome = (reporters.get(run.name) as RequirementReporter).finalize();
    if (run.baseline !== undefined) outcome = applyBaseline(outcome, parseBaseline(readFileSync(join(ROOT, run.baseline), "utf8"), run.baseline, aliases), run.baseline);
    const timing = timings.get(run.name);
    const durationMs = timing === undefined ? 0 : timing.last - timing.first;
    results.set(run.name, { exitCode: exitCode(outcome), summary: buildSummary(outcome, { target: run.target, startedAt, durationMs }), durationMs });
  }
  return results;
}

/** A suite file of the checkout (suites/x.test.ts) as the command compiled for the tests has it. */
function compiledSuiteFile(file: string): string {
  return file.replace(/\.ts$/, ".js");
}

/** One vitest instance over `projects`, one worker at a time, cancelled at the cap. */
async function runInstance(projects: readonly object[], reporter: Reporter, maxDurationMs: number, onCap: () => void): Promise<void> {
  const moduleCache = moduleCacheDir(TEST_BUILD);
  const vitest = await createVitest(
    "test",
    {
      config: false,
      root: TEST_BUILD,
      watch: false,
      run: true,
      passWithNoTests: true,
      maxWorkers: 1,
      projects: [...projects],
      reporters: [reporter],
      // As the command does (module-cache.ts): each project transforms the suite for its own worker, and
      // from the cache that is a read instead of ~0.25 s of vite's CPU a run.
      ...(moduleCache === undefined ? {} : { experimental: { fsModuleCache: true, fsModuleCachePath: moduleCache } }),
    },
    {},
    { stdout: new Writable({ write: (_chunk, _enc, done) => done() }) },
  );
  let cap: NodeJS.Timeout | undefined;
  try {
    const capped = new Promise<void>((resolve) => {
      cap = setTimeout(() => {
        onCap();
        void vitest.cancelCurrentRun("keyboard-input").finally(resolve);
      }, maxDurationMs);
    });
    await Promise.race([vitest.start(), capped]);
  } finally {
    clearTimeout(cap);
    await Promise.race([vitest.close(), new Promise((resolve) => setTimeout(resolve, 15_000).unref())]);
  }
}

/** Hands every event to the reporter of the run (project) it belongs to. */
class ReporterPerProject implements Reporter {
  constructor(
    private readonly reporters: ReadonlyMap<string, RequirementReporter>,
    private readonly timings: Map<string, { first: number; last: number }>,
  ) {}

  #of(project: { readonly name: string }): RequirementReporter {
    const reporter = this.reporters.get(project.name);
    if (reporter === undefined) throw new Error(`no run named ${project.name}`);
    return reporter;
  }

  #mark(project: { readonly name: string }): void {
    const now = performance.now();
    const timing = this.timings.get(project.name);
    if (timing === undefined) this.timings.set(project.name, { first: now, last: now });
    else timing.last = now;
  }

  onTestModuleQueued(testModule: TestModule): void {
    this.#of(testModule.project).onTestModuleQueued(testModule);
  }

  onTestModuleCollected(testModule: TestModule): void {
    this.#mark(testModule.project);
    this.#of(testModule.project).onTestModuleCollected(testModule);
  }

  onTestCaseResult(testCase: TestCase): void {
    this.#of(testCase.project).onTestCaseResult(testCase);
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.#mark(testModule.project);
    this.#of(testModule.project).onTestModuleEnd(testModule);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    // Each instance ends its own runs; an unhandled error belongs to no run in particular, so every run
    // of that instance reports it (a run error, never a pass).
    const names = new Set(testModules.map((m) => m.project.name));
    for (const name of names) this.#of({ name }).onTestRunEnd(testModules.filter((m) => m.project.name === name), unhandledErrors, reason);
  }
}
