// The fault self-check's runs: a faulty node per (fault, profile) on its own loopback port, and the
// suite files that hold the fault's declared requirements (suite-files.ts) run against each.
//
// The runs are split into a few shares of about equal weight, each in a child process of its own
// (fault-runs-command.ts), which starts its share's nodes and runs its share's files in one vitest
// instance (suite-runs.ts): a process serves its nodes and its workers' module requests from one
// event loop, so one process for all the runs would keep one core busy and leave the other waiting.
//
// The nodes are HTTP faces over ledgers (src/node/index.ts openFace): a fault lives in its face (an
// engine wrapper and hooks), so faces whose runs only read share one ledger and one genesis. A run that
// submits transactions (its files include a submission suite) gets a ledger of its own, so that no
// other run's submissions move the sequence numbers under it.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiContract } from "../../src/harness/openapi.ts";
import { loadRequirements } from "../../src/harness/requirements.ts";
import { openFace, startLedger, type RunningFace, type RunningLedger } from "../../src/node/index.ts";
import { ROOT } from "../support/conformance-command.ts";
import { suiteFilesFor } from "./suite-files.ts";
import { runSuitesAtOnce, type SuiteRunResult } from "./suite-runs.ts";

export interface FaultRun {
  readonly fault: string;
  readonly profile: "node" | "aptos";
  /** The fault's declared requirements this run must show failed. */
  readonly proves: readonly string[];
  readonly baseline?: string;
}

export interface FaultRunOutcome extends SuiteRunResult {
  readonly run: FaultRun;
  /** The suite files the run ran. */
  readonly files: readonly string[];
}

/** Child processes at once: on 2 cores three finish sooner than two (a run waits on its node as much as it computes). */
export const FAULT_RUN_PROCESSES = 3;
/** A bound on a share's runs; all of them take about a minute on an idle 2-core machine. */
export const FAULT_RUNS_MAX_MS = 900_000;

/**
 * The self-check's ledgers keep 10,000 versions (genesis 15,000) instead of 1,000 (2,000): they are all
 * started when their process starts, and a run may begin minutes later, when a default ledger (two
 * versions a second) would have pruned the fixtures' known changes (history.*), which the checks of
 * reads at a ledger version need to tell a past version from the latest (the fault
 * past-versions-read-latest went uncaught). Versions below the oldest still exist to be refused as
 * pruned.
 */
const SELF_CHECK_LEDGER = { pruneWindow: 10_000, genesisVersions: 15_000 } as const;

/** Files that submit transactions: a run with any of them gets a ledger of its own. */
const SUBMITS = /submit|submission/;

export const runName = (run: FaultRun): string => `${run.fault} (${run.profile} profile)`;

/** Every run of `runs`, in FAULT_RUN_PROCESSES child processes; outcomes in the order of `runs`. */
export async function runFaultsInProcesses(runs: readonly FaultRun[], processes = FAULT_RUN_PROCESSES): Promise<FaultRunOutcome[]> {
  const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));
  const weighted = runs.map((run) => ({ run, weight: suiteFilesFor(run.proves, catalog).length }));
  const scratch = mkdtempSync(join(tmpdir(), "fault-runs-"));
  try {
    const outcomes = await Promise.all(shares(weighted, processes).map((share, i) => runInChild(share.map((w) => w.run), join(scratch, `share-${i}`))));
    const byName = new Map(outcomes.flat().map((outcome) => [runName(outcome.run), outcome]));
    return runs.map((run) => byName.get(runName(run)) as FaultRunOutcome);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `count` shares of about equal weight: the heaviest first, each to the lightest share so far. */
function shares<T extends { readonly weight: number }>(items: readonly T[], count: number): T[][] {
  const result = Array.from({ length: Math.max(1, count) }, () => ({ weight: 0, items: [] as T[] }));
  for (const item of [...items].sort((a, b) => b.weight - a.weight)) {
    const lightest = result.reduce((least, share) => (share.weight < least.weight ? share : least));
    lightest.items.push(item);
    lightest.weight += item.weight;
  }
  return result.map((share) => share.items).filter((items) => items.length > 0);
}

async function runInChild(runs: readonly FaultRun[], prefix: string): Promise<FaultRunOutcome[]> {
  const planFile = `${prefix}-plan.json`;
  const resultsFile = `${prefix}-results.json`;
  writeFileSync(planFile, JSON.stringify(runs));
  const child = spawn(process.execPath, ["test/self-check/fault-runs-command.mjs", planFile, resultsFile], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-8000)));
  const timer = setTimeout(() => child.kill("SIGKILL"), FAULT_RUNS_MAX_MS + 60_000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  clearTimeout(timer);
  if (code !== 0) throw new Error(`the fault runs of ${runs.map(runName).join(", ")} exited ${code}\n${stderr}`);
  return JSON.parse(readFileSync(resultsFile, "utf8")) as FaultRunOutcome[];
}

/** Every run of `runs` in this process, in one vitest instance (what a child of runFaultsInProcesses does). */
export async function runFaults(runs: readonly FaultRun[]): Promise<FaultRunOutcome[]> {
  const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));
  const scratch = mkdtempSync(join(tmpdir(), "fault-runs-"));
  const ledgers: RunningLedger[] = [];
  const faces: RunningFace[] = [];
  const newLedger = () => {
    const ledger = startLedger(SELF_CHECK_LEDGER);
    ledgers.push(ledger);
    return ledger;
  };
  try {
    let shared: RunningLedger | undefined;
    const planned = [];
    for (const run of runs) {
      const files = suiteFilesFor(run.proves, catalog);
      const ledger = files.some((file) => SUBMITS.test(file)) ? newLedger() : (shared ??= newLedger());
      // Faults that make 500s would fill the output with stack traces: the 500 itself is the point.
      const face = await openFace(ledger, { profile: run.profile, faults: [run.fault], onInternalError: () => undefined });
      faces.push(face);
      planned.push({ run, files, target: face.url, fixtures: ledger.fixtures });
    }
    const results = await runSuitesAtOnce(
      planned.map(({ run, files, target, fixtures }) => ({
        name: runName(run),
        target,
        fixtures,
        profile: run.profile,
        files,
        ...(run.baseline === undefined ? {} : { baseline: run.baseline }),
      })),
      { scratch, maxDurationMs: FAULT_RUNS_MAX_MS },
    );
    return planned.map(({ run, files }) => ({ run, files, ...(results.get(runName(run)) as SuiteRunResult) }));
  } finally {
    await Promise.all(faces.map((face) => face.close()));
    for (const ledger of ledgers) ledger.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
