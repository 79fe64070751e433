// The pruning window: the oldest version and the oldest block height move forward as blocks come, reads
// below the oldest version answer 410 version_pruned, and the stores forget what fell out of the window.

import { describe, expect, it } from "vitest";
import { parseAddress } from "../../../src/codec/index.ts";
import { BlockLog } from "../../../src/node/ledger/block-log.ts";
import { oldestBlockHeight, Pruner } from "../../../src/node/ledger/pruner.ts";
import { ledgerErrorOf, testEngine } from "./helpers.ts";

const FRAMEWORK = parseAddress("0x1");

describe("Pruner", () => {
  it("keeps the latest `window` versions", () => {
    const pruner = new Pruner(100n, []);
    expect(pruner.oldestVersion(0n)).toBe(0n);
    expect(pruner.oldestVersion(99n)).toBe(0n);
    expect(pruner.oldestVersion(100n)).toBe(1n);
    expect(pruner.oldestVersion(1_000n)).toBe(901n);
  });

  it("prunes its targets in batches of a sixteenth of the window, never past the oldest version", () => {
    const calls: bigint[] = [];
    const pruner = new Pruner(160n, [{ pruneBelow: (v) => calls.push(v) }]);
    for (let latest = 0n; latest < 400n; latest++) pruner.afterCommit(latest);
    expect(calls.length).toBeGreaterThan(5);
    for (const [i, v] of calls.entries()) {
      expect(v % 10n, `batch ${i}`).toBe(0n);
      if (i > 0) expect(v).toBeGreaterThan(calls[i - 1] as bigint);
    }
    expect(calls[calls.length - 1]).toBeLessThanOrEqual(pruner.oldestVersion(399n));
  });

  it("rejects an empty window", () => {
    expect(() => new Pruner(0n, [])).toThrow(RangeError);
  });
});

describe("oldestBlockHeight", () => {
  it("is the first block whose metadata version is not pruned", () => {
    const log = new BlockLog();
    const block = (first: bigint, last: bigint) => ({
      epoch: 1n,
      firstVersion: first,
      lastVersion: last,
      timestampUsec: first + 1n,
      userTransactions: 0,
      gasUsed: 0,
      minGasUnitPrice: undefined,
    });
    log.append(block(0n, 0n));
    log.append(block(1n, 4n));
    log.append(block(5n, 5n));
    log.append(block(6n, 9n));
    expect(oldestBlockHeight(log, 0n)).toBe(0n);
    expect(oldestBlockHeight(log, 1n)).toBe(1n);
    expect(oldestBlockHeight(log, 2n)).toBe(2n);
    expect(oldestBlockHeight(log, 5n)).toBe(2n);
    expect(oldestBlockHeight(log, 7n)).toBe(3n); // no block starts later: the latest
  });
});

describe("the engine's window", () => {
  it("prunes by default: the oldest version is above 0 from the start", () => {
    const { engine, config } = testEngine();
    const info = engine.info();
    expect(info.oldestLedgerVersion).toBeGreaterThan(0n);
    expect(info.oldestLedgerVersion).toBe(info.ledgerVersion - config.pruneWindow + 1n);
    expect(info.oldestBlockHeight).toBeGreaterThan(0n);
    expect(info.oldestBlockHeight).toBeLessThanOrEqual(info.blockHeight);
  });

  it("moves the oldest version and the oldest block height forward as blocks come", () => {
    const t = testEngine({ pruneWindow: 1_000 });
    const { engine } = t;
    const before = engine.info();
    for (let i = 0; i < 30; i++) t.nextBlock();
    const after = engine.info();
    expect(after.oldestLedgerVersion).toBe(before.oldestLedgerVersion + 30n);
    expect(after.oldestBlockHeight).toBeGreaterThan(before.oldestBlockHeight);
    const oldestBlock = engine.ledger.blocks.at(after.oldestBlockHeight);
    expect(oldestBlock?.firstVersion).toBeGreaterThanOrEqual(after.oldestLedgerVersion);
  });

  it("answers 410 version_pruned below the oldest version and 404 version_not_found above the latest", () => {
    const t = testEngine();
    const { engine, fixtures } = t;
    const handle = parseAddress(fixtures.table.handle);
    const tableRequest = { keyType: fixtures.table.keyType, valueType: fixtures.table.valueType, key: fixtures.table.key };
    for (let i = 0; i < 3; i++) t.nextBlock();
    const { oldestLedgerVersion: oldest, ledgerVersion: latest } = engine.info();

    expect(engine.getModule(FRAMEWORK, "coin", oldest).abi.name).toBe("coin");
    expect(engine.getModule(FRAMEWORK, "coin", latest).abi.name).toBe("coin");
    expect(engine.getTableItem(handle, tableRequest, oldest).json).toMatch(/^0x[0-9a-f]{64}$/);

    const pruned = [
      ledgerErrorOf(() => engine.getModule(FRAMEWORK, "coin", oldest - 1n)),
      ledgerErrorOf(() => engine.listModules(FRAMEWORK, { version: 0n, limit: 10 })),
      ledgerErrorOf(() => engine.getTableItem(handle, tableRequest, oldest - 1n)),
      ledgerErrorOf(() => engine.transactionSummaries(FRAMEWORK, { startVersion: oldest - 1n, limit: 10 })),
      ledgerErrorOf(() => engine.transactionSummaries(FRAMEWORK, { endVersion: oldest - 1n, limit: 10 })),
    ];
    for (const error of pruned) expect([error.status, error.code]).toEqual([410, "version_pruned"]);

    const future = [
      ledgerErrorOf(() => engine.getModule(FRAMEWORK, "coin", latest + 1n)),
      ledgerErrorOf(() => engine.listModules(FRAMEWORK, { version: latest + 1n, limit: 10 })),
      ledgerErrorOf(() => engine.getTableItem(handle, tableRequest, latest + 1n)),
    ];
    for (const error of future) expect([error.status, error.code]).toEqual([404, "version_not_found"]);
  });

  it("forgets committed transactions that fell out of the window", () => {
    const t = testEngine({ pruneWindow: 1_000, backgroundTransfersPerBlock: 1 });
    const { engine, genesis } = t;
    const first = genesis.transferVersions[0] as bigint;
    expect(first).toBeLessThan(engine.info().oldestLedgerVersion); // already pruned at start
    const account = genesis.keys.transactions.address;
    const retainedBefore = engine.ledger.transactions.ofSender(account);
    const earliest = retainedBefore[0];
    if (earliest === undefined) throw new Error("the transactions account has retained transactions");
    // Each block adds its metadata version and one background transfer: 600 blocks push every genesis
    // transaction out of a window of 1,000 versions.
    for (let i = 0; i < 600; i++) t.nextBlock();
    const info = engine.info();
    expect(earliest.version).toBeLessThan(info.oldestLedgerVersion);
    expect(engine.committedTransaction(earliest.hash)).toBeUndefined();
    for (const txn of engine.ledger.transactions.ofSender(account)) {
      // Physical pruning may lag the window by a batch, never run ahead of it.
      expect(txn.version).toBeGreaterThanOrEqual(info.oldestLedgerVersion - 1_000n / 16n);
    }
    const summaries = engine.transactionSummaries(account, { limit: 100 });
    expect(summaries.length).toBe(100);
    expect(summaries.every((s) => s.version >= info.oldestLedgerVersion)).toBe(true);
  });
});
