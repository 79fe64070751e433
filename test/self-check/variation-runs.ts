// The allowed-variations guard's runs: for each (variation, profile), a clean reference node on a
// ledger of its own (a run may hold suites that submit transactions), the variation proxy in front of
// it (test/support/variation-proxy.ts), and the whole suite, or the run's files, run against the proxy.
//
// The machinery is the fault self-check's: the runs are dealt into a few child processes
// (test/support/child-runs.ts), each starting its share's ledgers, faces and proxies and running its
// share's files in one vitest instance and one worker (test/support/suite-runs.ts). The ledgers are
// the health faults' runs' (fault-runs.ts HEALTH_LEDGER): blocks once a second, as the clean node's,
// since the whole suite holds the health threshold law, which behind 250 ms blocks on a loaded machine
// could not decide its cases (4.7/lagging-unhealthy not applicable, under json-whitespace once).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openFace, startLedger, type RunningFace, type RunningLedger } from "../../src/node/index.ts";
import { runInChild } from "../support/child-runs.ts";
import { runSuitesAtOnce, type SuiteRunResult } from "../support/suite-runs.ts";
import { startVariationProxy, type VariationProxy } from "../support/variation-proxy.ts";
import { FAULT_RUN_PROCESSES, FAULT_RUNS_MAX_MS, HEALTH_LEDGER, SUBMITS } from "./fault-runs.ts";
import { allSuiteFiles } from "./suite-files.ts";

export interface VariationRun {
  /** A name of test/support/variations.ts. */
  readonly variation: string;
  readonly profile: "node" | "aptos";
  readonly baseline?: string;
  /** The suite files to run (default: the whole suite). */
  readonly files?: readonly string[];
}

export interface VariationRunOutcome extends SuiteRunResult {
  readonly run: VariationRun;
  /** What the variation changed (answers, or for idle-close-50ms connections): 0 means it never fired. */
  readonly changed: number;
}

export const runName = (run: VariationRun): string => `${run.variation} (${run.profile} profile)`;

/** Every run of `runs`, dealt in turn into `processes` child processes; outcomes in the order of `runs`. */
export async function runVariationsInProcesses(
  runs: readonly VariationRun[],
  processes = FAULT_RUN_PROCESSES,
): Promise<VariationRunOutcome[]> {
  // The two profiles of a variation cost about the same: dealt in turn, they go to different processes.
  const dealt = Array.from({ length: Math.min(processes, runs.length) }, (_, i) => runs.filter((_run, j) => j % processes === i));
  const scratch = mkdtempSync(join(tmpdir(), "variation-runs-"));
  try {
    const outcomes = await Promise.all(
      dealt.map((share, i) =>
        runInChild<readonly VariationRun[], VariationRunOutcome[]>({
          command: "test/self-check/variation-runs-command.mjs",
          plan: share,
          prefix: join(scratch, `share-${i}`),
          label: `the variation runs of ${share.map(runName).join(", ")}`,
          maxMs: FAULT_RUNS_MAX_MS + 60_000,
        }),
      ),
    );
    const byName = new Map(outcomes.flat().map((outcome) => [runName(outcome.run), outcome]));
    return runs.map((run) => byName.get(runName(run)) as VariationRunOutcome);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Every run in this process (what a child of runVariationsInProcesses does), all in one vitest instance. */
export async function runVariations(runs: readonly VariationRun[]): Promise<VariationRunOutcome[]> {
  const scratch = mkdtempSync(join(tmpdir(), "variation-runs-"));
  const ledgers: RunningLedger[] = [];
  const faces: RunningFace[] = [];
  const proxies: VariationProxy[] = [];
  try {
    const planned = [];
    // A run that submits gets a ledger of its own, so that no other run's submissions move its senders'
    // sequence numbers; the runs that only read share one (one genesis).
    let shared: RunningLedger | undefined;
    const newLedger = () => {
      const ledger = startLedger(HEALTH_LEDGER);
      ledgers.push(ledger);
      return ledger;
    };
    for (const run of runs) {
      const files = run.files ?? allSuiteFiles();
      const ledger = files.some((file) => SUBMITS.test(file)) ? newLedger() : (shared ??= newLedger());
      const face = await openFace(ledger, { profile: run.profile });
      faces.push(face);
      const proxy = await startVariationProxy(face.url, run.variation);
      proxies.push(proxy);
      planned.push({ run, proxy, fixtures: ledger.fixtures });
    }
    const results = await runSuitesAtOnce(
      planned.map(({ run, proxy, fixtures }) => ({
        name: runName(run),
        target: proxy.url,
        fixtures,
        profile: run.profile,
        files: run.files ?? allSuiteFiles(),
        ...(run.baseline === undefined ? {} : { baseline: run.baseline }),
      })),
      { scratch, maxDurationMs: FAULT_RUNS_MAX_MS },
    );
    return planned.map(({ run, proxy }) => ({ run, changed: proxy.changed(), ...(results.get(runName(run)) as SuiteRunResult) }));
  } finally {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await Promise.all(faces.map((face) => face.close()));
    for (const ledger of ledgers) ledger.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
