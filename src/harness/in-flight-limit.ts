// At most `max` tasks at once; the others wait their turn in the order they came. The HTTP client
// bounds its requests in flight with it (--concurrency), and a property its concurrent cases.

export class InFlightLimit {
  readonly max: number;
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(max: number) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`an in-flight limit is a positive integer, got ${max}`);
    this.max = max;
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
