// At most `max` tasks at once; the others wait their turn in the order they came. The HTTP client
// bounds its requests in flight with it (--concurrency), and a property its concurrent cases. A run of
// several workers bounds them all with one limit in shared memory (shared-in-flight-limit.ts).

/** What bounds a client's requests in flight: its own limit, or one shared with the run's other workers. */
export interface InFlightGate {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export class InFlightLimit implements InFlightGate {
  readonly max: number;
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(max: number) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`an in-flight limit is a positive integer, got ${max}`);
    this.max = max;
  }

  /** No task runs or waits: one given now would run at once. */
  get idle(): boolean {
    return this.#active === 0 && this.#waiting.length === 0;
  }

  /** Runs `task` once fewer than `max` others run. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active < this.max) this.#active += 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiting task, or is freed.
      const next = this.#waiting.shift();
      if (next !== undefined) next();
      else this.#active -= 1;
    }
  }
}
