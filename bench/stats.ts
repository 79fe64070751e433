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

/** A uniformly drawn integer in [low, high] (bigint bounds, as ledger versions are). */
export function randomBigIntBetween(random: () => number, low: bigint, high: bigint): bigint {
  if (high < low) throw new RangeError(`empty range ${low}..${high}`);
  const span = Number(high - low + 1n);
  return low + BigInt(Math.floor(random() * span));
}
