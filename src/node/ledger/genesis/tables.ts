// The tables genesis creates: at least 100 items each, keyed by u64, address, 0x1::string::String and
// a framework struct (0x1::aptos_governance::RecordKey, as in its VotingRecords), with values of
// different types. The genesis transaction writes most items; the history then inserts, updates and
// deletes a few, so reads at different versions see different tables.

import { encodeMoveValue, formatAddress, parseTypeTag, toHex, type StructResolver } from "../../../codec/index.ts";
import type { StateWrite } from "../state.ts";
import { derive } from "./keys.ts";

export interface TableItem {
  /** JSON forms, as a client sends the key and reads the value. */
  readonly key: unknown;
  readonly value: unknown;
}

export interface GenesisTable {
  readonly name: string;
  readonly handle: Uint8Array;
  readonly keyType: string;
  readonly valueType: string;
  /** Written by the genesis transaction. */
  readonly initial: readonly TableItem[];
  /** Inserted during the history. */
  readonly late: readonly TableItem[];
  /** New values of initial keys, written during the history. */
  readonly updates: readonly TableItem[];
  /** Initial keys removed during the history. */
  readonly deletes: readonly unknown[];
}

interface TableRecipe {
  readonly name: string;
  readonly keyType: string;
  readonly valueType: string;
  readonly count: number;
  readonly late: number;
  readonly item: (i: number) => TableItem;
  readonly updated: (i: number) => unknown;
  readonly updates: readonly number[];
  readonly deletes: readonly number[];
}

function build(seed: string, recipe: TableRecipe): GenesisTable {
  const items = Array.from({ length: recipe.count + recipe.late }, (_, i) => recipe.item(i));
  return {
    name: recipe.name,
    handle: derive(seed, `table-handle/${recipe.name}`),
    keyType: recipe.keyType,
    valueType: recipe.valueType,
    initial: items.slice(0, recipe.count),
    late: items.slice(recipe.count),
    updates: recipe.updates.map((i) => ({ key: (items[i] as TableItem).key, value: recipe.updated(i) })),
    deletes: recipe.deletes.map((i) => (items[i] as TableItem).key),
  };
}

/** The fixture table (the fixtures file's `table`): u64 keys, address values, key "7" present at the latest version. */
export const FIXTURE_TABLE = "validator_addresses";
export const FIXTURE_KEY = "7";

export function genesisTables(seed: string): GenesisTable[] {
  const address = (label: string) => formatAddress(derive(seed, label));
  return [
    build(seed, {
      name: FIXTURE_TABLE,
      keyType: "u64",
      valueType: "address",
      count: 120,
      late: 5,
      item: (i) => ({ key: String(i), value: address(`table/u64/${i}`) }),
      updated: (i) => address(`table/u64/${i}/updated`),
      updates: [3, 11],
      deletes: [100, 101],
    }),
    build(seed, {
      name: "pending_withdrawals",
      keyType: "address",
      valueType: "0x1::delegation_pool::ObservedLockupCycle",
      count: 110,
      late: 5,
      item: (i) => ({ key: address(`table/address/${i}`), value: { index: String(i % 17) } }),
      updated: () => ({ index: "99" }),
      updates: [2, 5],
      deletes: [50],
    }),
    build(seed, {
      name: "proposal_metadata",
      keyType: "0x1::string::String",
      valueType: "vector<u8>",
      count: 105,
      late: 5,
      item: (i) => ({
        key: `metadata_location/${String(i).padStart(3, "0")}`,
        value: toHex(derive(seed, `table/string/${i}`).slice(0, 8 + (i % 8))),
      }),
      updated: (i) => toHex(derive(seed, `table/string/${i}/updated`).slice(0, 4)),
      updates: [1],
      deletes: [60],
    }),
    build(seed, {
      name: "voting_records",
      keyType: "0x1::aptos_governance::RecordKey",
      valueType: "bool",
      count: 115,
      late: 5,
      item: (i) => ({ key: { stake_pool: address(`stake-pool/${i % 7}`), proposal_id: String(i) }, value: i % 3 !== 0 }),
      updated: (i) => !(i % 3 !== 0),
      updates: [0, 4],
      deletes: [10],
    }),
  ];
}

/**
 * Tables whose key and value types use, between them, every MoveType form (§2.1) a table can hold:
 * bool, u8, u16, u32, u64, u128, u256, address, vectors (nested too) and structs (a generic one too);
 * the fixtures file's `tables`, one present key each.
 * signer is no form a table can hold (it has no store ability).
 */
export function typeFormTables(seed: string): GenesisTable[] {
  const bytes = (label: string, n: number) => toHex(derive(seed, label).slice(0, n));
  const recipe = (
    name: string,
    keyType: string,
    valueType: string,
    key: (i: number) => unknown,
    value: (i: number) => unknown,
  ): TableRecipe => ({
    name,
    keyType,
    valueType,
    count: 100,
    late: 0,
    item: (i) => ({ key: key(i), value: value(i) }),
    updated: value,
    updates: [],
    deletes: [],
  });
  return [
    recipe(
      "forms_u8_u16",
      "u8",
      "u16",
      (i) => i,
      (i) => 60_000 + i,
    ),
    recipe(
      "forms_u16_u256",
      "u16",
      "u256",
      (i) => 1_000 + i,
      (i) => (2n ** 200n + BigInt(i)).toString(),
    ),
    recipe(
      "forms_u32_option",
      "u32",
      "0x1::option::Option<u64>",
      (i) => 4_000_000_000 + i,
      (i) => ({ vec: i % 2 === 0 ? [String(i)] : [] }),
    ),
    recipe(
      "forms_u128_nested_vector",
      "u128",
      "vector<vector<u8>>",
      (i) => (2n ** 100n + BigInt(i)).toString(),
      (i) => [bytes(`table/forms/${i}/a`, 1 + (i % 4)), bytes(`table/forms/${i}/b`, 2)],
    ),
    recipe(
      "forms_u256_bool",
      "u256",
      "bool",
      (i) => (2n ** 255n + BigInt(i)).toString(),
      (i) => i % 2 === 0,
    ),
    recipe(
      "forms_vector_string",
      "vector<u64>",
      "0x1::string::String",
      (i) => [String(i), String(i * 7)],
      (i) => `item ${i}`,
    ),
  ].map((r) => build(seed, r));
}

/** The state write that sets (or, with value undefined, deletes) one item. */
export function tableItemWrite(table: GenesisTable, key: unknown, value: unknown, resolve: StructResolver): StateWrite {
  const keyBytes = encodeMoveValue(parseTypeTag(table.keyType), key, resolve);
  return {
    kind: "table_item",
    handle: table.handle,
    key: keyBytes,
    value: value === undefined ? undefined : encodeMoveValue(parseTypeTag(table.valueType), value, resolve),
  };
}
