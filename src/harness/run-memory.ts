// What a run's suite support modules keep from one check to the next (a sender's transfer that was
// not committed, the signature forms' funded keys, the load's outcome): one store per run, on the run's
// harness, never in a module's own variables. A worker may serve several runs (a fleet's nodes, the
// self-check's runs) with the same modules, so what one run learned never reaches another.

/** One thing a run remembers: its name (for errors) and how it starts. */
export interface RunMemoryKey<T> {
  readonly name: string;
  readonly initial: () => T;
}

/** A key for run memory: `initial` makes the run's value the first time a check asks for it. */
export function runMemoryKey<T>(name: string, initial: () => T): RunMemoryKey<T> {
  return { name, initial };
}

/** One run's memory in a worker. */
export class RunMemory {
  readonly #values = new Map<RunMemoryKey<unknown>, unknown>();

  /** The run's value for `key`, made by its `initial` on first use. */
  of<T>(key: RunMemoryKey<T>): T {
    if (!this.#values.has(key)) this.#values.set(key, key.initial());
    return this.#values.get(key) as T;
  }
}
