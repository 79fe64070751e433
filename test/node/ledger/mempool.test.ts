// Submission and the mempool: validation errors with their VM status codes, Aptos' rules for a second
// transaction under the same sequence number, capacity, expiry, and commitment into the sender's
// summaries under the codec's transaction hash.

import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  Ed25519Account,
  encodeSignedTransaction,
  parseAddress,
  transactionHash,
  type SignedTransaction,
} from "../../../src/codec/index.ts";
import { VmStatus } from "../../../src/node/ledger/vm-status.ts";
import { entryCall, entryPayload, ledgerErrorOf, rawTransaction, signedTransfer, testEngine, type TestEngine } from "./helpers.ts";

let t: TestEngine;
let alice: Ed25519Account;
let bob: Ed25519Account;

function accounts(engine: TestEngine): [Ed25519Account, Ed25519Account] {
  const [a, b] = engine.genesis.keys.funded;
  if (!a || !b) throw new Error("genesis has funded accounts");
  return [a, b];
}

const now = () => t.engine.ledger.nowSeconds;
const transfer = (account: Ed25519Account, sequenceNumber: bigint, extra: Partial<Parameters<typeof signedTransfer>[1]> = {}) =>
  signedTransfer(account, { sequenceNumber, nowSeconds: now(), to: bob.address, ...extra });

function expectVmError(fn: () => unknown, status: keyof typeof VmStatus): void {
  const error = ledgerErrorOf(fn);
  expect([error.status, error.code, error.vmErrorCode], error.message).toEqual([400, "vm_error", VmStatus[status]]);
}

describe("submission validation", () => {
  // One engine: a rejected submission changes nothing.
  beforeAll(() => {
    t = testEngine();
    [alice, bob] = accounts(t);
  });

  it("accepts a valid transfer and reports the codec's hash and the pending transaction", () => {
    const dave = t.genesis.keys.funded[3] as Ed25519Account;
    const pendingBefore = t.engine.mempool.size;
    const signed = transfer(dave, 0n);
    const result = t.engine.submit(signed);
    expect(result.hash).toEqual(transactionHash(encodeSignedTransaction(signed)));
    expect(result.pendingJson).toMatchObject({
      hash: `0x${Buffer.from(result.hash).toString("hex")}`,
      sender: `0x${Buffer.from(dave.address).toString("hex")}`,
      sequence_number: "0",
      gas_unit_price: "100",
      payload: { type: "entry_function_payload", function: "0x1::aptos_account::transfer" },
      signature: { type: "ed25519_signature" },
    });
    expect(Object.keys(result.pendingJson)).toEqual([
      "hash",
      "sender",
      "sequence_number",
      "max_gas_amount",
      "gas_unit_price",
      "expiration_timestamp_secs",
      "payload",
      "signature",
    ]);
    expect(t.engine.mempool.size).toBe(pendingBefore + 1);
  });

  it("stale sequence number: 400 vm_error SEQUENCE_NUMBER_TOO_OLD (3)", () => {
    const carol = t.genesis.keys.funded[2] as Ed25519Account;
    t.engine.submit(transfer(carol, 0n));
    t.nextBlock();
    expect(t.engine.ledger.state.latestAccount(carol.address)?.sequenceNumber).toBe(1n);
    expectVmError(() => t.engine.submit(transfer(carol, 0n, { amount: 5n })), "SEQUENCE_NUMBER_TOO_OLD");
    expect(VmStatus.SEQUENCE_NUMBER_TOO_OLD).toBe(3);
  });

  it("expired: 400 vm_error TRANSACTION_EXPIRED", () => {
    expectVmError(() => t.engine.submit(transfer(alice, 0n, { expirationSecs: now() })), "TRANSACTION_EXPIRED");
    expectVmError(() => t.engine.submit(transfer(alice, 0n, { expirationSecs: now() - 100n })), "TRANSACTION_EXPIRED");
  });

  it("wrong chain id: 400 vm_error BAD_CHAIN_ID", () => {
    expectVmError(() => t.engine.submit(transfer(alice, 0n, { chainId: 5 })), "BAD_CHAIN_ID");
  });

  it("bad signature: 400 vm_error INVALID_SIGNATURE (1)", () => {
    const signed = transfer(alice, 0n);
    if (signed.authenticator.$kind !== "Ed25519") throw new Error("an Ed25519 authenticator");
    const signature = new Uint8Array(signed.authenticator.Ed25519.signature);
    signature[10] = (signature[10] as number) ^ 0x01;
    const tampered: SignedTransaction = {
      ...signed,
      authenticator: { ...signed.authenticator, Ed25519: { ...signed.authenticator.Ed25519, signature } },
    };
    expectVmError(() => t.engine.submit(tampered), "INVALID_SIGNATURE");
    // Signed for other contents: the raw transaction changed after signing.
    const altered: SignedTransaction = { ...signed, raw_txn: { ...signed.raw_txn, max_gas_amount: signed.raw_txn.max_gas_amount + 1n } };
    expectVmError(() => t.engine.submit(altered), "INVALID_SIGNATURE");
    expect(VmStatus.INVALID_SIGNATURE).toBe(1);
  });

  it("a key that is not the account's: 400 vm_error INVALID_AUTH_KEY", () => {
    const stranger = Ed25519Account.generate();
    const signed = stranger.signTransaction(
      rawTransaction({ sender: alice.address, sequenceNumber: 0n, nowSeconds: now(), to: bob.address }),
    );
    expectVmError(() => t.engine.submit(signed), "INVALID_AUTH_KEY");
  });

  it("unknown sender account: 400 vm_error SENDING_ACCOUNT_DOES_NOT_EXIST", () => {
    expectVmError(() => t.engine.submit(transfer(Ed25519Account.generate(), 0n)), "SENDING_ACCOUNT_DOES_NOT_EXIST");
  });

  it("gas unit price below the minimum: 400 vm_error GAS_UNIT_PRICE_BELOW_MIN_BOUND", () => {
    expectVmError(() => t.engine.submit(transfer(alice, 0n, { gasUnitPrice: 99n })), "GAS_UNIT_PRICE_BELOW_MIN_BOUND");
  });

  it("max gas amount out of bounds: 400 vm_error codes 13 and 14", () => {
    expectVmError(() => t.engine.submit(transfer(alice, 0n, { maxGasAmount: 2_000_001n })), "MAX_GAS_UNITS_EXCEEDS_MAX_GAS_UNITS_BOUND");
    expectVmError(() => t.engine.submit(transfer(alice, 0n, { maxGasAmount: 1n })), "MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS");
  });

  it("a balance below the maximum fee: 400 vm_error INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE", () => {
    expectVmError(
      () => t.engine.submit(transfer(alice, 0n, { maxGasAmount: 2_000_000n, gasUnitPrice: 1_000_000_000n })),
      "INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE",
    );
  });

  it("module bundle payload: 400 invalid_input", () => {
    const signed = alice.signTransaction(
      rawTransaction({ sender: alice.address, sequenceNumber: 0n, nowSeconds: now(), payload: { ModuleBundle: { dummy_value: 0n } } }),
    );
    const error = ledgerErrorOf(() => t.engine.submit(signed));
    expect([error.status, error.code]).toEqual([400, "invalid_input"]);
  });

  it("multisig payload for an address that is not a multisig account: 400 vm_error ACCOUNT_NOT_MULTISIG", () => {
    const signed = alice.signTransaction(
      rawTransaction({
        sender: alice.address,
        sequenceNumber: 0n,
        nowSeconds: now(),
        payload: { Multisig: { multisig_address: bob.address, transaction_payload: null } },
      }),
    );
    expectVmError(() => t.engine.submit(signed), "ACCOUNT_NOT_MULTISIG");
  });

  it("submission disabled: 403 api_disabled", () => {
    const disabled = testEngine({ submissionEnabled: false });
    const [a] = accounts(disabled);
    const error = ledgerErrorOf(() =>
      disabled.engine.submit(signedTransfer(a, { sequenceNumber: 0n, nowSeconds: disabled.engine.ledger.nowSeconds })),
    );
    expect([error.status, error.code]).toEqual([403, "api_disabled"]);
  });
});

describe("the same sequence number twice", () => {
  beforeEach(() => {
    t = testEngine();
    [alice, bob] = accounts(t);
  });

  it("an identical resubmission is accepted again and stays one transaction", () => {
    const signed = transfer(alice, 0n);
    const first = t.engine.submit(signed);
    const again = t.engine.submit(signed);
    expect(again.hash).toEqual(first.hash);
    expect(t.engine.mempool.size).toBe(1);
    t.nextBlock();
    expect(t.engine.ledger.transactions.ofSender(alice.address).map((x) => x.hash)).toEqual([first.hash]);
  });

  it("another payload: 400 invalid_transaction_update", () => {
    t.engine.submit(transfer(alice, 0n, { amount: 10n }));
    const error = ledgerErrorOf(() => t.engine.submit(transfer(alice, 0n, { amount: 11n })));
    expect([error.status, error.code]).toEqual([400, "invalid_transaction_update"]);
  });

  it("another expiration or max gas amount, or a lower gas price: 400 invalid_transaction_update", () => {
    const expiration = now() + 300n;
    t.engine.submit(transfer(alice, 0n, { expirationSecs: expiration, gasUnitPrice: 150n }));
    for (const change of [{ expirationSecs: expiration + 1n }, { maxGasAmount: 999n }, { gasUnitPrice: 120n }]) {
      const error = ledgerErrorOf(() =>
        t.engine.submit(transfer(alice, 0n, { expirationSecs: expiration, gasUnitPrice: 150n, ...change })),
      );
      expect(
        [error.status, error.code],
        JSON.stringify(change, (_, v) => (typeof v === "bigint" ? String(v) : v)),
      ).toEqual([400, "invalid_transaction_update"]);
    }
  });

  it("a higher gas price replaces it, and the replacement is what commits", () => {
    const expiration = now() + 300n;
    t.engine.submit(transfer(alice, 0n, { expirationSecs: expiration }));
    const replacement = t.engine.submit(transfer(alice, 0n, { expirationSecs: expiration, gasUnitPrice: 200n }));
    expect(t.engine.mempool.size).toBe(1);
    t.nextBlock();
    const committed = t.engine.ledger.transactions.ofSender(alice.address);
    expect(committed.map((x) => x.hash)).toEqual([replacement.hash]);
    expect(committed[0]?.signed.raw_txn.gas_unit_price).toBe(200n);
  });
});

describe("capacity", () => {
  it("507 mempool_is_full when the mempool holds its capacity; an identical resubmission still passes", () => {
    t = testEngine({ mempoolCapacity: 3 });
    const funded = t.genesis.keys.funded;
    bob = funded[1] as Ed25519Account;
    // Parked (sequence numbers ahead of the account), so nothing commits while we fill it.
    const parked = funded.slice(0, 3).map((a) => transfer(a, 5n));
    for (const signed of parked) t.engine.submit(signed);
    const error = ledgerErrorOf(() => t.engine.submit(transfer(funded[3] as Ed25519Account, 5n)));
    expect([error.status, error.code]).toEqual([507, "mempool_is_full"]);
    expect(() => t.engine.submit(parked[0] as SignedTransaction)).not.toThrow();
    expect(t.engine.mempool.size).toBe(3);
  });

  it("507 mempool_is_full when one sender reaches its own limit", () => {
    t = testEngine({ mempoolCapacityPerSender: 2 });
    [alice, bob] = accounts(t);
    t.engine.submit(transfer(alice, 3n));
    t.engine.submit(transfer(alice, 4n));
    const error = ledgerErrorOf(() => t.engine.submit(transfer(alice, 5n)));
    expect([error.status, error.code]).toEqual([507, "mempool_is_full"]);
    expect(() => t.engine.submit(transfer(bob, 3n))).not.toThrow();
  });
});

describe("commitment and expiry", () => {
  beforeEach(() => {
    t = testEngine();
    [alice, bob] = accounts(t);
  });

  it("commits an accepted transaction in a later block, into the sender's summaries under the codec's hash", () => {
    const signed = transfer(alice, 0n, { amount: 12_345n });
    const { hash } = t.engine.submit(signed);
    const bobBefore = t.engine.ledger.state.latestAccount(bob.address)?.balance ?? 0n;
    const aliceBefore = t.engine.ledger.state.latestAccount(alice.address)?.balance ?? 0n;
    expect(t.engine.transactionSummaries(alice.address, { limit: 10 })).toEqual([]);

    t.nextBlock();
    const summaries = t.engine.transactionSummaries(alice.address, { limit: 10 });
    expect(summaries).toHaveLength(1);
    const [summary] = summaries;
    expect(summary?.hash).toEqual(hash);
    expect(summary?.hash).toEqual(transactionHash(encodeSignedTransaction(signed), "APTOS"));
    expect(summary?.sender).toEqual(alice.address);
    expect(summary?.replayProtector).toEqual({ type: "sequence_number", sequenceNumber: 0n });
    expect(summary?.version).toBe(t.engine.ledger.blocks.latest().firstVersion + 1n);
    expect(t.engine.mempool.size).toBe(0);

    const committed = t.engine.committedTransaction(hash);
    expect(committed?.success).toBe(true);
    const fee = (committed?.gasUsed ?? 0n) * 100n;
    expect(fee).toBeGreaterThan(0n);
    expect(t.engine.ledger.state.latestAccount(bob.address)?.balance).toBe(bobBefore + 12_345n);
    expect(t.engine.ledger.state.latestAccount(alice.address)?.balance).toBe(aliceBefore - 12_345n - fee);
    expect(t.engine.ledger.state.latestAccount(alice.address)?.sequenceNumber).toBe(1n);
    // The account's state is versioned: as of the version before the transaction it is unchanged.
    const version = summary?.version ?? 0n;
    expect(t.engine.ledger.state.account(alice.address, version - 1n)).toMatchObject({ sequenceNumber: 0n, balance: aliceBefore });
    expect(t.engine.ledger.state.account(alice.address, version)).toMatchObject({
      sequenceNumber: 1n,
      balance: aliceBefore - 12_345n - fee,
    });
  });

  it("commits a sender's transactions in sequence-number order, parked ones once the gap closes", () => {
    t.engine.submit(transfer(alice, 1n));
    t.nextBlock();
    expect(t.engine.ledger.transactions.ofSender(alice.address)).toHaveLength(0);
    t.engine.submit(transfer(alice, 0n));
    t.nextBlock();
    expect(t.engine.ledger.transactions.ofSender(alice.address).map((x) => x.replayProtector)).toEqual([
      { type: "sequence_number", sequenceNumber: 0n },
      { type: "sequence_number", sequenceNumber: 1n },
    ]);
  });

  it("orders a block by gas unit price", () => {
    const [, , carol] = t.genesis.keys.funded;
    if (!carol) throw new Error("three funded accounts");
    const cheap = t.engine.submit(transfer(alice, 0n, { gasUnitPrice: 100n }));
    const dear = t.engine.submit(transfer(carol, 0n, { gasUnitPrice: 300n }));
    t.nextBlock();
    expect(t.engine.committedTransaction(dear.hash)?.version).toBeLessThan(t.engine.committedTransaction(cheap.hash)?.version ?? 0n);
  });

  it("drops a pending transaction whose expiration passes before it can commit", () => {
    t.engine.submit(transfer(alice, 1n, { expirationSecs: now() + 3n })); // parked: sequence number 0 never comes
    expect(t.engine.mempool.size).toBe(1);
    t.nextBlock();
    expect(t.engine.mempool.size).toBe(1);
    t.clock.advance(5_000);
    t.engine.tick();
    expect(t.engine.mempool.size).toBe(0);
  });

  it("keeps a transaction that fails in the payload on the ledger: gas charged, sequence number bumped", () => {
    const nowhere = parseAddress("0x1234");
    // coin::transfer, unlike aptos_account::transfer, does not create the recipient's account.
    const payload = entryPayload("coin", "transfer", nowhere, 5n, ["0x1::aptos_coin::AptosCoin"]);
    const signed = alice.signTransaction(rawTransaction({ sender: alice.address, sequenceNumber: 0n, nowSeconds: now(), payload }));
    const { hash } = t.engine.submit(signed);
    t.nextBlock();
    const committed = t.engine.committedTransaction(hash);
    expect(committed?.success).toBe(false);
    expect(committed?.vmStatus).toMatch(/ECOIN_STORE_NOT_PUBLISHED/);
    expect(t.engine.ledger.state.latestAccount(alice.address)?.sequenceNumber).toBe(1n);
    expect(t.engine.ledger.state.latestAccount(nowhere)).toBeUndefined();
  });
});

describe("orderless transactions", () => {
  beforeEach(() => {
    t = testEngine();
    [alice, bob] = accounts(t);
  });

  function orderless(nonce: bigint) {
    const entry = entryCall("aptos_account", "transfer", bob.address, 7n);
    return alice.signTransaction(
      rawTransaction({
        sender: alice.address,
        sequenceNumber: 0xdeadbeefn,
        nowSeconds: now(),
        payload: {
          Payload: {
            V1: { executable: { EntryFunction: entry }, extra_config: { V1: { multisig_address: null, replay_protection_nonce: nonce } } },
          },
        },
      }),
    );
  }

  it("commit under their nonce without moving the sequence number; a used nonce is refused", () => {
    const { hash } = t.engine.submit(orderless(42n));
    t.nextBlock();
    const [summary] = t.engine.transactionSummaries(alice.address, { limit: 10 });
    expect(summary?.hash).toEqual(hash);
    expect(summary?.replayProtector).toEqual({ type: "nonce", nonce: 42n });
    expect(t.engine.ledger.state.latestAccount(alice.address)?.sequenceNumber).toBe(0n);
    expectVmError(() => t.engine.submit(orderless(42n)), "SEQUENCE_NONCE_INVALID");
    expect(() => t.engine.submit(orderless(43n))).not.toThrow();
  });
});
