// The block log: typed-array columns that follow the pruning window.

import { describe, expect, it } from "vitest";
import { BlockLog } from "../../../src/node/ledger/block-log.ts";

const block = (first: bigint, last: bigint, timestampUsec = 1_000n + first) => ({
  epoch: 1n,
  firstVersion: first,
  lastVersion: last,
  timestampUsec,
  userTransactions: Number(last - first),
  gasUsed: 7,
  minGasUnitPrice: last > first ? 100n : undefined,
});

describe("BlockLog", () => {
  it("appends consecutive blocks and reads them back by height", () => {
    const log = new BlockLog(2);
    log.append(block(0n, 0n));
    log.append(block(1n, 3n));
    log.append(block(4n, 4n));
    expect(log.count).toBe(3);
    expect(log.latest()).toEqual({ height: 2n, ...block(4n, 4n) });
    expect(log.at(1n)).toEqual({ height: 1n, ...block(1n, 3n) });
    expect(log.at(3n)).toBeUndefined();
    expect([...log.recent(2)].map((b) => b.height)).toEqual([2n, 1n]);
  });

  it("refuses a block that does not follow the last version", () => {
    const log = new BlockLog();
    log.append(block(0n, 2n));
    expect(() => log.append(block(4n, 4n))).toThrow(RangeError);
    expect(() => log.append(block(3n, 2n))).toThrow(RangeError);
  });

  it("lays down empty blocks in bulk and prunes them, heights surviving compaction", () => {
    const log = new BlockLog();
    log.append(block(0n, 0n));
    log.appendEmpty(100_000, (h) => 1 + Math.floor(h / 1_000), 1n, 10_000n, 5n);
    expect(log.latest()).toMatchObject({ height: 100_000n, firstVersion: 100_000n, timestampUsec: 10_000n + 99_999n * 5n, epoch: 101n });
    log.pruneBelow(99_990n);
    expect(log.count).toBe(11);
    expect(log.at(99_989n)).toBeUndefined();
    expect(log.at(99_990n)).toMatchObject({ firstVersion: 99_990n, userTransactions: 0, minGasUnitPrice: undefined });
    expect(log.firstStartingAtOrAfter(99_995n)?.height).toBe(99_995n);
    log.append(block(100_001n, 100_003n, 1_000_000n));
    expect(log.latest().height).toBe(100_001n);
  });

  it("keeps the latest block whatever the pruning", () => {
    const log = new BlockLog();
    log.append(block(0n, 5n));
    log.pruneBelow(100n);
    expect(log.count).toBe(1);
    expect(log.latest().lastVersion).toBe(5n);
  });
});
