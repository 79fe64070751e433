// Genesis: deterministic from the seed, a framework of at least 30 modules with realistic ABIs at 0x1,
// funded accounts with known keys, an account with at least 250 committed transactions (some already
// pruned), tables of at least 100 items keyed by u64, address, String and a struct, and a node that
// prunes from the start.

import { beforeAll, describe, expect, it } from "vitest";
import { Ed25519Account, formatAddress, parseAddress, toHex, verifyTransactionAuthenticator } from "../../../src/codec/index.ts";
import { ManualClock } from "../../../src/node/ledger/clock.ts";
import { forgetBuiltGeneses } from "../../../src/node/ledger/genesis/reuse.ts";
import { createEngine } from "../../../src/node/ledger/index.ts";
import { ledgerErrorOf, SEED, signedTransfer, START_MS, testEngine, type TestEngine } from "./helpers.ts";

const FRAMEWORK = parseAddress("0x1");
let t: TestEngine;

beforeAll(() => {
  t = testEngine();
});

describe("determinism", () => {
  it("the same seed and start time give the same chain", () => {
    // Built again, not copied from the genesis this process keeps (src/node/ledger/genesis/reuse.ts).
    forgetBuiltGeneses();
    const again = testEngine();
    expect(again.fixtures).toEqual(t.fixtures);
    expect(again.engine.info()).toEqual(t.engine.info());
    const account = parseAddress(t.fixtures.transactionsAccount);
    expect(again.engine.transactionSummaries(account, { limit: 100 })).toEqual(t.engine.transactionSummaries(account, { limit: 100 }));
    expect(again.engine.listModules(FRAMEWORK, { limit: 100 })).toEqual(t.engine.listModules(FRAMEWORK, { limit: 100 }));
  });

  it("another start time moves the timestamps, not the accounts, modules or tables", () => {
    const later = createEngine({ seed: SEED, backgroundTransfersPerBlock: 0, clock: new ManualClock(START_MS + 3_600_000) });
    expect(later.fixtures).toEqual(t.fixtures);
    expect(later.engine.info().ledgerVersion).toBe(t.engine.info().ledgerVersion);
    expect(later.engine.info().ledgerTimestampUsec).toBe(t.engine.info().ledgerTimestampUsec + 3_600_000_000n);
    expect(later.engine.listModules(FRAMEWORK, { limit: 100 })).toEqual(t.engine.listModules(FRAMEWORK, { limit: 100 }));
  });

  it("another seed gives other keys and tables", () => {
    const other = testEngine({ seed: "another seed" });
    expect(other.fixtures.accounts).not.toEqual(t.fixtures.accounts);
    expect(other.fixtures.transactionsAccount).not.toBe(t.fixtures.transactionsAccount);
    expect(other.fixtures.table.handle).not.toBe(t.fixtures.table.handle);
    expect(other.fixtures.moduleAccount).toBe("0x1");
  });
});

describe("the fixtures", () => {
  it("have the fixtures file's members and name funded accounts whose keys sign for them", () => {
    const f = t.fixtures;
    expect(Object.keys(f).sort()).toEqual([
      "accounts",
      "chainId",
      "history",
      "moduleAccount",
      "moduleName",
      "multisigAccount",
      "table",
      "tables",
      "transactionsAccount",
    ]);
    expect(f.chainId).toBe(4);
    expect(f.accounts.length).toBeGreaterThanOrEqual(3);
    for (const account of f.accounts) {
      const key = Ed25519Account.fromHex(account.privateKey);
      expect(formatAddress(key.address)).toBe(account.address);
      const state = t.engine.ledger.state.latestAccount(key.address);
      expect(state?.sequenceNumber).toBe(0n);
      expect(state?.balance).toBeGreaterThan(1_000_000_000n);
    }
    expect(f.table).toEqual({ handle: expect.stringMatching(/^0x[0-9a-f]{64}$/), keyType: "u64", valueType: "address", key: "7" });
    expect(t.engine.getTableItem(parseAddress(f.table.handle), { keyType: "u64", valueType: "address", key: "7" }).json).toMatch(/^0x/);
    expect(t.engine.getModule(parseAddress(f.moduleAccount), f.moduleName).abi.name).toBe("coin");
  });

  it("name a module publication and a table insert inside the window: absent just before, present at their version", () => {
    const { modulePublished: m, tableItemInserted: i } = t.fixtures.history;
    const oldest = t.engine.ledger.oldestVersion;
    for (const at of [BigInt(m.version), BigInt(i.version)]) expect(at - 1n).toBeGreaterThanOrEqual(oldest);
    const address = parseAddress(m.address);
    expect(() => t.engine.getModule(address, m.name, BigInt(m.version) - 1n)).toThrow(/^Module .* not found at ledger version/);
    expect(t.engine.getModule(address, m.name, BigInt(m.version)).abi.name).toBe(m.name);
    const item = { keyType: i.keyType, valueType: i.valueType, key: i.key };
    expect(() => t.engine.getTableItem(parseAddress(i.handle), item, BigInt(i.version) - 1n)).toThrow(/^Table item not found/);
    expect(t.engine.getTableItem(parseAddress(i.handle), item, BigInt(i.version)).json).toBeDefined();
  });

  it("every funded account can submit", () => {
    const fresh = testEngine();
    for (const key of fresh.genesis.keys.funded) {
      const result = fresh.engine.submit(signedTransfer(key, { sequenceNumber: 0n, nowSeconds: fresh.engine.ledger.nowSeconds }));
      expect(result.hash).toHaveLength(32);
    }
    fresh.nextBlock();
    expect(fresh.engine.ledger.blocks.latest().userTransactions).toBe(fresh.genesis.keys.funded.length);
  });
});

describe("the framework at 0x1", () => {
  it("has at least 30 modules, each with functions or structs and its own Move bytecode", () => {
    const { modules } = t.engine.listModules(FRAMEWORK, { limit: 9999 });
    expect(modules.length).toBeGreaterThanOrEqual(30);
    const bytecodes = new Set<string>();
    for (const module of modules) {
      expect(toHex(module.bytecode.slice(0, 4)), module.abi.name).toBe("0xa11ceb0b");
      bytecodes.add(toHex(module.bytecode));
      expect(module.abi.address).toBe("0x1");
      expect(module.abi.exposed_functions.length + module.abi.structs.length).toBeGreaterThan(0);
    }
    expect(bytecodes.size).toBe(modules.length);
    const names = modules.map((m) => m.abi.name);
    for (const name of [
      "account",
      "aptos_account",
      "aptos_coin",
      "coin",
      "object",
      "fungible_asset",
      "primary_fungible_store",
      "table",
      "stake",
      "voting",
    ]) {
      expect(names).toContain(name);
    }
  });

  it("declares 0x1::aptos_account::transfer as an entry function and 0x1::coin::balance<CoinType> as a view", () => {
    const transfer = t.engine.getModule(FRAMEWORK, "aptos_account").abi.exposed_functions.find((f) => f.name === "transfer");
    expect(transfer).toEqual({
      name: "transfer",
      visibility: "public",
      is_entry: true,
      is_view: false,
      generic_type_params: [],
      params: ["&signer", "address", "u64"],
      return: [],
    });
    const balance = t.engine.getModule(FRAMEWORK, "coin").abi.exposed_functions.find((f) => f.name === "balance");
    expect(balance).toEqual({
      name: "balance",
      visibility: "public",
      is_entry: false,
      is_view: true,
      generic_type_params: [{ constraints: [] }],
      params: ["address"],
      return: ["u64"],
    });
  });

  it("has realistic variety: generics with constraints, friend functions, abilities and event structs", () => {
    const abis = t.engine.listModules(FRAMEWORK, { limit: 9999 }).modules.map((m) => m.abi);
    const functions = abis.flatMap((m) => m.exposed_functions);
    const structs = abis.flatMap((m) => m.structs);
    expect(functions.some((f) => f.visibility === "friend")).toBe(true);
    expect(functions.some((f) => f.visibility === "private" && f.is_entry)).toBe(true);
    expect(functions.some((f) => f.generic_type_params.some((g) => g.constraints.includes("key")))).toBe(true);
    expect(structs.some((s) => s.is_event)).toBe(true);
    expect(structs.some((s) => s.generic_type_params.length === 2)).toBe(true);
    const abilities = new Set(structs.flatMap((s) => s.abilities));
    expect([...abilities].sort()).toEqual(["copy", "drop", "key", "store"]);
    const coin = t.engine.getModule(FRAMEWORK, "coin").abi.structs.find((s) => s.name === "Coin");
    expect(coin).toMatchObject({
      abilities: ["store"],
      generic_type_params: [{ constraints: [] }],
      fields: [{ name: "value", type: "u64" }],
    });
  });

  it("is versioned: a module published during the history is absent before, an upgrade changes the ABI", () => {
    const { randomnessPublishedAt, gasScheduleUpgradedAt } = t.genesis;
    const { oldestLedgerVersion } = t.engine.info();
    expect(randomnessPublishedAt).toBeGreaterThan(oldestLedgerVersion);
    const missing = ledgerErrorOf(() => t.engine.getModule(FRAMEWORK, "randomness", randomnessPublishedAt - 1n));
    expect([missing.status, missing.code]).toEqual([404, "module_not_found"]);
    expect(t.engine.getModule(FRAMEWORK, "randomness", randomnessPublishedAt).abi.name).toBe("randomness");
    const count = (version: bigint) => t.engine.listModules(FRAMEWORK, { version, limit: 9999 }).modules.length;
    expect(count(randomnessPublishedAt)).toBe(count(randomnessPublishedAt - 1n) + 1);

    const functions = (version: bigint) => t.engine.getModule(FRAMEWORK, "gas_schedule", version).abi.exposed_functions.map((f) => f.name);
    expect(functions(gasScheduleUpgradedAt - 1n)).not.toContain("set_for_next_epoch_check_hash");
    expect(functions(gasScheduleUpgradedAt)).toContain("set_for_next_epoch_check_hash");
    expect(t.engine.getModule(FRAMEWORK, "gas_schedule", gasScheduleUpgradedAt).bytecode).not.toEqual(
      t.engine.getModule(FRAMEWORK, "gas_schedule", gasScheduleUpgradedAt - 1n).bytecode,
    );
  });
});

describe("the transactions account", () => {
  it("has at least 250 committed transactions, some already pruned", () => {
    const versions = t.genesis.transferVersions;
    expect(versions.length).toBeGreaterThanOrEqual(250);
    const { oldestLedgerVersion } = t.engine.info();
    const pruned = versions.filter((v) => v < oldestLedgerVersion).length;
    expect(pruned).toBeGreaterThan(0);
    expect(pruned).toBeLessThan(versions.length);
    const account = parseAddress(t.fixtures.transactionsAccount);
    const retained = t.engine.ledger.transactions.ofSender(account).filter((x) => x.version >= oldestLedgerVersion);
    expect(retained.length).toBe(versions.length - pruned);
    expect(retained.length).toBeGreaterThan(100); // several pages at a small limit
  });

  it("committed real signed transfers, of both replay-protection kinds", () => {
    const account = parseAddress(t.fixtures.transactionsAccount);
    const committed = t.engine.ledger.transactions.ofSender(account);
    for (const txn of committed.slice(0, 20)) {
      expect(verifyTransactionAuthenticator(txn.signed).ok).toBe(true);
      expect(txn.success).toBe(true);
      expect(txn.signed.raw_txn.payload.$kind === "EntryFunction" || txn.signed.raw_txn.payload.$kind === "Payload").toBe(true);
    }
    const kinds = new Set(committed.map((x) => x.replayProtector.type));
    expect([...kinds].sort()).toEqual(["nonce", "sequence_number"]);
    const sequenceNumbers = committed.flatMap((x) =>
      x.replayProtector.type === "sequence_number" ? [x.replayProtector.sequenceNumber] : [],
    );
    expect(sequenceNumbers).toEqual([...sequenceNumbers].sort((a, b) => (a < b ? -1 : 1)));
  });
});

describe("the tables", () => {
  it("hold at least 100 items each, keyed by u64, address, String and a framework struct", () => {
    const keyTypes = t.genesis.tables.map((table) => table.keyType).sort();
    expect(keyTypes).toEqual(["0x1::aptos_governance::RecordKey", "0x1::string::String", "address", "u64"]);
    const valueTypes = new Set(t.genesis.tables.map((table) => table.valueType));
    expect(valueTypes.size).toBe(4);
    for (const table of t.genesis.tables) {
      const deleted = new Set(table.deletes.map((k) => JSON.stringify(k)));
      const present = [...table.initial, ...table.late].filter((item) => !deleted.has(JSON.stringify(item.key)));
      expect(present.length, table.name).toBeGreaterThanOrEqual(100);
      for (const item of present) {
        const read = t.engine.getTableItem(table.handle, { keyType: table.keyType, valueType: table.valueType, key: item.key });
        const updated = table.updates.find((u) => JSON.stringify(u.key) === JSON.stringify(item.key));
        expect(read.json, `${table.name} ${JSON.stringify(item.key)}`).toEqual(updated?.value ?? item.value);
      }
    }
  });

  it("changed during the history: reads before and after each change differ as they should", () => {
    const { oldestLedgerVersion } = t.engine.info();
    const changes = t.genesis.tableChanges.filter((c) => c.version > oldestLedgerVersion);
    expect(changes.length).toBeGreaterThan(10);
    for (const change of changes) {
      const table = t.genesis.tables.find((x) => x.name === change.table);
      if (!table) throw new Error(`table ${change.table}`);
      const request = { keyType: table.keyType, valueType: table.valueType, key: change.key };
      const read = (version: bigint) => {
        try {
          return t.engine.getTableItem(table.handle, request, version).json;
        } catch (error) {
          return (error as { code?: string }).code;
        }
      };
      const before = read(change.version - 1n);
      const after = read(change.version);
      if (change.change === "insert") expect([before, after === "table_item_not_found"]).toEqual(["table_item_not_found", false]);
      if (change.change === "delete") expect([before === "table_item_not_found", after]).toEqual([false, "table_item_not_found"]);
      if (change.change === "update") expect(after).not.toEqual(before);
    }
  });
});

describe("pruning from the start", () => {
  it("starts with the oldest version above 0 and genesisVersions versions", () => {
    const info = t.engine.info();
    expect(info.oldestLedgerVersion).toBeGreaterThan(0n);
    expect(info.ledgerVersion).toBe(BigInt(t.config.genesisVersions - 1));
  });
});
