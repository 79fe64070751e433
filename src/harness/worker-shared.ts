// What the command gives a run's worker threads before they start: memory they share with it and with
// each other (a SharedArrayBuffer is shared, not copied, by the structured clone) and the numbers that go
// with it, as the process's environment data (worker_threads.setEnvironmentData), which every worker
// thread started afterwards gets. One entry per kind and run, named by the run's own state directory:
// the runs of one vitest instance (a fleet's nodes) each have their own.

import { getEnvironmentData, setEnvironmentData } from "node:worker_threads";

/** What is shared: --concurrency's slots, the pace, the declines, the ledger mark, the senders' sequence numbers, the target's handoff. */
export type WorkerSharedKind = "in-flight" | "rate" | "declines" | "ledger-mark" | "sequences" | "target";

/** The environment data key of a run's `kind`. */
export function workerSharedKey(kind: WorkerSharedKind, stateDir: string): string {
  return `ledger-conformance:${kind}:${stateDir}`;
}

/** In the command, before the run's workers start. */
export function shareWithWorkers(
  kind: WorkerSharedKind,
  stateDir: string,
  value: SharedArrayBuffer | Readonly<Record<string, unknown>>,
): void {
  setEnvironmentData(workerSharedKey(kind, stateDir), value as never);
}

/** In a worker: the memory the command shared for the run as `kind`; an error naming `what` when it shared none. */
export function sharedBuffer(kind: WorkerSharedKind, stateDir: string, what: string): SharedArrayBuffer {
  const buffer = sharedWithWorker(kind, stateDir);
  if (!(buffer instanceof SharedArrayBuffer))
    throw new Error(`no shared ${what} for the run in ${stateDir}: the command shares it before the run's workers start`);
  return buffer;
}

/** In a worker (or the command): what the command shared for the run, undefined when it shared none. */
export function sharedWithWorker(kind: WorkerSharedKind, stateDir: string): unknown {
  return getEnvironmentData(workerSharedKey(kind, stateDir));
}
