// --rate-limit for a fleet's node, whose files go to any of the fleet's workers (a fleet shares them):
// one schedule of send times for all the workers, in memory they share, so that the node gets its
// whole rate whichever workers its files are on, and never more. A client with a rate of its own (a
// one-node run's single worker) keeps the same schedule on a buffer no one else has (http-client.ts). A request reserves the next free time
// (at least 1/rate after the one reserved before it, and not before now) with a compare-and-swap, and
// waits for it. The buffer reaches the workers through worker-shared.ts.

import { sharedWithWorker, shareWithWorkers } from "./worker-shared.ts";

export class SharedRateLimit {
  readonly perSecond: number;
  /** The time (Date.now(), ms) the next request may go at. */
  readonly #next: BigInt64Array;

  constructor(buffer: SharedArrayBuffer, perSecond: number) {
    if (!(perSecond > 0) || !Number.isFinite(perSecond))
      throw new RangeError(`a rate limit is a positive number of requests per second, got ${perSecond}`);
    this.perSecond = perSecond;
    this.#next = new BigInt64Array(buffer);
  }

  /** A buffer for a limit: share it with every worker that is to keep within the same rate. */
  static buffer(): SharedArrayBuffer {
    return new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  }

  /** Waits until this request's time under the rate, which it reserves. */
  async wait(now: () => number = Date.now): Promise<void> {
    const gapMs = 1000 / this.perSecond;
    for (;;) {
      const reserved = Atomics.load(this.#next, 0);
      const at = Math.max(now(), Number(reserved));
      if (Atomics.compareExchange(this.#next, 0, reserved, BigInt(Math.ceil(at + gapMs))) !== reserved) continue;
      // A timer keeps the event loop's monotonic clock in whole milliseconds, not Date.now(): it may fire
      // a little before the reserved time by Date.now(). Wait again until that time has come.
      for (let delay = at - now(); delay > 0; delay = at - now()) await new Promise((resolve) => setTimeout(resolve, delay));
      return;
    }
  }
}

/** In the command, before the workers start: one rate for every worker of the run whose state is in `stateDir`. */
export function shareRateLimit(stateDir: string, perSecond: number): void {
  shareWithWorkers("rate", stateDir, { buffer: SharedRateLimit.buffer(), perSecond });
}

/** In a worker: the run's rate, as the command shared it. */
export function sharedRateLimit(stateDir: string | undefined): SharedRateLimit {
  const shared =
    stateDir === undefined ? undefined : (sharedWithWorker("rate", stateDir) as { buffer?: unknown; perSecond?: unknown } | undefined);
  if (!(shared?.buffer instanceof SharedArrayBuffer) || typeof shared.perSecond !== "number") {
    throw new Error(
      `no shared rate limit for the run in ${stateDir ?? "(no state directory)"}: shareRateLimit runs before its workers start`,
    );
  }
  return new SharedRateLimit(shared.buffer, shared.perSecond);
}
