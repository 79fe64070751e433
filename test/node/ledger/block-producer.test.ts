// The block producer on a clock the test drives: one block per interval, a block-metadata transaction
// opening each block (so versions move without user transactions), heights, timestamps and epochs.

import { describe, expect, it } from "vitest";
import { signedTransfer, START_MS, testEngine } from "./helpers.ts";

describe("block production on a ManualClock", () => {
  it("produces nothing before an interval has passed, then one block per interval", () => {
    const t = testEngine({ blockIntervalMs: 500 });
    const { engine, clock } = t;
    const start = engine.info();
    expect(start.ledgerTimestampUsec).toBe(BigInt(START_MS) * 1000n);

    clock.advance(499);
    expect(engine.tick()).toBe(0);
    expect(engine.info().blockHeight).toBe(start.blockHeight);

    clock.advance(1);
    expect(engine.tick()).toBe(1);
    const one = engine.info();
    expect(one.blockHeight).toBe(start.blockHeight + 1n);
    // The block-metadata transaction alone takes a version.
    expect(one.ledgerVersion).toBe(start.ledgerVersion + 1n);
    expect(one.ledgerTimestampUsec).toBe(start.ledgerTimestampUsec + 500_000n);

    clock.advance(1_500);
    expect(engine.tick()).toBe(3);
    const four = engine.info();
    expect(four.blockHeight).toBe(start.blockHeight + 4n);
    expect(four.ledgerVersion).toBe(start.ledgerVersion + 4n);
    expect(four.ledgerTimestampUsec).toBe(start.ledgerTimestampUsec + 4n * 500_000n);
    const blocks = [...engine.ledger.blocks.recent(4)].reverse();
    expect(blocks.map((b) => b.timestampUsec - start.ledgerTimestampUsec)).toEqual([500_000n, 1_000_000n, 1_500_000n, 2_000_000n]);
    expect(blocks.map((b) => b.firstVersion)).toEqual([1n, 2n, 3n, 4n].map((d) => start.ledgerVersion + d));
  });

  it("info() catches up with the clock by itself (autoTick)", () => {
    const { engine, clock, config } = testEngine();
    const before = engine.info();
    clock.advance(config.blockIntervalMs * 2);
    expect(engine.info().blockHeight).toBe(before.blockHeight + 2n);
  });

  it("does not catch up by itself with autoTick off", () => {
    const { engine, clock, config } = testEngine({ autoTick: false });
    const before = engine.info();
    clock.advance(config.blockIntervalMs * 2);
    expect(engine.info().blockHeight).toBe(before.blockHeight);
    engine.tick();
    expect(engine.info().blockHeight).toBe(before.blockHeight + 2n);
  });

  it("puts user transactions after the block-metadata transaction, each at its own version", () => {
    const t = testEngine();
    const { engine, genesis } = t;
    const [alice, bob] = genesis.keys.funded;
    if (!alice || !bob) throw new Error("genesis has funded accounts");
    const before = engine.info();
    const now = engine.ledger.nowSeconds;
    engine.submit(signedTransfer(alice, { sequenceNumber: 0n, nowSeconds: now, to: bob.address }));
    engine.submit(signedTransfer(bob, { sequenceNumber: 0n, nowSeconds: now, to: alice.address }));
    t.nextBlock();
    const block = engine.ledger.blocks.latest();
    expect(block.firstVersion).toBe(before.ledgerVersion + 1n);
    expect(block.lastVersion).toBe(before.ledgerVersion + 3n);
    expect(block.userTransactions).toBe(2);
    expect(engine.info().ledgerVersion).toBe(before.ledgerVersion + 3n);
    const versions = [alice, bob].map((a) => engine.ledger.transactions.ofSender(a.address)[0]?.version);
    expect(versions.sort()).toEqual([before.ledgerVersion + 2n, before.ledgerVersion + 3n]);
  });

  it("changes epoch every epochBlocks blocks", () => {
    const t = testEngine({ epochBlocks: 10 });
    const { engine } = t;
    for (let i = 0; i < 25; i++) {
      t.nextBlock();
      const info = engine.info();
      expect(info.epoch, `epoch at height ${info.blockHeight}`).toBe(1n + info.blockHeight / 10n);
    }
    const epochs = new Set([...engine.ledger.blocks.recent(25)].map((b) => b.epoch));
    expect(epochs.size).toBeGreaterThanOrEqual(3);
  });

  it("after a long pause produces at most maxCatchUpBlocks blocks and lands on the clock's time", () => {
    const { engine, clock } = testEngine({ maxCatchUpBlocks: 5, blockIntervalMs: 1_000 });
    const before = engine.info();
    clock.advance(100_000);
    expect(engine.tick()).toBe(5);
    const after = engine.info();
    expect(after.blockHeight).toBe(before.blockHeight + 5n);
    expect(after.ledgerTimestampUsec).toBe(before.ledgerTimestampUsec + 100_000_000n);
  });

  it("keeps the transactions account busy: a background transfer after each block", () => {
    const t = testEngine({ backgroundTransfersPerBlock: 1 });
    const { engine, genesis } = t;
    const account = genesis.keys.transactions.address;
    const before = engine.ledger.transactions.ofSender(account).length;
    t.nextBlock(); // submits the first background transfer
    t.nextBlock(); // commits it, submits the next
    t.nextBlock();
    expect(engine.ledger.transactions.ofSender(account).length).toBe(before + 2);
    const latest = engine.ledger.blocks.latest();
    expect(latest.userTransactions).toBe(1);
  });
});
