// --concurrency for a run of several workers: one bound on the requests in flight from all of them.
// Each worker has one slot of its own and shares the rest (--concurrency minus the workers) with the
// others through shared memory, so that a worker whose file sends one request at a time (a submission
// waiting on its commit) always has its slot at once, and the workers with many requests to send take
// the slots the others leave. A fixed share per worker would hold the properties behind a slow target
// to a fraction of the concurrency while other workers' slots idle; all slots shared with none of
// its own would make a submission's every request wait behind the others' floods.
//
// The shared slots go in the order their tickets were taken (a ticket lock that admits `max` tickets at
// once), and a worker takes one ticket at a time, so a worker whose checks ask for many at once cannot
// keep another's waiting: the other's next ticket comes between two of its own. The buffer reaches
// the workers through worker-shared.ts.

import { sharedWithWorker, shareWithWorkers } from "./worker-shared.ts";
import { InFlightLimit, type InFlightGate } from "./in-flight-limit.ts";
import { untilChanged } from "./wait-async.ts";

/** Int32 slots of the buffer: the next ticket to hand out, and how many admitted tickets have finished. */
const NEXT = 0;
const DONE = 1;

export class SharedInFlightLimit implements InFlightGate {
  readonly max: number;
  readonly #cells: Int32Array;

  constructor(buffer: SharedArrayBuffer, max: number) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`an in-flight limit is a positive integer, got ${max}`);
    this.max = max;
    this.#cells = new Int32Array(buffer);
  }

  /** A buffer for a limit: share it with every worker that is to keep within the same bound. */
  static buffer(): SharedArrayBuffer {
    return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  }

  /** Settles when the latest task asked for through this limit has been admitted. */
  #turn: Promise<void> = Promise.resolve();

  /**
   * Runs `task` once its ticket is among the `max` oldest unfinished ones. The tasks asked for through
   * this limit take their tickets one after another, each once the one before was admitted: every
   * finished task wakes every thread waiting on the buffer, and so at most one waiter per limit (per
   * worker) wakes, not each of its queued tasks. In a CPU profile of a fleet of 10 with 16 workers, the
   * waiters woken by every answer were the workers' largest share of samples (the fleet's wall time and
   * CPU did not tell the two apart from the machine's noise, 2 pairs).
   */
  async run<T>(task: () => Promise<T>): Promise<T> {
    const before = this.#turn;
    let admitted = () => {};
    this.#turn = new Promise<void>((resolve) => {
      admitted = resolve;
    });
    try {
      await before;
      const ticket = Atomics.add(this.#cells, NEXT, 1);
      for (;;) {
        const done = Atomics.load(this.#cells, DONE);
        if (ticket - done < this.max) break;
        await untilChanged(this.#cells, DONE, done);
      }
    } finally {
      admitted();
    }
    try {
      return await task();
    } finally {
      Atomics.add(this.#cells, DONE, 1);
      Atomics.notify(this.#cells, DONE);
    }
  }
}

/** A worker's bound: its own slot when it is free, else one of the slots the run's workers share. */
export class WorkerInFlightGate implements InFlightGate {
  readonly #own = new InFlightLimit(1);
  readonly #shared: SharedInFlightLimit;

  constructor(shared: SharedInFlightLimit) {
    this.#shared = shared;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    return this.#own.idle ? this.#own.run(task) : this.#shared.run(task);
  }
}

/**
 * The slots a run's workers share when each has one of its own: --concurrency minus the workers; none
 * when there are not more slots than workers (then each has its share alone, concurrencyPerWorker).
 */
export function sharedSlots(concurrency: number, workers: number): number {
  return workers > 1 ? Math.max(0, concurrency - workers) : 0;
}

/**
 * In the command, before the workers start: `slots` shared by every worker of the run whose state is in
 * `stateDir`; with `ownSlot`, each worker has one of its own besides (sharedSlots). A fleet's node has
 * all of its --concurrency shared and none of its own: its files go to any of the fleet's many workers,
 * a few at a time (src/run/execute.ts).
 */
export function shareInFlightLimit(stateDir: string, slots: number, options: { readonly ownSlot: boolean } = { ownSlot: true }): void {
  shareWithWorkers("in-flight", stateDir, { buffer: SharedInFlightLimit.buffer(), max: slots, ownSlot: options.ownSlot });
}

/** In a worker: the run's shared slots, and its own one when the command gave each worker one. */
export function workerInFlightGate(stateDir: string | undefined): InFlightGate {
  const { limit, ownSlot } = sharedInFlight(stateDir);
  return ownSlot ? new WorkerInFlightGate(limit) : limit;
}

/** The run's shared slots, as the command shared them. */
export function sharedInFlightLimit(stateDir: string | undefined): SharedInFlightLimit {
  return sharedInFlight(stateDir).limit;
}

function sharedInFlight(stateDir: string | undefined): { readonly limit: SharedInFlightLimit; readonly ownSlot: boolean } {
  if (stateDir === undefined) throw new Error("a shared in-flight limit belongs to a run's state directory: the run has none");
  const shared = sharedWithWorker("in-flight", stateDir) as { buffer?: unknown; max?: unknown; ownSlot?: unknown } | undefined;
  if (!(shared?.buffer instanceof SharedArrayBuffer) || typeof shared.max !== "number") {
    throw new Error(`no shared in-flight limit for the run in ${stateDir}: shareInFlightLimit runs before its workers start`);
  }
  return { limit: new SharedInFlightLimit(shared.buffer, shared.max), ownSlot: shared.ownSlot !== false };
}
