// Small statistics for the benchmarks: percentiles of recorded samples and a seeded generator, so the
// "random" versions a read benchmark asks for are the same on every run.

/** The `p`-th percentile (0..100) of `values`, interpolating between the two nearest ranks. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  if (p < 0 || p > 100) throw new RangeError(`percentile must be in 0..100, got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const below = Math.floor(rank);
  const above = Math.ceil(rank);
  const low = sorted[below] as number;
  const high = sorted[above] as number;
  return low + (high - low) * (rank - below);
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** mulberry32: a tiny deterministic generator of floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniformly drawn integer in [low, high] (bigint bounds, as ledger versions are). */
export function randomBigIntBetween(random: () => number, low: bigint, high: bigint): bigint {
  if (high < low) throw new RangeError(`empty range ${low}..${high}`);
  const span = Number(high - low + 1n);
  return low + BigInt(Math.floor(random() * span));
}
