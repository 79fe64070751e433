// A process builds the genesis of a configuration once and gives the next engine of that configuration
// a copy (src/node/ledger/genesis/reuse.ts): the same chain as a genesis built now, its blocks at the new
// engine's time, independent of every other copy, and built anew once the kept one is over a minute old.

import { describe, expect, it } from "vitest";
import { parseAddress } from "../../../src/codec/index.ts";
import { ManualClock } from "../../../src/node/ledger/clock.ts";
import { forgetBuiltGeneses } from "../../../src/node/ledger/genesis/reuse.ts";
import type { LedgerEngine } from "../../../src/node/ledger/index.ts";
import { START_MS, signedTransfer, testEngine, type TestEngine } from "./helpers.ts";

/** A seed of this file's own: no other test's engines share its kept genesis. */
const SEED = "genesis-reuse";

/** The chain as reads see it: every retained block, and the transactions account's transactions. */
function chainOf(t: TestEngine) {
  const { engine } = t;
  const ledger = engine.ledger;
  const blocks = [];
  for (let h = 0n; h <= ledger.blocks.latest().height; h++) {
    const block = ledger.blocks.at(h);
    if (block !== undefined) blocks.push(block);
  }
  // A copy of the list: the log's own grows with the engine, and a chain taken before must not.
  const transactions = [...ledger.transactions.ofSender(parseAddress(t.fixtures.transactionsAccount))];
  return { info: engine.info(), fixtures: t.fixtures, blocks, transactions };
}

const modules = (engine: LedgerEngine) => engine.listModules(parseAddress("0x1"), { limit: 100 });

describe("a genesis reused within a process", () => {
  it("is the chain a genesis built at the same time is, transaction for transaction", () => {
    forgetBuiltGeneses();
    const built = testEngine({ seed: SEED });
    const copied = testEngine({ seed: SEED });
    forgetBuiltGeneses();
    const builtAgain = testEngine({ seed: SEED });
    expect(chainOf(copied)).toEqual(chainOf(built));
    expect(chainOf(builtAgain)).toEqual(chainOf(built));
    expect(modules(copied.engine)).toEqual(modules(built.engine));
  });

  it("starts at the new engine's time: every block as much later, the versions and fixtures the same", () => {
    forgetBuiltGeneses();
    const built = testEngine({ seed: SEED });
    const thirtySeconds = testEngineAt(START_MS + 30_000);
    const a = chainOf(built);
    const b = chainOf(thirtySeconds);
    expect(b.info).toEqual({ ...a.info, ledgerTimestampUsec: a.info.ledgerTimestampUsec + 30_000_000n });
    expect(b.fixtures).toEqual(a.fixtures);
    expect(b.blocks).toEqual(a.blocks.map((block) => ({ ...block, timestampUsec: block.timestampUsec + 30_000_000n })));
    expect(b.transactions.map((txn) => txn.version)).toEqual(a.transactions.map((txn) => txn.version));
    // A copy, not a genesis built again: the transfers are the ones signed then, expiration times included.
    expect(b.transactions.map((txn) => txn.hash)).toEqual(a.transactions.map((txn) => txn.hash));
    // Each transfer expires after the block that committed it, as in a genesis built at that time.
    expect(b.transactions.length).toBeGreaterThan(0);
    for (const txn of b.transactions) {
      const block = thirtySeconds.engine.ledger.blocks.at(txn.blockHeight);
      expect(block, `the block of version ${txn.version}`).toBeDefined();
      expect(txn.signed.raw_txn.expiration_timestamp_secs * 1_000_000n).toBeGreaterThan(block?.timestampUsec ?? 0n);
    }
  });

  it("leaves every other copy and the kept genesis as they were when one engine moves on", () => {
    forgetBuiltGeneses();
    const first = testEngine({ seed: SEED });
    const second = testEngine({ seed: SEED });
    const before = chainOf(first);
    // A transfer from an account genesis funded, and one from the account whose transactions genesis
    // committed: both add to histories the copies were made with.
    const funded = second.genesis.keys.funded[0];
    if (funded === undefined) throw new Error("no funded account");
    const busy = second.genesis.keys.transactions;
    const busyNext = second.engine.account(busy.address).sequenceNumber;
    const nowSeconds = second.engine.ledger.nowSeconds;
    second.engine.submit(signedTransfer(funded, { sequenceNumber: 0n, nowSeconds }));
    const { hash } = second.engine.submit(signedTransfer(busy, { sequenceNumber: busyNext, nowSeconds }));
    // A nonce of an orderless transaction of the account whose orderless transfers genesis committed.
    second.engine.ledger.nonces.record(busy.address, 7n, nowSeconds + 600n);
    for (let i = 0; i < 3; i++) second.nextBlock();
    expect(second.engine.info().ledgerVersion).toBeGreaterThan(before.info.ledgerVersion);
    expect(second.engine.ledger.state.latestAccount(funded.address)?.sequenceNumber).toBe(1n);
    expect(second.engine.ledger.state.latestAccount(busy.address)?.sequenceNumber).toBe(busyNext + 1n);
    expect(chainOf(first)).toEqual(before);
    expect(first.engine.ledger.state.latestAccount(funded.address)?.sequenceNumber).toBe(0n);
    expect(first.engine.ledger.state.latestAccount(busy.address)?.sequenceNumber).toBe(busyNext);
    expect(second.engine.ledger.transactions.withHash(hash)).toBeDefined();
    expect(first.engine.ledger.transactions.withHash(hash)).toBeUndefined();
    expect(second.engine.ledger.nonces.isUsed(busy.address, 7n, nowSeconds)).toBe(true);
    expect(first.engine.ledger.nonces.isUsed(busy.address, 7n, nowSeconds)).toBe(false);
    // Each copy's bot goes on from where genesis left it, on its own: both send the same next transfer.
    const nextTransfer = (t: TestEngine) => t.genesis.bot.next(busyNext, nowSeconds);
    expect(nextTransfer(second)).toEqual(nextTransfer(first));
    const third = testEngine({ seed: SEED });
    expect(chainOf(third)).toEqual(before);
  });

  it("is built anew once the kept genesis is over a minute away from the new engine's time", () => {
    forgetBuiltGeneses();
    const built = testEngine({ seed: SEED });
    const hourLater = testEngineAt(START_MS + 3_600_000);
    // Built at its own time: its transfers are signed with their own expiration times.
    const expirations = (t: TestEngine) => chainOf(t).transactions.map((txn) => txn.signed.raw_txn.expiration_timestamp_secs);
    expect(expirations(hourLater)).toEqual(expirations(built).map((secs) => secs + 3_600n));
  });
});

function testEngineAt(startMs: number): TestEngine {
  const clock = new ManualClock(startMs);
  return testEngine({ seed: SEED, clock });
}
