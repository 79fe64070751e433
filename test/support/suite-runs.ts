// Many conformance runs in one vitest instance: each run (a target, its profile, its fixtures, the
// suite files it needs, a baseline) gets a folder of its own holding a copy of the compiled suite files
// (src/run/run-folders.ts, as a fleet's nodes do), and its run configuration is provided under that
// folder (runsByFolder, src/harness/config.ts); its results go to a RequirementReporter of its own
// (src/run/reporter-per-run.ts); every run's outcome is then made as the command makes
// it (baseline applied, exit status, summary.json). One process, one vite server, and one worker thread
// for all the runs: the harness, the codec and their packages load once, where a worker per run (a
// vitest project each, which vitest never shares a worker between) loaded them again for every run,
// about 0.8 CPU-s each. The workers run the suites compiled, as the tests' command does (.test-dist,
// test-build.ts), and import the harness natively (nativeImports), not module by module from this
// process, which also serves the runs' nodes. The command itself, end to end, is what
// test/self-check/clean-node.test.ts runs.

import { mkdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { Writable } from "node:stream";
import { createVitest, type Reporter, type TestModule } from "vitest/node";
import type { RunConfig } from "../../src/harness/config.ts";
import { parseBaselineEntries } from "../../src/outcome/baseline-list.ts";
import { applyBaseline } from "../../src/outcome/apply-baseline.ts";
import { exitCode } from "../../src/outcome/exit-code.ts";
import { verdictOf } from "../../src/outcome/verdict.ts";
import { RequirementReporter } from "../../src/run/requirement-reporter.ts";
import { buildSummary, type Summary } from "../../reporters/summary.ts";
import { parseConformanceArgs, type ConformanceArgs } from "../../src/cli/args.ts";
import { nativeImports } from "../../src/run/vitest-run.ts";
import { ReporterPerRun } from "../../src/run/reporter-per-run.ts";
import { makeRunFolders } from "../../src/run/run-folders.ts";
import { runConfigOf } from "../../src/run/run-config.ts";
import { selectionOf } from "../../src/run/selection.ts";
import { checkTimeoutMs } from "../../src/harness/config.ts";
import type { Fixtures } from "../../src/harness/fixtures.ts";
import { ApiContract } from "../../src/harness/openapi.ts";
import { loadRequirementAliases } from "../../src/harness/requirement-aliases.ts";
import { loadRequirements } from "../../src/harness/requirements.ts";
import { CatchingChecks, type CatchingCheck } from "./catching-checks.ts";
import { ROOT } from "./conformance-command.ts";
import { TEST_BUILD } from "./test-build.ts";

export interface SuiteRun {
  /** Unique among the runs. */
  readonly name: string;
  /** Base URL including /v1. */
  readonly target: string;
  readonly fixtures: Fixtures;
  readonly profile: "node" | "aptos";
  /** Suite files relative to the root (test/self-check/suite-files.ts). */
  readonly files: readonly string[];
  /** An expected-failures file relative to the root, as `--baseline`. */
  readonly baseline?: string;
  /** More of the command's flags, as given to it (--only, --seed, --clock-tolerance …). */
  readonly extraArgs?: readonly string[];
}

export interface SuiteRunResult {
  /** What the command would exit with. */
  readonly exitCode: number;
  readonly summary: Summary;
  /** Its files' time in the worker, from each one's start to its end (the runs' files take turns). */
  readonly durationMs: number;
  /** The checks that failed a requirement, each with the requirement. */
  readonly catching: readonly CatchingCheck[];
}

export interface SuiteRunOptions {
  /** A directory for the runs' state and bodies. */
  readonly scratch: string;
  /** Cap on the whole batch: the runs still going are cancelled (their checks end skipped, never passed). */
  readonly maxDurationMs: number;
}

/**
 * Runs every run's files against its target in one vitest instance and one worker thread, which runs
 * the files one after another, each with its run's harness (parallelism comes from several processes
 * each running a share: fault-runs.ts). Results by run name.
 */
export async function runSuitesAtOnce(runs: readonly SuiteRun[], options: SuiteRunOptions): Promise<Map<string, SuiteRunResult>> {
  // As a run without --load reports: without the laws under load (src/run/run-inputs.ts).
  const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id)).without("load");
  const aliases = loadRequirementAliases();
  const startedAt = new Date();
  const reporters = new Map<string, RequirementReporter>();
  const reportersByRun = new Map<string, Reporter[]>();
  const timings = new Map<string, number>();
  const catching = new Map<string, CatchingChecks>();
  const runsByFolder: Record<string, RunConfig> = {};
  const runOfFolder = new Map<string, string>();
  const include: string[] = [];
  const parsed = runs.map(
    (run) =>
      parseConformanceArgs([
        "--target",
        run.target,
        "--profile",
        run.profile,
        "--quiet",
        ...(run.baseline === undefined ? [] : ["--baseline", run.baseline]),
        ...(run.extraArgs ?? []),
      ]) as ConformanceArgs,
  );
  // Inside the build, so that the copies' support modules load natively as the build's own do (nativeImports).
  const copies = makeRunFolders(runs.length, { parent: TEST_BUILD, codeRoot: TEST_BUILD });
  try {
    runs.forEach((run, i) => {
      const args = parsed[i] as ConformanceArgs;
      const folder = copies.folders[i] as string;
      const stateDir = join(options.scratch, `run-${i}`, "state");
      mkdirSync(stateDir, { recursive: true });
      const selection = selectionOf(args, run.files, aliases);
      // The run's whole --concurrency is the worker's, as src/run/one-node-run.ts shares it among workers.
      // Told it has one worker, as runSuites tells its workers, a run keeps its ledger mark to itself.
      runsByFolder[folder] = {
        ...runConfigOf(
          args,
          { target: run.target, fixtures: run.fixtures },
          { stateDir, bodiesDir: join(options.scratch, `run-${i}`, "bodies") },
          selection,
        ),
        concurrency: args.concurrency,
        workers: 1,
      };
      runOfFolder.set(folder, run.name);
      const files = run.files.map((file) => relative(TEST_BUILD, join(folder, compiledSuiteFile(file))));
      include.push(...files);
      const reporter = new RequirementReporter({ catalog, quiet: true, files, untestedReason: "not among this run's files" });
      reporters.set(run.name, reporter);
      const caught = new CatchingChecks((moduleId) => relative(folder, moduleId).split(sep).join("/").replace(/\.js$/, ".ts"));
      catching.set(run.name, caught);
      reportersByRun.set(run.name, [reporter, caught, new FileTimes((ms) => timings.set(run.name, (timings.get(run.name) ?? 0) + ms))]);
    });
    // One worker for every run, so one value each: the largest of the runs' (the command's defaults, unless a run's flags set them).
    const concurrency = Math.max(...parsed.map((args) => args.concurrency));
    const timeoutMs = Math.max(60_000, ...parsed.map((args) => checkTimeoutMs(args.timeoutMs)));
    const project = {
      test: {
        name: "runs",
        root: TEST_BUILD,
        include,
        provide: { runsByFolder },
        // As the command runs them (src/run/vitest-run.ts): threads, files sharing a worker's imports.
        pool: "threads" as const,
        isolate: false,
        server: { deps: { external: [nativeImports(TEST_BUILD)] } },
        maxWorkers: 1,
        // As the command runs them: the checks of a file concurrently, up to the run's --concurrency.
        sequence: { concurrent: true },
        maxConcurrency: concurrency,
        testTimeout: timeoutMs,
        hookTimeout: timeoutMs,
        teardownTimeout: 5_000,
      },
    };
    const router = new ReporterPerRun(reportersByRun, (file) => {
      const folder = copies.folderOf(file);
      return folder === undefined ? undefined : runOfFolder.get(folder);
    });
    const stop = () => {
      for (const reporter of reporters.values()) reporter.stop("the runs' time cap was reached");
    };
    await runInstance([project], router, options.maxDurationMs, stop);
  } finally {
    copies.remove();
  }

  const results = new Map<string, SuiteRunResult>();
  for (const run of runs) {
    let outcome = (reporters.get(run.name) as RequirementReporter).finalize();
    if (run.baseline !== undefined)
      outcome = applyBaseline(
        outcome,
        parseBaselineEntries(readFileSync(join(ROOT, run.baseline), "utf8"), run.baseline, aliases),
        run.baseline,
      );
    const durationMs = timings.get(run.name) ?? 0;
    results.set(run.name, {
      exitCode: exitCode(outcome),
      summary: buildSummary(outcome, { verdict: verdictOf(outcome), target: run.target, startedAt, durationMs }),
      durationMs,
      catching: catching.get(run.name)?.found ?? [],
    });
  }
  return results;
}

/** A suite file of the checkout (suites/x.test.ts) as the command compiled for the tests has it. */
function compiledSuiteFile(file: string): string {
  return file.replace(/\.ts$/, ".js");
}

/** One vitest instance over `projects`, one worker at a time, cancelled at the cap. */
async function runInstance(projects: readonly object[], reporter: Reporter, maxDurationMs: number, onCap: () => void): Promise<void> {
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
      // No transform cache on disk (the command's, src/run/module-cache.ts): what vite transforms here are the
      // runs' copies of the suite, at paths made anew for every batch, whose entries would only pile up.
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

/** Adds up the time of a run's files in the worker, each from its start to its end. */
class FileTimes implements Reporter {
  readonly #started = new Map<TestModule, number>();

  constructor(private readonly add: (ms: number) => void) {}

  onTestModuleStart(testModule: TestModule): void {
    this.#started.set(testModule, performance.now());
  }

  onTestModuleEnd(testModule: TestModule): void {
    const started = this.#started.get(testModule);
    if (started !== undefined) this.add(performance.now() - started);
  }
}
