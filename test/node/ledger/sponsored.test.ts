// Sponsored account creation (aptos-core aptos_vm.rs `is_account_init_for_sponsored_transaction`,
// transaction_validation.move `prologue_common`): a fee-payer transaction from an address without an
// account, at sequence number 0, signed by the key whose authentication key is that address, is
// accepted; the fee payer pays the gas, and the sender's account is created whether the payload
// succeeds or aborts.

import { beforeAll, describe, expect, it } from "vitest";
import { Ed25519Account, signFeePayerTransaction, type SignedTransaction } from "../../../src/codec/index.ts";
import { GAS } from "../../../src/node/ledger/gas-schedule.ts";
import { VmStatus } from "../../../src/node/ledger/vm-status.ts";
import { ledgerErrorOf, rawTransaction, testEngine, transferPayload, type TestEngine } from "./helpers.ts";

let t: TestEngine;
let sponsor: Ed25519Account;
let other: Ed25519Account;

beforeAll(() => {
  t = testEngine();
  sponsor = t.genesis.keys.funded[2] as Ed25519Account;
  other = t.genesis.keys.funded[1] as Ed25519Account;
});

const accountOf = (address: Uint8Array) => t.engine.ledger.state.latestAccount(address);

interface Sponsored {
  readonly sender?: Uint8Array;
  readonly sequenceNumber?: bigint;
  readonly amount?: bigint;
  readonly maxGasAmount?: bigint;
}

/** A transfer to `other` from `signer`'s (or `options.sender`'s) address, with the sponsor as fee payer. */
function sponsored(signer: Ed25519Account, options: Sponsored = {}): SignedTransaction {
  const raw = rawTransaction({
    sender: options.sender ?? signer.address,
    sequenceNumber: options.sequenceNumber ?? 0n,
    nowSeconds: t.engine.ledger.nowSeconds,
    payload: transferPayload(other.address, options.amount ?? 0n),
    ...(options.maxGasAmount === undefined ? {} : { maxGasAmount: options.maxGasAmount }),
  });
  return signFeePayerTransaction(raw, signer, [], sponsor);
}

function commit(signed: SignedTransaction) {
  const { hash } = t.engine.submit(signed);
  t.nextBlock();
  const committed = t.engine.committedTransaction(hash);
  if (committed === undefined) throw new Error("the transaction was not committed");
  return committed;
}

describe("sponsored account creation", () => {
  it("creates the sender (key = address, sequence number 1); the fee payer pays the gas", () => {
    const fresh = Ed25519Account.generate();
    const sponsorBefore = accountOf(sponsor.address)?.balance ?? 0n;
    expect(accountOf(fresh.address)).toBeUndefined();
    const signed = sponsored(fresh);
    const committed = commit(signed);
    expect(committed.success).toBe(true);
    expect(accountOf(fresh.address)).toEqual({ sequenceNumber: 1n, authenticationKey: fresh.address, balance: 0n });
    expect(accountOf(sponsor.address)?.balance).toBe(sponsorBefore - committed.gasUsed * signed.raw_txn.gas_unit_price);
    expect(t.engine.account(fresh.address)).toEqual({ sequenceNumber: 1n, authenticationKey: fresh.address });
  });

  it("creates the sender also when the payload aborts", () => {
    const fresh = Ed25519Account.generate();
    const committed = commit(sponsored(fresh, { amount: 1n }));
    expect(committed.success).toBe(false);
    expect(committed.vmStatus).toMatch(/EINSUFFICIENT_BALANCE/);
    expect(accountOf(fresh.address)).toEqual({ sequenceNumber: 1n, authenticationKey: fresh.address, balance: 0n });
  });

  it("a created sender then sends at sequence number 1 like any account", () => {
    const fresh = Ed25519Account.generate();
    commit(sponsored(fresh));
    expect(commit(sponsored(fresh, { sequenceNumber: 1n })).success).toBe(true);
    expect(accountOf(fresh.address)?.sequenceNumber).toBe(2n);
  });

  it("refuses a missing sender at a sequence number above 0: SENDING_ACCOUNT_DOES_NOT_EXIST", () => {
    const error = ledgerErrorOf(() => t.engine.submit(sponsored(Ed25519Account.generate(), { sequenceNumber: 1n })));
    expect(error.vmErrorCode).toBe(VmStatus.SENDING_ACCOUNT_DOES_NOT_EXIST);
  });

  it("refuses a missing sender without a fee payer: SENDING_ACCOUNT_DOES_NOT_EXIST", () => {
    const fresh = Ed25519Account.generate();
    const signed = fresh.signTransaction(
      rawTransaction({ sender: fresh.address, sequenceNumber: 0n, nowSeconds: t.engine.ledger.nowSeconds, amount: 0n }),
    );
    expect(ledgerErrorOf(() => t.engine.submit(signed)).vmErrorCode).toBe(VmStatus.SENDING_ACCOUNT_DOES_NOT_EXIST);
  });

  it("refuses a missing sender whose key's authentication key is not its address: INVALID_AUTH_KEY", () => {
    const stranger = Ed25519Account.generate();
    const error = ledgerErrorOf(() => t.engine.submit(sponsored(stranger, { sender: Ed25519Account.generate().address })));
    expect(error.vmErrorCode).toBe(VmStatus.INVALID_AUTH_KEY);
  });

  it("refuses a max gas amount that covers the transaction but not the account's creation", () => {
    const fresh = Ed25519Account.generate();
    const needed = (signed: SignedTransaction) =>
      BigInt(ledgerErrorOf(() => t.engine.submit(signed)).message.match(/the (\d+) units/)?.[1] ?? "0");
    // The same transaction shape from an existing sender needs only the intrinsic gas.
    const existing = needed(sponsored(other, { sequenceNumber: accountOf(other.address)?.sequenceNumber ?? 0n, maxGasAmount: 1n }));
    const creating = needed(sponsored(fresh, { maxGasAmount: 1n }));
    expect(existing).toBeGreaterThan(0n);
    expect(creating).toBe(existing + GAS.createAccount);
    const error = ledgerErrorOf(() => t.engine.submit(sponsored(fresh, { maxGasAmount: creating - 1n })));
    expect(error.vmErrorCode).toBe(VmStatus.MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS);
  });
});
