// The fault self-check's runs: a faulty node per (fault, profile) on its own loopback port, and the
// suite files that hold the fault's declared requirements (suite-files.ts) run against each.
//
// The runs are split into a few shares of about equal weight, each in a child process of its own
// (fault-runs-command.ts), which starts its share's nodes and runs its share's files in one vitest
// instance and one worker (test/support/suite-runs.ts): a process serves its nodes and its worker's
// module requests from one event loop, so one process for all the runs would keep one core busy and
// leave the other waiting.
//
// The nodes are HTTP faces over ledgers (src/node/index.ts openFace): a fault lives in its face (an
// engine wrapper and hooks), so faces whose runs only read share one ledger and one genesis. A run that
// submits transactions (its files include a submission suite) gets a ledger of its own, so that no
// other run's submissions move the sequence numbers under it; the runs of the health check's faults
// share one whose blocks come once a second (HEALTH_LEDGER).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiContract } from "../../src/harness/openapi.ts";
import { loadRequirements, type RequirementCatalog } from "../../src/harness/requirements.ts";
import { FAULTS, openFace, startLedger, type RunningFace, type RunningLedger } from "../../src/node/index.ts";
import { runInChild } from "../support/child-runs.ts";
import { sampleFilesFor, suiteFilesFor } from "./suite-files.ts";
import { runSuitesAtOnce, type SuiteRunResult } from "../support/suite-runs.ts";

export interface FaultRun {
  readonly fault: string;
  readonly profile: "node" | "aptos";
  /** The fault's declared requirements this run must show failed. */
  readonly proves: readonly string[];
  readonly baseline?: string;
}

/** One go of a run: suite files, and more flags of the command (`--only` the recorded checks). */
export interface Attempt {
  /** What the attempt runs, in the test's words. */
  readonly kind: "recorded checks" | "sample" | "suite files";
  readonly files: readonly string[];
  readonly extraArgs?: readonly string[];
}

/**
 * A run as a child process is told it: the fault's run and its attempts, each run only when the ones
 * before it did not prove the fault caught (the recorded checks, then a cross-cutting rule's sample,
 * then the suite files that hold the fault's requirements).
 */
export interface PlannedRun {
  readonly run: FaultRun;
  readonly attempts: readonly Attempt[];
}

export interface FaultRunOutcome extends SuiteRunResult {
  readonly run: FaultRun;
  /** The suite files the run ran (its last attempt's). */
  readonly files: readonly string[];
  /** The attempt whose outcome this is. */
  readonly attempt: Attempt;
  /** The attempts before it, which did not prove the fault caught. */
  readonly unproven: readonly Attempt["kind"][];
}

/** Child processes at once: each keeps about a core busy (a worker running checks, its main thread serving the nodes), so two on 2 cores finish as soon as three and take less CPU. */
export const FAULT_RUN_PROCESSES = 2;
/**
 * A bound on a share's runs. The allowed variations of a node in production (shed answers, a slow tail)
 * hold their runs on the node's Retry-After and delays: a share of them took about 15 minutes on a
 * 2-core machine running CI, so the bound leaves room above that.
 */
export const FAULT_RUNS_MAX_MS = 1_500_000;

/**
 * Blocks every 250 ms, so that a check waiting for its transaction to commit waits ~0.1-0.3 s, not ~1 s.
 * Eight versions a second move the oldest kept version ~2,000 versions in the few minutes the runs may
 * take on a loaded machine, well short of the fixtures' known changes (3,750 versions above it at start).
 */
const SELF_CHECK_BLOCK_INTERVAL_MS = 250;

/**
 * The self-check's ledgers keep 10,000 versions (genesis 15,000) instead of 1,000 (2,000): they are all
 * started when their process starts, and a run may begin minutes later, when a default ledger (two
 * versions a second) would have pruned the fixtures' known changes (history.*), which the checks of
 * reads at a ledger version need to tell a past version from the latest (the fault
 * past-versions-read-latest went uncaught). Versions below the oldest still exist to be refused as
 * pruned.
 */
const SELF_CHECK_LEDGER = { pruneWindow: 10_000, genesisVersions: 15_000, blockIntervalMs: SELF_CHECK_BLOCK_INTERVAL_MS } as const;

/**
 * The ledger of the health faults' runs: blocks once a second. The health threshold law tells a node
 * that ignores duration_secs only by an answer at duration_secs=0 that is decidedly late: the ledger
 * lagging the suite's clock by more than the clock tolerance (25 ms on loopback) plus the time from
 * sending to the node's answer. Behind 250 ms blocks the lag is under 250 ms, and in a process busy
 * serving many runs an answer can take about as long: then every case is undecided, and the fault
 * passes uncaught (health-threshold-ignored did, once in about ten self-checks on a loaded machine).
 * Behind one-second blocks two such cases in three are still decided when answers take 300 ms.
 */
export const HEALTH_LEDGER = { ...SELF_CHECK_LEDGER, blockIntervalMs: 1_000 } as const;
const HEALTH_FAULTS = new Set(FAULTS.filter((fault) => fault.area === "health").map((fault) => fault.name));

/** Files that submit transactions: a run with any of them gets a ledger of its own. */
export const SUBMITS = /submit|submission/;

/**
 * The file that submits transactions a node must refuse. Against a fault that takes one of them into
 * its mempool anyway, the sender's later transfers queue behind it and never commit, so the file's
 * checks that need a committed sequence number wait out the suite's commit timeouts (about 20 s) while
 * using no CPU. Runs with it go to a process of their own, beside the others: in a share of those they
 * would hold that process idle for as long.
 */
const REJECTED_SUBMISSIONS = "suites/submit-transaction-rejected.test.ts";

export const runName = (run: Pick<FaultRun, "fault" | "profile">): string => `${run.fault} (${run.profile} profile)`;

/** Whether the outcome shows what the run must: every declared requirement failed, and the run failed. */
export function proven(outcome: FaultRunOutcome): boolean {
  const failed = new Set(outcome.summary.requirements.filter((r) => r.status === "failed").map((r) => r.id));
  return outcome.exitCode === 1 && outcome.run.proves.every((id) => failed.has(id));
}

/**
 * A run's attempts without a recording: the suite files that hold the fault's declared requirements
 * (suite-files.ts suiteFilesFor), and for a cross-cutting rule first its sample (sampleFilesFor).
 */
export function fullAttempts(run: FaultRun, catalog: RequirementCatalog): Attempt[] {
  const sample = sampleFilesFor(run.proves, catalog);
  const whole = suiteFilesFor(run.proves, catalog);
  return sample.length < whole.length
    ? [
        { kind: "sample", files: sample },
        { kind: "suite files", files: whole },
      ]
    : [{ kind: "suite files", files: whole }];
}

/** Every run with its full attempts: the self-check as it runs without a recording. */
export function fullPlan(runs: readonly FaultRun[]): PlannedRun[] {
  const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));
  return runs.map((run) => ({ run, attempts: fullAttempts(run, catalog) }));
}

/**
 * Every planned run, in FAULT_RUN_PROCESSES child processes, and the runs with REJECTED_SUBMISSIONS in
 * one more, which mostly waits; outcomes in the order of `plan`. A run whose attempt did not prove the
 * fault caught goes again with its next attempt, in the same process; its last outcome is its outcome.
 */
export async function runFaultsInProcesses(plan: readonly PlannedRun[], processes = FAULT_RUN_PROCESSES): Promise<FaultRunOutcome[]> {
  const firstFiles = (planned: PlannedRun) => planned.attempts[0]?.files ?? [];
  // A run costs its files and a worker's start (about a file's worth); one that submits also waits for
  // its commits, and gets a ledger (a genesis) of its own.
  const weighted = plan.map((planned) => ({
    planned,
    weight: 1 + firstFiles(planned).length + (firstFiles(planned).some((file) => SUBMITS.test(file)) ? 5 : 0),
  }));
  const scratch = mkdtempSync(join(tmpdir(), "fault-runs-"));
  try {
    const waits = ({ planned }: { readonly planned: PlannedRun }) => firstFiles(planned).includes(REJECTED_SUBMISSIONS);
    const waiting = weighted.filter(waits).map(({ planned }) => planned);
    const dealt = [
      ...shares(
        weighted.filter((item) => !waits(item)),
        processes,
      ),
      ...(waiting.length === 0 ? [] : [waiting]),
    ];
    const outcomes = await Promise.all(dealt.map((share, i) => runShareInChild(share, join(scratch, `share-${i}`))));
    const byName = new Map(outcomes.flat().map((outcome) => [runName(outcome.run), outcome]));
    return plan.map(({ run }) => byName.get(runName(run)) as FaultRunOutcome);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * `count` shares of about equal weight: dealt in turn, heaviest first, the runs of one fault side by
 * side. The runs of a fault in its two profiles cost about the same whatever the fault makes the suite
 * do (one that strands a transfer costs each of them a 10 s wait), so they go to different processes.
 */
function shares(items: readonly { readonly planned: PlannedRun; readonly weight: number }[], count: number): PlannedRun[][] {
  const result = Array.from({ length: Math.max(1, count) }, () => [] as PlannedRun[]);
  const order = [...items].sort((a, b) => b.weight - a.weight || a.planned.run.fault.localeCompare(b.planned.run.fault));
  order.forEach((item, i) => result[i % result.length]?.push(item.planned));
  return result.filter((share) => share.length > 0);
}

function runShareInChild(plan: readonly PlannedRun[], prefix: string): Promise<FaultRunOutcome[]> {
  const label = plan.map(({ run }) => runName(run)).join(", ");
  return runInChild({
    command: "test/self-check/fault-runs-command.mjs",
    plan,
    prefix,
    label: `the fault runs of ${label}`,
    maxMs: FAULT_RUNS_MAX_MS + 60_000,
  });
}

/**
 * Every planned run in this process (what a child of runFaultsInProcesses does): the first attempts of
 * all in one vitest instance, then the runs their attempt did not prove again with their next one, in
 * another, until every run is proven or out of attempts.
 */
export async function runFaults(plan: readonly PlannedRun[]): Promise<FaultRunOutcome[]> {
  const outcomes = new Map<string, FaultRunOutcome>();
  let pending = plan.map((planned) => ({ planned, at: 0 })).filter(({ planned }) => planned.attempts.length > 0);
  while (pending.length > 0) {
    const results = await runOnce(pending.map(({ planned, at }) => ({ run: planned.run, attempt: planned.attempts[at] as Attempt })));
    const next: typeof pending = [];
    pending.forEach(({ planned, at }, i) => {
      const outcome = { ...(results[i] as FaultRunOutcome), unproven: planned.attempts.slice(0, at).map((a) => a.kind) };
      outcomes.set(runName(planned.run), outcome);
      if (!proven(outcome) && at + 1 < planned.attempts.length) next.push({ planned, at: at + 1 });
    });
    pending = next;
  }
  return plan.map(({ run }) => outcomes.get(runName(run)) as FaultRunOutcome);
}

/** One attempt of each run in one vitest instance, each against its own face of a ledger; outcomes in order. */
async function runOnce(plan: readonly { readonly run: FaultRun; readonly attempt: Attempt }[]): Promise<FaultRunOutcome[]> {
  const scratch = mkdtempSync(join(tmpdir(), "fault-runs-"));
  const ledgers: RunningLedger[] = [];
  const faces: RunningFace[] = [];
  const newLedger = (config: Parameters<typeof startLedger>[0] = SELF_CHECK_LEDGER) => {
    const ledger = startLedger(config);
    ledgers.push(ledger);
    return ledger;
  };
  try {
    let shared: RunningLedger | undefined;
    let health: RunningLedger | undefined;
    const planned = [];
    for (const { run, attempt } of plan) {
      const { files } = attempt;
      const ledger = files.some((file) => SUBMITS.test(file))
        ? newLedger()
        : HEALTH_FAULTS.has(run.fault)
          ? (health ??= newLedger(HEALTH_LEDGER))
          : (shared ??= newLedger());
      // Faults that make 500s would fill the output with stack traces: the 500 itself is the point.
      const face = await openFace(ledger, { profile: run.profile, faults: [run.fault], onInternalError: () => undefined });
      faces.push(face);
      planned.push({ run, attempt, target: face.url, fixtures: ledger.fixtures });
    }
    const results = await runSuitesAtOnce(
      planned.map(({ run, attempt, target, fixtures }) => ({
        name: runName(run),
        target,
        fixtures,
        profile: run.profile,
        files: attempt.files,
        ...(run.baseline === undefined ? {} : { baseline: run.baseline }),
        ...(attempt.extraArgs === undefined ? {} : { extraArgs: attempt.extraArgs }),
      })),
      { scratch, maxDurationMs: FAULT_RUNS_MAX_MS },
    );
    return planned.map(({ run, attempt }) => ({
      run,
      files: attempt.files,
      attempt,
      unproven: [],
      ...(results.get(runName(run)) as SuiteRunResult),
    }));
  } finally {
    await Promise.all(faces.map((face) => face.close()));
    for (const ledger of ledgers) ledger.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
