// How many worker threads a fleet's one vitest instance gets (src/fleet/run.ts), by what bounds its nodes'
// runs. A worker runs one file at a time, so the workers are how many of the fleet's files go at once.
// A run against a node on this machine is bound by CPU (the checks, the schemas, the node itself), so
// more workers than the cores only slow each other down. A run that waits on the network (a remote
// node, or one on loopback behind something slow) spends most of a file's time idle: its files whose
// checks go one by one (its submissions) hold a worker for many round trips each, so such a fleet gets
// as many workers as its nodes would get alone (LATENCY_BOUND_WORKERS each), up to what the cores carry:
// each worker costs CPU to start and to run.

import { availableParallelism } from "node:os";
import type { ConformanceArgs } from "./conformance-args.ts";
import { LATENCY_BOUND_WORKERS, suiteWorkers } from "../run/vitest-run.ts";

export type RunBound = "cpu" | "latency";

/**
 * Workers of a latency-bound fleet that a core carries. Measured on 2 cores, 10 reference nodes each
 * behind a 0-300 ms proxy, two rounds: 12 workers 58.8 and 60.6 s, 16 workers 58.7 and 55.3 s, 20
 * workers 54.2 and 51.0 s, with the same CPU (60-70 CPU-s): a worker's start costs ~0.45 CPU-s, and
 * more of the nodes' submissions wait at once.
 */
export const LATENCY_BOUND_FLEET_WORKERS_PER_CORE = 10;

/** The fleet's workers: --workers if given, else by the bounds of its nodes' runs (each node's probe says). */
export function fleetWorkers(args: Pick<ConformanceArgs, "concurrency" | "workers">, bounds: readonly RunBound[]): number {
  const latencyBound = bounds.filter((b) => b === "latency").length;
  const cores = availableParallelism();
  const chosen = latencyBound === 0 ? cores : Math.min(LATENCY_BOUND_WORKERS * latencyBound, cores * LATENCY_BOUND_FLEET_WORKERS_PER_CORE);
  // --rate-limit does not make it one: the workers keep to each node's rate together (shared-rate-limit.ts).
  return suiteWorkers(args.concurrency, { rateLimited: false, latencyBound: false, asked: args.workers ?? chosen });
}
