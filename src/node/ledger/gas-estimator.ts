// The §2.5 gas estimate over the node's own blocks, with the family's buckets and rules (the Aptos
// estimator): each recent block contributes the lowest gas unit price it included when it was full, and
// the minimum gas unit price when it was not (entering it needed no more). Over the latest blocks:
//   low        = min of the last 10
//   market     = max(low, median of the last 30)
//   aggressive = next bucket above max(market, p90 of the last 120)
// With no full block among them, every value is the minimum price, and aggressive is the next bucket
// above it; so deprioritized <= market <= prioritized always holds.

import type { GasEstimate } from "./api.ts";
import type { BlockRecord } from "./block-log.ts";

export const GAS_BUCKETS: readonly bigint[] = [0n, 150n, 300n, 500n, 1_000n, 3_000n, 5_000n, 10_000n, 100_000n, 1_000_000n];
export const LOW_BLOCK_HISTORY = 10;
export const MARKET_BLOCK_HISTORY = 30;
export const AGGRESSIVE_BLOCK_HISTORY = 120;

export interface BlockFullness {
  /** User transactions a block may take. */
  readonly transactionCapacity: number;
  /** Gas units a block may use. */
  readonly gasLimit: number;
}

/** Full: the block reached its transaction capacity or its gas limit. */
export function isFullBlock(block: Pick<BlockRecord, "userTransactions" | "gasUsed">, limits: BlockFullness): boolean {
  return block.userTransactions >= limits.transactionCapacity || block.gasUsed >= limits.gasLimit;
}

/** The smallest bucket strictly above `price`; `price` itself when it is at or above the last bucket. */
export function nextBucket(price: bigint): bigint {
  return GAS_BUCKETS.find((bucket) => bucket > price) ?? price;
}

/**
 * `recentBlocks` latest first (at most AGGRESSIVE_BLOCK_HISTORY are read). Each block's contribution is
 * its lowest included price when full, else `minGasUnitPrice`.
 */
export function estimateGasPrice(
  recentBlocks: Iterable<Pick<BlockRecord, "userTransactions" | "gasUsed" | "minGasUnitPrice">>,
  limits: BlockFullness,
  minGasUnitPrice: bigint,
): GasEstimate {
  const prices: bigint[] = [];
  let anyFull = false;
  for (const block of recentBlocks) {
    if (prices.length === AGGRESSIVE_BLOCK_HISTORY) break;
    const full = isFullBlock(block, limits) && block.minGasUnitPrice !== undefined;
    anyFull ||= full;
    prices.push(full ? maxOf(block.minGasUnitPrice as bigint, minGasUnitPrice) : minGasUnitPrice);
  }
  if (!anyFull) {
    return { deprioritized: minGasUnitPrice, market: minGasUnitPrice, prioritized: nextBucket(minGasUnitPrice) };
  }
  const low = minOfAll(prices.slice(0, LOW_BLOCK_HISTORY));
  const market = maxOf(low, percentile(prices.slice(0, MARKET_BLOCK_HISTORY), 50));
  const aggressive = nextBucket(maxOf(market, percentile(prices.slice(0, AGGRESSIVE_BLOCK_HISTORY), 90)));
  return { deprioritized: low, market, prioritized: aggressive };
}

/**
 * Nearest-rank percentile of a non-empty list (the median of an even count is the upper middle value,
 * as aptos-core's index len*p/100 on the sorted list gives).
 */
export function percentile(values: readonly bigint[], p: number): bigint {
  if (values.length === 0) throw new RangeError("percentile of an empty list");
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const index = Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100));
  return sorted[index] as bigint;
}

function minOfAll(values: readonly bigint[]): bigint {
  return values.reduce((a, b) => (b < a ? b : a));
}

function maxOf(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
