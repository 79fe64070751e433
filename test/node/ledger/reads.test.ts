// Reads the HTTP face pages through: the modules listing with its cursor (§4.5, the family's convention), transaction
// summary windows (§4.3, the family's convention), and table items (§4.2).

import { beforeAll, describe, expect, it } from "vitest";
import { parseAddress, toHex } from "../../../src/codec/index.ts";
import { moduleCursor } from "../../../src/node/ledger/index.ts";
import { ledgerErrorOf, testEngine, type TestEngine } from "./helpers.ts";

const FRAMEWORK = parseAddress("0x1");
let t: TestEngine;

beforeAll(() => {
  t = testEngine();
});

describe("modules listing", () => {
  it("pages through every module in order; each cursor names the next module and the last page has none", () => {
    const all = t.engine.listModules(FRAMEWORK, { limit: 9999 });
    expect(all.nextCursor).toBeUndefined();
    const names = all.modules.map((m) => m.abi.name);
    expect(names).toEqual([...names].sort());

    const seen: string[] = [];
    let start: string | undefined;
    for (let page = 0; page < 100; page++) {
      const result = t.engine.listModules(FRAMEWORK, { start, limit: 7 });
      if (start !== undefined) expect(result.modules[0]?.abi.name).toBe(names[seen.length]);
      seen.push(...result.modules.map((m) => m.abi.name));
      if (result.nextCursor === undefined) break;
      expect(result.modules).toHaveLength(7);
      expect(result.nextCursor).toMatch(/^0x([0-9a-f]{2})+$/);
      expect(result.nextCursor).toBe(moduleCursor(FRAMEWORK, names[seen.length] as string));
      start = result.nextCursor;
    }
    expect(seen).toEqual(names);
  });

  it("has no cursor when the page ends exactly at the last module", () => {
    const count = t.engine.listModules(FRAMEWORK, { limit: 9999 }).modules.length;
    expect(t.engine.listModules(FRAMEWORK, { limit: count }).nextCursor).toBeUndefined();
    const short = t.engine.listModules(FRAMEWORK, { limit: count - 1 });
    expect(short.modules).toHaveLength(count - 1);
    expect(short.nextCursor).toBeDefined();
    const last = t.engine.listModules(FRAMEWORK, { start: short.nextCursor, limit: count });
    expect(last.modules).toHaveLength(1);
    expect(last.nextCursor).toBeUndefined();
  });

  it("lists at a version: a module published later is not in an earlier listing", () => {
    const before = t.genesis.randomnessPublishedAt - 1n;
    const names = (version: bigint) => t.engine.listModules(FRAMEWORK, { version, limit: 9999 }).modules.map((m) => m.abi.name);
    expect(names(before)).not.toContain("randomness");
    expect(names(t.genesis.randomnessPublishedAt)).toContain("randomness");
    // A cursor naming it still works at the earlier version: the listing goes on from the next module.
    const page = t.engine.listModules(FRAMEWORK, { version: before, start: moduleCursor(FRAMEWORK, "randomness"), limit: 1 });
    expect(page.modules[0]?.abi.name).toBe("reconfiguration");
  });

  it("answers 400 invalid_input for a cursor it did not issue", () => {
    const other = parseAddress("0x2");
    const bad = [
      "0x00ff",
      toHex(new TextEncoder().encode("module:0x1::coin")),
      moduleCursor(other, "coin"),
      moduleCursor(FRAMEWORK, "no_such_module"),
      "zz",
    ];
    for (const start of bad) {
      const error = ledgerErrorOf(() => t.engine.listModules(FRAMEWORK, { start, limit: 5 }));
      expect([error.status, error.code], start).toEqual([400, "invalid_input"]);
    }
  });

  it("lists nothing, without a cursor, for an account without modules", () => {
    expect(t.engine.listModules(parseAddress("0xabc"), { limit: 10 })).toEqual({ modules: [] });
  });

  it("answers 404 module_not_found for a module the account does not have", () => {
    const error = ledgerErrorOf(() => t.engine.getModule(FRAMEWORK, "no_such_module"));
    expect([error.status, error.code]).toEqual([404, "module_not_found"]);
  });
});

describe("transaction summaries", () => {
  const account = () => parseAddress(t.fixtures.transactionsAccount);
  const retained = () => {
    const oldest = t.engine.info().oldestLedgerVersion;
    return t.engine.ledger.transactions
      .ofSender(account())
      .filter((x) => x.version >= oldest)
      .map((x) => x.version);
  };

  it("without start or end: the most recent, ascending", () => {
    const versions = retained();
    const page = t.engine.transactionSummaries(account(), { limit: 25 });
    expect(page.map((s) => s.version)).toEqual(versions.slice(-25));
  });

  it("with start_version: scans forward from it, ignoring end_version", () => {
    const versions = retained();
    const start = (versions[10] as bigint) - 1n; // between two transactions
    const page = t.engine.transactionSummaries(account(), { startVersion: start, endVersion: versions[3], limit: 5 });
    expect(page.map((s) => s.version)).toEqual(versions.slice(10, 15));
  });

  it("with end_version only: ends there", () => {
    const versions = retained();
    const end = versions[40] as bigint;
    const page = t.engine.transactionSummaries(account(), { endVersion: end, limit: 6 });
    expect(page.map((s) => s.version)).toEqual(versions.slice(35, 41));
    expect(t.engine.transactionSummaries(account(), { endVersion: end + 1n, limit: 6 }).map((s) => s.version)).toEqual(
      versions.slice(35, 41),
    );
  });

  it("pages forward through every retained transaction without gaps or repeats", () => {
    const versions = retained();
    const seen: bigint[] = [];
    let start = t.engine.info().oldestLedgerVersion;
    for (let i = 0; i < 1000; i++) {
      const page = t.engine.transactionSummaries(account(), { startVersion: start, limit: 17 });
      seen.push(...page.map((s) => s.version));
      if (page.length < 17) break;
      start = (page[page.length - 1]?.version as bigint) + 1n;
    }
    expect(seen).toEqual(versions);
  });

  it("lists [] for an account without transactions, and past the latest version", () => {
    expect(t.engine.transactionSummaries(parseAddress("0xabc"), { limit: 10 })).toEqual([]);
    const latest = t.engine.info().ledgerVersion;
    expect(t.engine.transactionSummaries(account(), { startVersion: latest + 1n, limit: 10 })).toEqual([]);
  });
});

describe("table items", () => {
  const table = (keyType: string) => {
    const found = t.genesis.tables.find((x) => x.keyType === keyType);
    if (!found) throw new Error(`a table keyed by ${keyType}`);
    return found;
  };

  it("reads items under each key type, as JSON and as the value's BCS", () => {
    for (const keyType of ["u64", "address", "0x1::string::String", "0x1::aptos_governance::RecordKey"]) {
      const tbl = table(keyType);
      const item = tbl.initial[20];
      if (!item) throw new Error("an item");
      const read = t.engine.getTableItem(tbl.handle, { keyType, valueType: tbl.valueType, key: item.key });
      expect(read.json, keyType).toEqual(item.value);
      expect(read.bcs.length).toBeGreaterThan(0);
    }
  });

  it("ignores blanks in type tags", () => {
    const tbl = table("0x1::aptos_governance::RecordKey");
    const item = tbl.initial[3];
    const read = t.engine.getTableItem(tbl.handle, {
      keyType: " 0x1 :: aptos_governance :: RecordKey ",
      valueType: " bool",
      key: item?.key,
    });
    expect(read.json).toBe(item?.value);
  });

  it("answers 400 invalid_input for an unparsable type or a key that does not fit it", () => {
    const tbl = table("u64");
    const cases = [
      { keyType: "u64<", valueType: "address", key: "7" },
      { keyType: "u64", valueType: "not a type", key: "7" },
      { keyType: "u64", valueType: "address", key: 7 },
      { keyType: "u64", valueType: "address", key: "-1" },
      { keyType: "u8", valueType: "address", key: 300 },
      { keyType: "signer", valueType: "address", key: "7" },
      { keyType: "0x1::no_such::Struct", valueType: "address", key: {} },
      { keyType: "0x1::aptos_governance::RecordKey", valueType: "bool", key: { stake_pool: "0x1" } },
    ];
    for (const request of cases) {
      const error = ledgerErrorOf(() => t.engine.getTableItem(tbl.handle, request));
      expect([error.status, error.code], JSON.stringify(request)).toEqual([400, "invalid_input"]);
    }
  });

  it("answers 400 invalid_input when the stored value is not of the requested value type", () => {
    const tbl = table("u64");
    const error = ledgerErrorOf(() => t.engine.getTableItem(tbl.handle, { keyType: "u64", valueType: "u8", key: "7" }));
    expect([error.status, error.code]).toEqual([400, "invalid_input"]);
  });

  it("answers 404 table_item_not_found for a missing key, a key of another type, or an unknown table", () => {
    const tbl = table("u64");
    const cases = [
      { handle: tbl.handle, request: { keyType: "u64", valueType: "address", key: "999999" } },
      { handle: tbl.handle, request: { keyType: "u32", valueType: "address", key: 7 } },
      { handle: parseAddress("0x1234"), request: { keyType: "u64", valueType: "address", key: "7" } },
    ];
    for (const { handle, request } of cases) {
      const error = ledgerErrorOf(() => t.engine.getTableItem(handle, request));
      expect([error.status, error.code]).toEqual([404, "table_item_not_found"]);
    }
  });
});
