// Many conformance runs at once, through the command's own engine: the runs are the nodes of one
// fleet plan (src/run/run-plan.ts), each with the options and inputs its own flags give it (its
// profile, its files, its baseline, its --only or --seed), run by runPlan (src/run/engine.ts) on one
// worker thread, as `ledger-conformance --targets` runs a fleet: each node probed, its checks run from a
// folder of its own, its outcome settled and its reports written. What a test reads of a run is what
// the command wrote: its summary.json and exit status, and the checks its outcome names as failing a
// requirement. The engine is the compiled command's (TEST_BUILD, test-build.ts), whose workers import
// the harness natively; one worker for all the runs, so the harness and its packages load once.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Summary } from "../../reporters/summary.ts";
import type { ConformanceArgs } from "../../src/cli/args.ts";
import type { Fixtures } from "../../src/harness/fixtures.ts";
import type { RunOutcome } from "../../src/outcome/run-outcome.ts";
import type { FleetNodePlan, RunPlan } from "../../src/run/run-plan.ts";
import { ROOT, TEST_BUILD } from "./test-build.ts";

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
  /** The command's exit status for the run. */
  readonly exitCode: number;
  /** Its summary.json. */
  readonly summary: Summary;
  /** From the batch's start until the run's last file ended. */
  readonly durationMs: number;
  /** The checks that failed a requirement, each with the requirement. */
  readonly catching: readonly CatchingCheck[];
  /** Where the command wrote the run's reports (and, under --record, its exchanges.jsonl). */
  readonly reportDir: string;
}

/** A check that failed a requirement: what the fault self-check records (test/self-check/fault-matrix.json). */
export interface CatchingCheck {
  /** The suite file, relative to the root (suites/x.test.ts). */
  readonly file: string;
  /** The check's name, `${id}: ${text}`, as `--only` matches it. */
  readonly name: string;
  /** A requirement the check's results failed. */
  readonly requirement: string;
}

export interface SuiteRunOptions {
  /** A directory for the runs' fixtures and reports (the reports stay there for the caller to read). */
  readonly scratch: string;
  /** Cap on the whole batch: the runs still going are cancelled (their checks end skipped, never passed). */
  readonly maxDurationMs: number;
}

/** A module of the compiled command. */
function compiled<T>(path: string): Promise<T> {
  return import(pathToFileURL(join(TEST_BUILD, path)).href) as Promise<T>;
}

/** Runs every run's files against its target through the engine, as one fleet. Results by run name. */
export async function runSuitesAtOnce(runs: readonly SuiteRun[], options: SuiteRunOptions): Promise<Map<string, SuiteRunResult>> {
  const [{ runPlan }, { runPlanOf }, { parseConformanceArgs }, { PhaseClock }] = await Promise.all([
    compiled<typeof import("../../src/run/engine.ts")>("src/run/engine.js"),
    compiled<typeof import("../../src/cli/run-plan-of.ts")>("src/cli/run-plan-of.js"),
    compiled<typeof import("../../src/cli/args.ts")>("src/cli/args.js"),
    compiled<typeof import("../../src/run/phases.ts")>("src/run/phases.js"),
  ]);
  const plans = runs.map((run, i) => {
    const fixtures = join(options.scratch, `fixtures-${i + 1}.json`);
    writeFileSync(fixtures, JSON.stringify(run.fixtures));
    const args = parseConformanceArgs([
      "--target",
      run.target,
      "--profile",
      run.profile,
      "--fixtures",
      fixtures,
      "--quiet",
      ...(run.baseline === undefined ? [] : ["--baseline", join(ROOT, run.baseline)]),
      ...(run.extraArgs ?? []),
    ]) as ConformanceArgs;
    return runPlanOf(args);
  });
  const nodes: FleetNodePlan[] = runs.map((run, i) => {
    const own = plans[i] as RunPlan;
    const { one } = own.targets as { readonly one: { readonly fixtures?: string } };
    return {
      name: `run-${i + 1}`,
      target: run.target,
      profile: run.profile,
      ...(one.fixtures === undefined ? {} : { fixtures: one.fixtures }),
      own: {
        options: own.options,
        // The run's own files (the compiled build's), and no Allure page: no one opens it.
        inputs: { ...own.inputs, files: run.files.map(compiledSuiteFile), untestedReason: "not among this run's files", allureOff: true },
      },
    };
  });
  const first = plans[0];
  if (first === undefined) return new Map();
  const plan: RunPlan = {
    targets: { fleet: nodes },
    // One worker for every run; each keeps its own --concurrency within it.
    options: { ...first.options, workers: 1, maxDurationMs: options.maxDurationMs },
    reports: { dir: join(options.scratch, "reports"), junitPerCheck: false, quiet: true, console: false },
    inputs: first.inputs,
  };
  const result = await runPlan(plan, {
    say: () => undefined,
    progress: { print: () => undefined },
    interrupt: new AbortController().signal,
    startedAt: new Date(),
    t0: performance.now(),
    phases: new PhaseClock(),
  });
  const results = new Map<string, SuiteRunResult>();
  runs.forEach((run, i) => {
    const node = result.nodes[i];
    if (node === undefined) throw new Error(`no result for ${run.name}`);
    const summary = JSON.parse(readFileSync(join(node.reportDir, "summary.json"), "utf8")) as Summary;
    results.set(run.name, {
      exitCode: node.exitCode,
      summary,
      durationMs: summary.durationMs,
      catching: catchingChecks(node.outcome),
      reportDir: node.reportDir,
    });
  });
  return results;
}

/** A suite file of the checkout (suites/x.test.ts) as the compiled command has it. */
function compiledSuiteFile(file: string): string {
  return file.replace(/\.ts$/, ".js");
}

/**
 * Which checks failed which requirements: every failed result a check recorded (its own, or a
 * cross-cutting rule's judged on a response it received), and a check that did not finish failing its
 * own requirement, as the run's outcome holds them; named as the checkout names the file.
 */
function catchingChecks(outcome: RunOutcome): CatchingCheck[] {
  return outcome.requirements.flatMap((r) =>
    r.evidence
      .filter((e) => e.result.status === "failed")
      .map((e) => ({ file: e.file.replace(/\.js$/, ".ts"), name: e.test, requirement: r.requirement.id })),
  );
}
