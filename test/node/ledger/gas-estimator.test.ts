// The §2.5 gas estimate, the family's buckets and rules: low = min of the last 10 blocks, market =
// max(low, median of the last 30), aggressive = next bucket above max(market, p90 of the last 120),
// each block counting its lowest included price when full and the minimum price when not.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateGasPrice, isFullBlock, nextBucket, percentile } from "../../../src/node/ledger/gas-estimator.ts";
import { signedTransfer, testEngine } from "./helpers.ts";

const LIMITS = { transactionCapacity: 10, gasLimit: 1_000 };
const MIN = 100n;
const full = (price: bigint) => ({ userTransactions: 10, gasUsed: 90, minGasUnitPrice: price });
const quiet = () => ({ userTransactions: 0, gasUsed: 0, minGasUnitPrice: undefined });
const repeat = <T>(n: number, make: () => T): T[] => Array.from({ length: n }, make);

describe("nextBucket", () => {
  it("is the smallest bucket strictly above the price, or the price beyond the last bucket", () => {
    expect(nextBucket(0n)).toBe(150n);
    expect(nextBucket(100n)).toBe(150n);
    expect(nextBucket(150n)).toBe(300n);
    expect(nextBucket(999n)).toBe(1_000n);
    expect(nextBucket(10_000n)).toBe(100_000n);
    expect(nextBucket(1_000_000n)).toBe(1_000_000n);
    expect(nextBucket(5_000_000n)).toBe(5_000_000n);
  });
});

describe("percentile", () => {
  it("takes the element at len*p/100 of the sorted list", () => {
    expect(percentile([5n, 1n, 3n], 50)).toBe(3n);
    expect(percentile([4n, 1n, 3n, 2n], 50)).toBe(3n);
    expect(
      percentile(
        Array.from({ length: 10 }, (_, i) => BigInt(i)),
        90,
      ),
    ).toBe(9n);
    expect(() => percentile([], 50)).toThrow(RangeError);
  });
});

describe("isFullBlock", () => {
  it("is full at the transaction capacity or at the gas limit", () => {
    expect(isFullBlock({ userTransactions: 10, gasUsed: 1 }, LIMITS)).toBe(true);
    expect(isFullBlock({ userTransactions: 1, gasUsed: 1_000 }, LIMITS)).toBe(true);
    expect(isFullBlock({ userTransactions: 9, gasUsed: 999 }, LIMITS)).toBe(false);
  });
});

describe("estimateGasPrice", () => {
  it("without full blocks: the minimum price, and the next bucket for the aggressive estimate", () => {
    expect(estimateGasPrice([], LIMITS, MIN)).toEqual({ deprioritized: 100n, market: 100n, prioritized: 150n });
    expect(estimateGasPrice(repeat(200, quiet), LIMITS, MIN)).toEqual({ deprioritized: 100n, market: 100n, prioritized: 150n });
    expect(estimateGasPrice(repeat(5, quiet), LIMITS, 300n)).toEqual({ deprioritized: 300n, market: 300n, prioritized: 500n });
  });

  it("low from the last 10, market from the median of the last 30, aggressive from the p90 of the last 120", () => {
    // Latest first: 10 blocks at 150, 20 at 1,000, 90 at 10,000.
    const blocks = [...repeat(10, () => full(150n)), ...repeat(20, () => full(1_000n)), ...repeat(90, () => full(10_000n))];
    expect(estimateGasPrice(blocks, LIMITS, MIN)).toEqual({ deprioritized: 150n, market: 1_000n, prioritized: 100_000n });
  });

  it("market never below low, aggressive never below market", () => {
    // 10 at 3,000, 20 at 500, 90 at 200: the median of 30 (500) is below low (3,000).
    const blocks = [...repeat(10, () => full(3_000n)), ...repeat(20, () => full(500n)), ...repeat(90, () => full(200n))];
    expect(estimateGasPrice(blocks, LIMITS, MIN)).toEqual({ deprioritized: 3_000n, market: 3_000n, prioritized: 5_000n });
  });

  it("a block that is not full counts as the minimum price", () => {
    const blocks = [full(1_000n), quiet(), ...repeat(8, () => full(1_000n)), ...repeat(110, () => full(1_000n))];
    expect(estimateGasPrice(blocks, LIMITS, MIN)).toEqual({ deprioritized: 100n, market: 1_000n, prioritized: 3_000n });
  });

  it("only the latest 120 blocks count", () => {
    const blocks = [...repeat(120, quiet), ...repeat(100, () => full(5_000n))];
    expect(estimateGasPrice(blocks, LIMITS, MIN)).toEqual({ deprioritized: 100n, market: 100n, prioritized: 150n });
  });

  it("beyond the last bucket the aggressive estimate is the price itself", () => {
    expect(
      estimateGasPrice(
        repeat(120, () => full(2_000_000n)),
        LIMITS,
        MIN,
      ),
    ).toEqual({
      deprioritized: 2_000_000n,
      market: 2_000_000n,
      prioritized: 2_000_000n,
    });
  });

  it("always orders deprioritized <= market <= prioritized (property)", () => {
    const block = fc.oneof(
      fc.constant(quiet()),
      fc.bigInt({ min: 100n, max: 2_000_000n }).map((price) => full(price)),
      fc.record({
        userTransactions: fc.integer({ min: 0, max: 12 }),
        gasUsed: fc.integer({ min: 0, max: 2_000 }),
        minGasUnitPrice: fc.option(fc.bigInt({ min: 100n, max: 20_000n }), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 150 }), (blocks) => {
        const estimate = estimateGasPrice(blocks, LIMITS, MIN);
        return MIN <= estimate.deprioritized && estimate.deprioritized <= estimate.market && estimate.market <= estimate.prioritized;
      }),
      { numRuns: 300 },
    );
  });
});

describe("the engine's estimate over its own blocks", () => {
  it("is the minimum price while blocks are not full", () => {
    const { engine } = testEngine();
    expect(engine.gasEstimate()).toEqual({ deprioritized: 100n, market: 100n, prioritized: 150n });
  });

  it("follows the prices of full blocks", () => {
    // A capacity of one transaction per block: every block carrying a transfer is full.
    const t = testEngine({ blockTransactionCapacity: 1 });
    const [alice] = t.genesis.keys.funded;
    if (!alice) throw new Error("a funded account");
    for (let seq = 0n; seq < 12n; seq++) {
      t.engine.submit(signedTransfer(alice, { sequenceNumber: seq, nowSeconds: t.engine.ledger.nowSeconds, gasUnitPrice: 500n }));
    }
    for (let i = 0; i < 12; i++) t.nextBlock();
    const recent = [...t.engine.ledger.blocks.recent(12)];
    expect(recent.every((b) => b.userTransactions === 1 && b.minGasUnitPrice === 500n)).toBe(true);
    // Latest 12 full at 500, then genesis blocks (full at 100 or quiet at the minimum, 100).
    expect(t.engine.gasEstimate()).toEqual({ deprioritized: 500n, market: 500n, prioritized: 1_000n });
  });
});
