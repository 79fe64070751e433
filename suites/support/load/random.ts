// The load's choices (which read, which account, JSON or BCS) from the run's seed, so that a run under
// load can be repeated with --seed: mulberry32, a small 32-bit generator, one stream per client.

export type Random = () => number;

/** A generator of floats in [0, 1) for `seed` and the client's `stream`. */
export function seededRandom(seed: number, stream: number): Random {
  let state = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `items`, picked with `random`. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}
