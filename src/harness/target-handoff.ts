// A run whose workers do not depend on its target's answers (the run engine decides) starts them
// before the target has answered: while the embedded node makes its genesis, or while a remote one is
// probed. They load the harness and collect the suites meanwhile, instead of after. The checks
// need the target's URL and fixtures: the command hands those over once the target answers its
// probe, as target.json in the run's state directory and a flag in shared memory, which every worker
// waits on before a file's first check (target-handoff-setup.ts, a setup file of the run). The flag
// reaches the workers as the run's other shared memory does (worker-shared.ts).

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sharedBuffer, shareWithWorkers } from "./worker-shared.ts";
import type { TargetFacts } from "./config.ts";
import { untilChanged } from "./wait-async.ts";

/** The flag's states: the command settles it once, from PENDING. */
const PENDING = 0;
const HANDED_OVER = 1;
const CANCELLED = 2;

/** What target.json holds: the facts, or why there are none. */
type Settled = { readonly facts: TargetFacts } | { readonly cancelled: string };

function settledFile(stateDir: string): string {
  return join(stateDir, "target.json");
}

/** The command's side, made before the run's workers start (they get the flag when they start). */
export class TargetHandoff {
  readonly #stateDir: string;
  readonly #flag = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

  constructor(stateDir: string) {
    this.#stateDir = stateDir;
    shareWithWorkers("target", stateDir, this.#flag.buffer);
  }

  /** The target is up: the workers' checks may run. */
  handOver(facts: TargetFacts): void {
    this.#settle(HANDED_OVER, { facts });
  }

  /** The target will not come (its start failed, the run is being stopped): the workers stop waiting, with `reason`. No-op once settled. */
  cancel(reason: string): void {
    this.#settle(CANCELLED, { cancelled: reason });
  }

  #settle(state: typeof HANDED_OVER | typeof CANCELLED, settled: Settled): void {
    if (Atomics.load(this.#flag, 0) !== PENDING) return;
    // The file first: a worker reads it as soon as the flag changes.
    writeFileSync(settledFile(this.#stateDir), JSON.stringify(settled));
    Atomics.store(this.#flag, 0, state);
    Atomics.notify(this.#flag, 0);
  }
}

/** A worker's side: the target's facts once the command handed them over; rejects when it cancelled. */
export async function receiveTarget(stateDir: string): Promise<TargetFacts> {
  const flag = new Int32Array(sharedBuffer("target", stateDir, "target handoff"));
  await untilChanged(flag, 0, PENDING);
  const settled = JSON.parse(readFileSync(settledFile(stateDir), "utf8")) as Settled;
  if ("cancelled" in settled) throw new Error(`the run's target did not come up: ${settled.cancelled}`);
  return settled.facts;
}
