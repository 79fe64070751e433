// Execution: transfers move balances (creating the recipient for aptos_account::transfer), other entry
// functions of the framework run as no-ops after their ABI resolves, and failures stay on the ledger
// with their VM status, the gas charged and the sequence number bumped.

import { beforeAll, describe, expect, it } from "vitest";
import {
  encodeMoveValue,
  formatAddress,
  parseAddress,
  parseTypeTag,
  passThroughScript,
  serializeScript,
  type Ed25519Account,
  type EntryFunctionInput,
  type TransactionPayloadInput,
} from "../../../src/codec/index.ts";
import type { CommittedTransaction } from "../../../src/node/ledger/transaction-log.ts";
import { entryCall, rawTransaction, testEngine, type TestEngine } from "./helpers.ts";

const FRAMEWORK = parseAddress("0x1");
let t: TestEngine;
let alice: Ed25519Account;

beforeAll(() => {
  t = testEngine();
  alice = t.genesis.keys.funded[0] as Ed25519Account;
});

const balance = (address: Uint8Array) => t.engine.ledger.state.latestAccount(address)?.balance;
const sequenceNumber = () => t.engine.ledger.state.latestAccount(alice.address)?.sequenceNumber ?? 0n;

/** Submits `payload` from alice, commits it, and returns the committed transaction. */
function run(payload: TransactionPayloadInput, maxGasAmount = 1_000n): CommittedTransaction {
  const signed = alice.signTransaction(
    rawTransaction({
      sender: alice.address,
      sequenceNumber: sequenceNumber(),
      nowSeconds: t.engine.ledger.nowSeconds,
      payload,
      maxGasAmount,
    }),
  );
  const { hash } = t.engine.submit(signed);
  t.nextBlock();
  const committed = t.engine.committedTransaction(hash);
  if (!committed) throw new Error("the transaction was not committed");
  return committed;
}

const call = (module: string, fn: string, args: Uint8Array[], tyArgs: string[] = []): TransactionPayloadInput => ({
  EntryFunction: {
    module: { address: FRAMEWORK, name: module },
    function: fn,
    ty_args: tyArgs.map((x) => parseTypeTag(x)),
    args,
  } satisfies EntryFunctionInput,
});
const u64 = (n: bigint) => encodeMoveValue(parseTypeTag("u64"), n.toString());

describe("transfers", () => {
  it("aptos_account::transfer creates the recipient and moves the amount; the sender pays amount and fee", () => {
    const fresh = parseAddress("0xfeedbeef");
    const before = balance(alice.address) ?? 0n;
    const seq = sequenceNumber();
    const txn = run({ EntryFunction: entryCall("aptos_account", "transfer", fresh, 4_321n) });
    expect(txn.success).toBe(true);
    expect(txn.vmStatus).toBe("Executed successfully");
    expect(txn.status).toEqual({ kind: "success" });
    expect(t.engine.ledger.state.latestAccount(fresh)).toEqual({ sequenceNumber: 0n, authenticationKey: fresh, balance: 4_321n });
    expect(balance(alice.address)).toBe(before - 4_321n - txn.gasUsed * 100n);
    expect(sequenceNumber()).toBe(seq + 1n);
  });

  it("transfer_coins<AptosCoin> moves coins; another coin type aborts", () => {
    const bob = (t.genesis.keys.funded[1] as Ed25519Account).address;
    const before = balance(bob) ?? 0n;
    expect(run({ EntryFunction: entryCall("aptos_account", "transfer_coins", bob, 10n, ["0x1::aptos_coin::AptosCoin"]) }).success).toBe(
      true,
    );
    expect(balance(bob)).toBe(before + 10n);
    const other = run({ EntryFunction: entryCall("aptos_account", "transfer_coins", bob, 10n, ["0x1::string::String"]) });
    expect([other.success, other.vmStatus]).toEqual([false, expect.stringMatching(/ECOIN_INFO_NOT_PUBLISHED/)]);
    expect(balance(bob)).toBe(before + 10n);
  });

  it("a transfer above the balance aborts: only the fee is charged", () => {
    const bob = (t.genesis.keys.funded[1] as Ed25519Account).address;
    const [aliceBefore, bobBefore] = [balance(alice.address) ?? 0n, balance(bob) ?? 0n];
    const txn = run({ EntryFunction: entryCall("aptos_account", "transfer", bob, aliceBefore) });
    expect([txn.success, txn.vmStatus]).toEqual([false, expect.stringMatching(/EINSUFFICIENT_BALANCE/)]);
    // aptos-core's ExecutionStatus::MoveAbort at 0x1::coin with the code the vm_status names.
    expect(txn.status).toEqual({ kind: "move_abort", module: { address: FRAMEWORK, name: "coin" }, code: 0x10006n });
    expect(balance(alice.address)).toBe(aliceBefore - txn.gasUsed * 100n);
    expect(balance(bob)).toBe(bobBefore);
  });

  it("runs out of gas when max_gas_amount cannot cover it: charged the maximum, nothing moved", () => {
    const bob = (t.genesis.keys.funded[1] as Ed25519Account).address;
    const [aliceBefore, bobBefore] = [balance(alice.address) ?? 0n, balance(bob) ?? 0n];
    const txn = run({ EntryFunction: entryCall("aptos_account", "transfer", bob, 5n) }, 4n);
    expect([txn.success, txn.vmStatus, txn.gasUsed]).toEqual([false, "OUT_OF_GAS", 4n]);
    expect(txn.status).toEqual({ kind: "out_of_gas" });
    expect(balance(alice.address)).toBe(aliceBefore - 400n);
    expect(balance(bob)).toBe(bobBefore);
  });
});

describe("other entry functions", () => {
  it("run as no-ops once their ABI resolves: only the fee moves", () => {
    const before = balance(alice.address) ?? 0n;
    const txn = run(call("stake", "add_stake", [u64(1_000n)]));
    expect(txn.success).toBe(true);
    expect(balance(alice.address)).toBe(before - txn.gasUsed * 100n);
  });
});

describe("scripts", () => {
  const transferScript = (module = "aptos_account") =>
    serializeScript(
      passThroughScript({ address: FRAMEWORK, module, function: "transfer" }, [
        { kind: "reference", to: { kind: "signer" } },
        { kind: "address" },
        { kind: "u64" },
      ]),
    );

  it("a script that passes its parameters to aptos_account::transfer runs as that call", () => {
    const bob = (t.genesis.keys.funded[1] as Ed25519Account).address;
    const [aliceBefore, bobBefore] = [balance(alice.address) ?? 0n, balance(bob) ?? 0n];
    const txn = run({ Script: { code: transferScript(), ty_args: [], args: [{ Address: bob }, { U64: 777n }] } });
    expect([txn.success, txn.vmStatus]).toEqual([true, "Executed successfully"]);
    expect(balance(bob)).toBe(bobBefore + 777n);
    expect(balance(alice.address)).toBe(aliceBefore - 777n - txn.gasUsed * 100n);
  });

  it("a script whose call does not resolve, or whose arguments do not fit main, fails with the VM status", () => {
    const bob = (t.genesis.keys.funded[1] as Ed25519Account).address;
    const unresolved = run({ Script: { code: transferScript("no_such_module"), ty_args: [], args: [{ Address: bob }, { U64: 1n }] } });
    expect([unresolved.success, unresolved.vmStatus]).toEqual([false, expect.stringMatching(/^LINKER_ERROR/)]);
    const swapped = run({ Script: { code: transferScript(), ty_args: [], args: [{ U64: 1n }, { Address: bob }] } });
    expect([swapped.success, swapped.vmStatus]).toEqual([false, expect.stringMatching(/^FAILED_TO_DESERIALIZE_ARGUMENT/)]);
    const short = run({ Script: { code: transferScript(), ty_args: [], args: [{ Address: bob }] } });
    expect([short.success, short.vmStatus]).toEqual([false, expect.stringMatching(/^NUMBER_OF_ARGUMENTS_MISMATCH/)]);
  });

  it("a bytecode that is not a script is refused on admission with CODE_DESERIALIZATION_ERROR", () => {
    const signed = alice.signTransaction(
      rawTransaction({
        sender: alice.address,
        sequenceNumber: sequenceNumber(),
        nowSeconds: t.engine.ledger.nowSeconds,
        payload: { Script: { code: new Uint8Array([0xa1, 0x1c, 0xeb, 0x0b, 7, 0, 0, 0]), ty_args: [], args: [] } },
      }),
    );
    expect(() => t.engine.submit(signed)).toThrow(expect.objectContaining({ status: 400, code: "vm_error", vmErrorCode: 3024 }));
  });

  it("fail with the VM status of what does not resolve, and still bump the sequence number", () => {
    const bob = (t.genesis.keys.funded[1] as Ed25519Account).address;
    const address = encodeMoveValue(parseTypeTag("address"), "0x2");
    // Kept as aptos-core keeps them: a status code as MiscellaneousError(Some(code)), an abort as MoveAbort.
    const misc = (statusCode: number) => ({ kind: "miscellaneous_error", statusCode });
    const cases: [TransactionPayloadInput, string, unknown][] = [
      [call("no_such_module", "f", []), "LINKER_ERROR", misc(1081)],
      [call("aptos_account", "no_such_function", []), "FUNCTION_RESOLUTION_FAILURE", misc(1091)],
      [
        call("coin", "balance", [address], ["0x1::aptos_coin::AptosCoin"]),
        "EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION",
        misc(1103),
      ],
      [call("coin", "transfer", [address, u64(1n)]), "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH", misc(1076)],
      [call("aptos_account", "transfer", [address]), "NUMBER_OF_ARGUMENTS_MISMATCH", misc(1098)],
      [call("aptos_account", "transfer", [new Uint8Array([1, 2, 3]), u64(1n)]), "FAILED_TO_DESERIALIZE_ARGUMENT", misc(1100)],
      [
        { EntryFunction: entryCall("coin", "transfer", parseAddress("0xdead"), 1n, ["0x1::aptos_coin::AptosCoin"]) },
        "ECOIN_STORE_NOT_PUBLISHED",
        { kind: "move_abort", module: { address: FRAMEWORK, name: "coin" }, code: 0x60005n },
      ],
    ];
    for (const [payload, status, recorded] of cases) {
      const seq = sequenceNumber();
      const bobBefore = balance(bob);
      const txn = run(payload);
      expect([txn.success, txn.vmStatus.includes(status)], `${status}: ${txn.vmStatus}`).toEqual([false, true]);
      expect(txn.status, status).toEqual(recorded);
      expect(sequenceNumber()).toBe(seq + 1n);
      expect(balance(bob)).toBe(bobBefore);
    }
  });
});

describe("multisig transactions", () => {
  const submitFrom = (signer: Ed25519Account, payload: TransactionPayloadInput) =>
    t.engine.submit(
      signer.signTransaction(
        rawTransaction({
          sender: signer.address,
          sequenceNumber: t.engine.ledger.state.latestAccount(signer.address)?.sequenceNumber ?? 0n,
          nowSeconds: t.engine.ledger.nowSeconds,
          payload,
        }),
      ),
    );
  const multisig = () => parseAddress(t.genesis.fixtures.multisigAccount.address);
  const owner = () =>
    t.genesis.keys.funded.find((k) => formatAddress(k.address) === t.genesis.fixtures.multisigAccount.owner) as Ed25519Account;

  it("an owner executes the next approved proposal as the multisig account, which resolves it", () => {
    const recipient = (t.genesis.keys.funded[0] as Ed25519Account).address;
    const [accountBefore, recipientBefore] = [balance(multisig()) ?? 0n, balance(recipient) ?? 0n];
    const before = t.engine.ledger.state.latestMultisig(multisig());
    const { hash } = submitFrom(owner(), { Multisig: { multisig_address: multisig(), transaction_payload: null } });
    t.nextBlock();
    const committed = t.engine.committedTransaction(hash);
    expect([committed?.success, committed?.vmStatus]).toEqual([true, "Executed successfully"]);
    expect(balance(multisig())).toBe(accountBefore - 100n);
    expect(balance(recipient)).toBe(recipientBefore + 100n);
    const after = t.engine.ledger.state.latestMultisig(multisig());
    expect(after?.lastExecutedSequenceNumber).toBe((before?.lastExecutedSequenceNumber ?? 0n) + 1n);
    expect(after?.transactions.size).toBe((before?.transactions.size ?? 0) - 1);
  });

  it("is refused with the multisig validation statuses: no multisig account, not an owner, another payload", () => {
    const notOwner = t.genesis.keys.funded[0] as Ed25519Account;
    const vmCode = (code: number) => expect.objectContaining({ status: 400, code: "vm_error", vmErrorCode: code });
    expect(() => submitFrom(owner(), { Multisig: { multisig_address: notOwner.address, transaction_payload: null } })).toThrow(vmCode(31));
    expect(() => submitFrom(notOwner, { Multisig: { multisig_address: multisig(), transaction_payload: null } })).toThrow(vmCode(32));
    const other = { EntryFunction: entryCall("aptos_account", "transfer", notOwner.address, 1n) };
    expect(() => submitFrom(owner(), { Multisig: { multisig_address: multisig(), transaction_payload: other } })).toThrow(vmCode(35));
  });
});
