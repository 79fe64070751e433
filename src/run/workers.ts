// Worker sizing, for a one-node run and for a fleet alike: how many worker threads run the suite files,
// each one's share of --concurrency, and whether the count is known before the target has answered.
// When it is, the workers start at once and wait for the target's facts (src/harness/target-handoff.ts):
// while the embedded node makes its genesis, or while a remote node is probed across the network.
//
// A worker runs one file at a time, and costs CPU to start and to run. A run against a node on this
// machine is bound by CPU (the checks, the schemas, the node itself): more workers than the cores only
// slow each other down. A run that waits on the network (a remote node, or one on loopback behind
// something slow) spends most of a file's time idle: its files whose checks go one by one (its
// submissions) hold a worker for many round trips each, and more workers let the others overlap them.

import { availableParallelism } from "node:os";
import { isLoopbackUrl } from "../harness/config.ts";
import type { NodePlan, RunOptions } from "./run-plan.ts";

/** Workers when the run waits on the network rather than on CPU: a worker runs its files one after another. */
export const LATENCY_BOUND_WORKERS = 6;

/**
 * Workers of a run bound by CPU, at least: its submissions wait on the node's blocks (a second each on
 * a node of the family), and a second worker runs the reads meanwhile. Against a node in a process of
 * its own with one-second blocks, one worker takes twice as long as two (14.7 s against 7.2 s); against
 * the embedded node two cost nothing.
 */
export const CPU_BOUND_WORKERS_AT_LEAST = 2;

/**
 * Requests in flight at once when the run waits on the network and --concurrency is not given. Behind a
 * link the run is round trips: at --concurrency's default of 16 a run's ~2,400 requests of ~160 ms each
 * (0-300 ms of delay) wait ~24 s in line for a slot, and what a request costs this machine is the same
 * whether others wait or not. The bench's latency run measures the choice (bench/conformance-run.ts).
 */
export const LATENCY_BOUND_CONCURRENCY = 48;

/**
 * Workers of a latency-bound fleet that a core carries: a worker's start costs CPU, and its files mostly
 * wait; more of them let more of the nodes' submissions wait at once. The fleet bench (bench/fleet.ts)
 * measures the choice.
 */
export const LATENCY_BOUND_FLEET_WORKERS_PER_CORE = 10;

/**
 * Worker threads for a run (--workers, else chosen here), no more than --concurrency. A run that waits
 * on the target's latency gets LATENCY_BOUND_WORKERS, so that files whose checks go one by one
 * (submissions) overlap with the others; otherwise vitest's default (a core left for the command and the
 * embedded node), as each worker costs CPU to start, and at least CPU_BOUND_WORKERS_AT_LEAST. Under
 * --rate-limit the workers keep to the one rate together (src/harness/shared-rate-limit.ts), so the
 * limit needs no fewer of them.
 */
export function suiteWorkers(concurrency: number, options: { readonly latencyBound: boolean; readonly asked?: number }): number {
  const cores = availableParallelism();
  const chosen = options.latencyBound ? Math.max(LATENCY_BOUND_WORKERS, cores - 1) : Math.max(CPU_BOUND_WORKERS_AT_LEAST, cores - 1);
  // --workers, when given, instead of the run's own choice (a fleet asks for its own: fleetWorkers).
  const wanted = options.asked ?? chosen;
  return Math.max(1, Math.min(wanted, concurrency));
}

/** Each worker's share of --concurrency, so that the workers together keep within it. */
export function concurrencyPerWorker(concurrency: number, workers: number): number {
  return Math.max(1, Math.floor(concurrency / workers));
}

type WorkerFlags = Pick<RunOptions, "concurrency" | "concurrencyGiven" | "workers">;

/** A run's worker threads and the requests they keep in flight at once, together. */
export interface RunSizing {
  readonly workers: number;
  readonly concurrency: number;
}

/**
 * Requests in flight at once over the run: --concurrency when given, LATENCY_BOUND_CONCURRENCY when the
 * run waits on the network (under --rate-limit too: it takes as many in flight to keep to a rate across
 * a link), else the default.
 */
export function runConcurrency(args: Omit<WorkerFlags, "workers">, latencyBound: boolean): number {
  return latencyBound && args.concurrencyGiven !== true ? Math.max(args.concurrency, LATENCY_BOUND_CONCURRENCY) : args.concurrency;
}

/** The run's workers (--workers, else chosen by whether the run will wait on the network: suiteWorkers) and its concurrency. */
export function runWorkers(args: WorkerFlags, latencyBound: boolean): RunSizing {
  const concurrency = runConcurrency(args, latencyBound);
  const workers = suiteWorkers(concurrency, {
    latencyBound,
    ...(args.workers === undefined ? {} : { asked: args.workers }),
  });
  return { workers, concurrency };
}

/**
 * The run's workers when the target's answers do not choose them; undefined when they do: a loopback
 * target without --workers, whose answers the probe times (slow ones once warm mean a
 * slow link, and more workers; src/run/target-probe.ts).
 */
export function workersBeforeAnswers(args: WorkerFlags, node: Pick<NodePlan, "target">): RunSizing | undefined {
  // Sharing this process's CPU, the embedded node is never latency-bound.
  if (node.target === undefined) return runWorkers(args, false);
  // A remote target is latency-bound by its address, whatever its answers.
  if (!isLoopbackUrl(node.target)) return runWorkers(args, true);
  if (args.workers !== undefined) return runWorkers(args, false);
  return undefined;
}

/** What bounds a fleet node's run, as its probe says. */
export type RunBound = "cpu" | "latency";

/**
 * A fleet's workers (its one vitest instance: src/run/execute.ts): --workers if given, else by the bounds
 * of its nodes' runs, as many as its nodes would get alone. Waiting on the network, LATENCY_BOUND_WORKERS
 * each, up to what the cores carry. Bound by CPU, a one-node run's workers each (its submissions wait on
 * the node's blocks while another worker reads), up to LATENCY_BOUND_WORKERS or the cores: ten nodes
 * with one-second blocks on 2 cores took 71 s on 2 workers and 32 s on 6, for about 3 CPU-s more.
 */
export function fleetWorkers(args: Pick<RunOptions, "concurrency" | "workers">, bounds: readonly RunBound[]): number {
  const latencyBound = bounds.filter((b) => b === "latency").length;
  const cores = availableParallelism();
  const cpuBoundEach = Math.max(CPU_BOUND_WORKERS_AT_LEAST, cores - 1);
  const chosen =
    latencyBound === 0
      ? Math.max(cores, Math.min(cpuBoundEach * bounds.length, LATENCY_BOUND_WORKERS))
      : Math.min(LATENCY_BOUND_WORKERS * latencyBound, cores * LATENCY_BOUND_FLEET_WORKERS_PER_CORE);
  return suiteWorkers(args.concurrency, { latencyBound: false, asked: args.workers ?? chosen });
}
