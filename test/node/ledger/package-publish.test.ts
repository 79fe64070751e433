// 0x1::code::publish_package_txn on the engine: a package of minimal modules commits and its modules are
// the sender's from the transaction's version on (not before), a republish replaces a module, and each
// refusal stays on the ledger with aptos-core's status, publishing none of the bundle.

import { beforeAll, describe, expect, it } from "vitest";
import {
  deserializeModule,
  encodeSignedTransaction,
  minimalModule,
  packageMetadata,
  parseAddress,
  publishPackageCall,
  publishPackageTxnCall,
  serializeModule,
  type Ed25519Account,
  type EntryFunctionInput,
  type PackageMetadataInput,
} from "../../../src/codec/index.ts";
import { GAS, intrinsicGas } from "../../../src/node/ledger/gas-schedule.ts";
import type { CommittedTransaction } from "../../../src/node/ledger/transaction-log.ts";
import { ledgerErrorOf, rawTransaction, testEngine, type TestEngine } from "./helpers.ts";

/** What suites/support/submission.ts gives every transaction it builds. */
const SUITE_MAX_GAS_AMOUNT = 20_000n;

let t: TestEngine;
let alice: Ed25519Account;
let bob: Ed25519Account;

beforeAll(() => {
  t = testEngine();
  alice = t.genesis.keys.funded[0] as Ed25519Account;
  bob = t.genesis.keys.funded[1] as Ed25519Account;
});

const state = () => t.engine.ledger.state;

function run(call: EntryFunctionInput, sender: Ed25519Account = alice): CommittedTransaction {
  const signed = sender.signTransaction(
    rawTransaction({
      sender: sender.address,
      sequenceNumber: state().latestAccount(sender.address)?.sequenceNumber ?? 0n,
      nowSeconds: t.engine.ledger.nowSeconds,
      payload: { EntryFunction: call },
      maxGasAmount: SUITE_MAX_GAS_AMOUNT,
    }),
  );
  const { hash } = t.engine.submit(signed);
  t.nextBlock();
  const committed = t.engine.committedTransaction(hash);
  if (!committed) throw new Error("the transaction was not committed");
  return committed;
}

const namesAt = (address: Uint8Array, version: bigint) =>
  t.engine.listModules(address, { version, limit: 9999 }).modules.map((m) => m.abi.name);

/** Runs a publish that must fail: nothing of it is published, the sequence number still moves on. */
function runRefused(call: EntryFunctionInput, names: readonly string[]): CommittedTransaction {
  const before = state().latestAccount(alice.address)?.sequenceNumber ?? 0n;
  const txn = run(call);
  expect(txn.success).toBe(false);
  for (const name of names) expect(state().module(alice.address, name, txn.version)).toBeUndefined();
  expect(state().latestAccount(alice.address)?.sequenceNumber).toBe(before + 1n);
  return txn;
}

describe("a package that publishes", () => {
  it("commits; its modules are listed and served from its version on, not at the version before", () => {
    const call = publishPackageCall(alice.address, "walk_pkg", ["walk_b", "walk_a"]);
    const txn = run(call);
    expect([txn.success, txn.vmStatus, txn.status]).toEqual([true, "Executed successfully", { kind: "success" }]);

    expect(namesAt(alice.address, txn.version)).toEqual(["walk_a", "walk_b"]);
    expect(namesAt(alice.address, txn.version - 1n)).toEqual([]);
    const served = t.engine.getModule(alice.address, "walk_a", txn.version);
    expect(served.bytecode).toEqual(minimalModule(alice.address, "walk_a"));
    expect(served.abi).toMatchObject({ name: "walk_a", exposed_functions: [], structs: [] });
    expect(ledgerErrorOf(() => t.engine.getModule(alice.address, "walk_a", txn.version - 1n)).code).toBe("module_not_found");
  });

  it("charges the intrinsic gas, the publish and each byte of code: well within the suite's 20,000", () => {
    const call = publishPackageCall(alice.address, "gas_pkg", ["gas_mod"]);
    const txn = run(call);
    const codeBytes = BigInt(minimalModule(alice.address, "gas_mod").length);
    const size = encodeSignedTransaction(txn.signed).length;
    expect(txn.gasUsed).toBe(intrinsicGas(size) + GAS.publishPackage + codeBytes * GAS.publishPerCodeByte);
    expect(txn.gasUsed).toBeLessThan(SUITE_MAX_GAS_AMOUNT);
  });

  it("pages the modules cursor walk at a version through the published modules once each", () => {
    const txn = run(publishPackageCall(alice.address, "page_pkg", ["page_1", "page_2", "page_3"]));
    const seen: string[] = [];
    let start: string | undefined;
    for (let page = 0; page < 20; page++) {
      const result = t.engine.listModules(alice.address, { version: txn.version, limit: 2, ...(start ? { start } : {}) });
      seen.push(...result.modules.map((m) => m.abi.name));
      start = result.nextCursor;
      if (start === undefined) break;
    }
    expect(start).toBeUndefined();
    expect(seen).toEqual(namesAt(alice.address, txn.version));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(["page_1", "page_2", "page_3"]));
  });

  it("replaces a module of the same name on a republish, from the new version on", () => {
    const first = run(publishPackageCall(alice.address, "up_pkg", ["upgraded"]));
    // The same module written as version 6: other bytes for the same name.
    const v6 = serializeModule({ ...deserializeModule(minimalModule(alice.address, "upgraded")), version: 6 });
    const second = run(publishPackageTxnCall(packageMetadata("up_pkg", ["upgraded"]), [v6]));
    expect(second.success).toBe(true);
    expect(state().module(alice.address, "upgraded", first.version)?.bytecode).toEqual(minimalModule(alice.address, "upgraded"));
    expect(state().module(alice.address, "upgraded", second.version)?.bytecode).toEqual(v6);
    expect(namesAt(alice.address, second.version).filter((n) => n === "upgraded")).toHaveLength(1);
  });

  it("publishes at each sender's own address", () => {
    const txn = run(publishPackageCall(bob.address, "bob_pkg", ["bob_mod"]), bob);
    expect(txn.success).toBe(true);
    expect(namesAt(bob.address, txn.version)).toContain("bob_mod");
    expect(state().module(alice.address, "bob_mod", txn.version)).toBeUndefined();
  });
});

describe("a package that is refused", () => {
  const miscellaneous = (statusCode: number) => ({ kind: "miscellaneous_error", statusCode });

  it("a module at another address: MODULE_ADDRESS_DOES_NOT_MATCH_SENDER, and none of the bundle is published", () => {
    const other = parseAddress("0xbeef");
    const call = publishPackageTxnCall(packageMetadata("addr_pkg", ["addr_ok", "addr_bad"]), [
      minimalModule(alice.address, "addr_ok"),
      minimalModule(other, "addr_bad"),
    ]);
    const txn = runRefused(call, ["addr_ok", "addr_bad"]);
    expect(txn.vmStatus).toMatch(/^MODULE_ADDRESS_DOES_NOT_MATCH_SENDER/);
    expect(txn.status).toEqual(miscellaneous(1067));
    expect(state().module(other, "addr_bad", txn.version)).toBeUndefined();
  });

  it("a module that does not deserialize: CODE_DESERIALIZATION_ERROR", () => {
    const good = minimalModule(alice.address, "bad_code");
    const call = publishPackageTxnCall(packageMetadata("bad_pkg", ["bad_code"]), [good.subarray(0, good.length - 3)]);
    const txn = runRefused(call, ["bad_code"]);
    expect(txn.vmStatus).toMatch(/^CODE_DESERIALIZATION_ERROR/);
    expect(txn.status).toEqual(miscellaneous(3024));
  });

  it("metadata that names other modules than the code: CONSTRAINT_NOT_SATISFIED", () => {
    const cases: [PackageMetadataInput, Uint8Array[]][] = [
      [packageMetadata("mm_pkg", ["mm_other"]), [minimalModule(alice.address, "mm_one")]],
      [packageMetadata("mm_pkg", ["mm_one", "mm_two"]), [minimalModule(alice.address, "mm_one")]],
      [packageMetadata("mm_pkg", ["mm_one"]), [minimalModule(alice.address, "mm_one"), minimalModule(alice.address, "mm_one")]],
    ];
    for (const [metadata, code] of cases) {
      const txn = runRefused(publishPackageTxnCall(metadata, code), ["mm_one", "mm_two", "mm_other"]);
      expect(txn.vmStatus).toMatch(/^CONSTRAINT_NOT_SATISFIED: metadata and code bundle mismatch/);
      expect(txn.status).toEqual(miscellaneous(1075));
    }
  });

  it("metadata in another order than the code is accepted, as aptos-core compares the names as a set", () => {
    const call = publishPackageTxnCall(packageMetadata("order_pkg", ["order_b", "order_a"]), [
      minimalModule(alice.address, "order_a"),
      minimalModule(alice.address, "order_b"),
    ]);
    expect(run(call).success).toBe(true);
  });

  it("metadata that is not a PackageMetadata: a Move abort in 0x1::util (from_bytes)", () => {
    const call = publishPackageCall(alice.address, "junk_pkg", ["junk_mod"]);
    const junk = { ...call, args: [Uint8Array.of(3, 1, 2, 3), ...[...call.args].slice(1)] };
    const txn = runRefused(junk, ["junk_mod"]);
    expect(txn.status).toEqual({ kind: "move_abort", module: { address: parseAddress("0x1"), name: "util" }, code: 0x10001n });
  });

  it("the arbitrary upgrade policy: a Move abort in 0x1::code (EINCOMPATIBLE_POLICY_DISABLED)", () => {
    const metadata = { ...packageMetadata("arb_pkg", ["arb_mod"]), upgrade_policy: { policy: 0 } };
    const txn = runRefused(publishPackageTxnCall(metadata, [minimalModule(alice.address, "arb_mod")]), ["arb_mod"]);
    expect(txn.vmStatus).toMatch(/EINCOMPATIBLE_POLICY_DISABLED/);
    expect(txn.status).toEqual({ kind: "move_abort", module: { address: parseAddress("0x1"), name: "code" }, code: 0x10008n });
  });
});
