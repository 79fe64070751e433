// How many worker threads a run gets, and whether that is known before its target has answered. When
// it is, the workers start at once and wait for the target's facts (target-handoff.ts): while the
// embedded node makes its genesis, or while a remote node is probed across the network.

import { isLoopbackUrl } from "../harness/config.ts";
import type { ConformanceArgs } from "../cli/conformance-args.ts";
import { suiteWorkers } from "./vitest-run.ts";
import { testsEmbeddedNode } from "./embedded-node.ts";

type WorkerFlags = Pick<ConformanceArgs, "concurrency" | "rateLimit" | "workers">;

/** The run's workers: --workers, else chosen by whether the run will wait on the network (suiteWorkers). */
export function runWorkers(args: WorkerFlags, latencyBound: boolean): number {
  return suiteWorkers(args.concurrency, { rateLimited: args.rateLimit !== undefined, latencyBound, ...(args.workers === undefined ? {} : { asked: args.workers }) });
}

/**
 * The run's workers when the target's answers do not choose them; undefined when they do: a loopback
 * target without --workers or --rate-limit, whose answers the probe times (slow ones once warm mean a
 * slow link, and more workers; src/run/target-probe.ts).
 */
export function workersBeforeAnswers(args: WorkerFlags & Pick<ConformanceArgs, "target" | "fleet" | "targetsFile">): number | undefined {
  // Sharing this process's CPU, the embedded node is never latency-bound.
  if (testsEmbeddedNode(args)) return runWorkers(args, false);
  // A remote target is latency-bound by its address, whatever its answers.
  if (args.target !== undefined && !isLoopbackUrl(args.target)) return runWorkers(args, true);
  if (args.workers !== undefined || args.rateLimit !== undefined) return runWorkers(args, false);
  return undefined;
}
