// How many of a fleet's node runs go at once, by what bounds them. A run against a node on this machine
// is bound by CPU (the checks, the schemas, the node itself: about 10 CPU-s a run), so more runs at once
// than the cores can carry only slow every run down. A run that waits on the network (a remote node, or
// one on loopback behind something slow) spends most of its time idle, so such runs can all go at once,
// up to a bound that keeps memory in check (a run holds about 300 MB). Each target is classed by the
// probe a one-node run uses to choose its workers (conformance-target.ts latencyBound: remote, or slow
// answers on loopback once warm); the two kinds run side by side, each with its own bound.

import { availableParallelism } from "node:os";
import { isLoopbackUrl } from "../harness/config.ts";
import { PROBE_TIMEOUT_MS, probeTarget } from "./conformance-target.ts";
import { LATENCY_BOUND_WORKERS } from "./conformance-vitest.ts";

export type RunBound = "cpu" | "latency";

/**
 * CPU-bound runs at once: twice the cores. On 2 cores, 10 runs at once took each to its 300 s
 * --max-duration cap on a loaded machine; 3 to 4 at a time finish sooner, and more gain nothing.
 */
export const CPU_BOUND_RUNS = Math.max(2, 2 * availableParallelism());
/** Latency-bound runs at once: they mostly wait; the bound is for memory and the node's own load. */
export const LATENCY_BOUND_RUNS = 16;

export function runsAtOnce(bound: RunBound): number {
  return bound === "latency" ? LATENCY_BOUND_RUNS : CPU_BOUND_RUNS;
}

/**
 * Latency-bound node runs' workers that a core carries. Measured on 2 cores, 10 nodes behind 0-300 ms
 * proxies (the fleet bench): with one worker each the runs used 1.4 of the cores (74 CPU-s in 68 s);
 * with two each they used 98 CPU-s, the cores were saturated, and the fleet took no less time.
 */
export const LATENCY_BOUND_WORKERS_PER_CORE = 5;

/**
 * Worker threads a node's run gets in a fleet, unless --workers is given; `together`: the runs of its
 * kind going at once. A CPU-bound run gets one, as alone. A run that waits on the network uses
 * LATENCY_BOUND_WORKERS alone (conformance-vitest.ts), so that its files whose checks go one by one
 * overlap with the others; but each worker costs CPU to start and to run (about 2.4 CPU-s of a
 * whole-suite run behind a proxy), so the runs going at once share what the cores carry: on 2 cores a
 * fleet of 10 gives each one, a fleet of 2 each four.
 */
export function workersPerRun(bound: RunBound, together: number): number {
  if (bound === "cpu") return 1;
  const share = Math.floor((availableParallelism() * LATENCY_BOUND_WORKERS_PER_CORE) / Math.max(1, together));
  return Math.max(1, Math.min(LATENCY_BOUND_WORKERS, share));
}

/**
 * A remote target is latency-bound without asking it; a loopback one as its probe finds it. A target whose
 * probe fails counts as CPU-bound (the default): its own run says why it failed.
 */
export async function runBoundOf(url: string): Promise<RunBound> {
  if (!isLoopbackUrl(url)) return "latency";
  const probe = await probeTarget(url, PROBE_TIMEOUT_MS);
  return probe.ok && probe.latencyBound ? "latency" : "cpu";
}
