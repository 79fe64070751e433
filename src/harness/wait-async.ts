// Waiting on shared memory without blocking the thread: Atomics.waitAsync, in Node since 16 and in
// TypeScript's ES2024 library (this project's is ES2023), typed here once for the modules that share
// memory between the command and its workers (shared-in-flight-limit.ts, target-handoff.ts).

type WaitAsync = (
  cells: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** Resolves once `cells[index]` holds something other than `value`: at once when it already does. */
export async function untilChanged(cells: Int32Array, index: number, value: number): Promise<void> {
  while (Atomics.load(cells, index) === value) {
    const wait = waitAsync(cells, index, value);
    if (wait.async) await wait.value;
  }
}
