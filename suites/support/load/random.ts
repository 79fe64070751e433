// The load's choices (which read, which account, JSON or BCS) from the run's seed, so that a run under
// load can be repeated with --seed: one stream of the seeded generator per client.

import { seededRandom, type Random } from "../../../src/harness/index.ts";

export type { Random };

/** The generator of the client numbered `stream` under the run's `seed`. */
export function clientRandom(seed: number, stream: number): Random {
  return seededRandom(seed ^ Math.imul(stream + 1, 0x9e3779b9));
}

/** One of `items`, picked with `random`. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}
