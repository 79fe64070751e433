// Transaction validation, in Aptos' order: the payload kinds the node takes, every signature (once, on
// admission), then the prologue against the latest state: gas bounds, expiry, chain id, signers and their
// authentication keys, replay protection, and the fee payer's balance. The block producer runs the
// prologue again when it executes the transaction, with the sequence number required to be exact.

import { bytesToHex } from "@noble/hashes/utils.js";
import {
  bytesEqual,
  deserializeScript,
  encodeBcs,
  MalformedModule,
  UnsupportedModule,
  encodeSignedTransaction,
  transactionHash,
  TransactionPayload,
  verifyTransactionAuthenticator,
  type ClaimedSigner,
  type Script,
  type SignedTransaction,
} from "../../codec/index.ts";
import { LedgerError, type ReplayProtector } from "./api.ts";
import { GAS, intrinsicGas, MAX_GAS_UNIT_PRICE, MAX_GAS_UNITS } from "./gas-schedule.ts";
import { multisigRequestOf, validateMultisig } from "./multisig.ts";
import type { AccountState, MultisigAccountState } from "./state.ts";
import { replayProtectorOf } from "./transaction-log.ts";
import { vmError } from "./vm-status.ts";

/** A transaction whose signatures verified: what the mempool holds and the producer executes. */
export interface PendingTransaction {
  readonly signed: SignedTransaction;
  /** Its BCS bytes (what the hash is over). */
  readonly bytes: Uint8Array;
  readonly hash: Uint8Array;
  /** BCS of the payload: the mempool compares payloads of transactions with the same replay protector. */
  readonly payloadBytes: Uint8Array;
  readonly sender: Uint8Array;
  readonly replayProtector: ReplayProtector;
  /** Sender, secondary signers and fee payer, each with the authentication key it proved. */
  readonly signers: readonly ClaimedSigner[];
  /** Who pays the gas: the fee payer when there is one, else the sender. */
  readonly gasPayer: Uint8Array;
}

/** The latest state as the prologue reads it. */
export interface PrologueView {
  readonly chainId: number;
  readonly minGasUnitPrice: bigint;
  /** Chain time, whole seconds. */
  readonly nowSeconds: bigint;
  account(address: Uint8Array): AccountState | undefined;
  /** The MultisigAccount resource at `address`, if there is one. */
  multisig(address: Uint8Array): MultisigAccountState | undefined;
  isNonceUsed(sender: Uint8Array, nonce: bigint): boolean;
}

/**
 * Admission mode accepts a sequence number ahead of the account's (the mempool parks it); execution mode
 * requires it to be the account's next one.
 */
export type PrologueMode = "admission" | "execution";

/** The checks that need no state, and the signatures. Throws 400 invalid_input or vm_error INVALID_SIGNATURE. */
export function verifyTransaction(signed: SignedTransaction, domain: string): PendingTransaction {
  checkPayloadKind(signed);
  const verdict = verifyTransactionAuthenticator(signed, domain);
  if (!verdict.ok) {
    if (verdict.unsupported)
      throw new LedgerError(400, "invalid_input", `This node cannot verify the transaction's signature: ${verdict.reason}`);
    throw vmError("INVALID_SIGNATURE", verdict.reason);
  }
  checkScript(signed);
  const bytes = encodeSignedTransaction(signed);
  const feePayer = verdict.signers.find((s) => s.role === "fee_payer");
  return {
    signed,
    bytes,
    hash: transactionHash(bytes, domain),
    payloadBytes: encodeBcs(TransactionPayload, signed.raw_txn.payload),
    sender: signed.raw_txn.sender,
    replayProtector: replayProtectorOf(signed),
    signers: verdict.signers,
    gasPayer: feePayer?.address ?? signed.raw_txn.sender,
  };
}

function checkPayloadKind(signed: SignedTransaction): void {
  const payload = signed.raw_txn.payload;
  if (payload.$kind === "ModuleBundle")
    throw new LedgerError(400, "invalid_input", "Module bundle payloads are deprecated and not accepted");
  if (payload.$kind === "Payload") {
    const { executable, extra_config } = payload.Payload.V1;
    if (executable.$kind === "Empty" && extra_config.V1.multisig_address === null)
      throw new LedgerError(400, "invalid_input", "An empty executable is only allowed in a multisig payload");
  }
}

/** The script a transaction carries, as a Script payload or an orderless payload's executable. */
export function scriptOf(signed: SignedTransaction): Script | undefined {
  const payload = signed.raw_txn.payload;
  if (payload.$kind === "Script") return payload.Script;
  if (payload.$kind === "Payload" && payload.Payload.V1.executable.$kind === "Script") return payload.Payload.V1.executable.Script;
  return undefined;
}

/**
 * A script's bytecode must be a well-formed script: one that cannot be deserialized is refused with the
 * VM status CODE_DESERIALIZATION_ERROR, the one aptos-core's VM gives a script it cannot load
 * (third_party/move/move-binary-format/src/deserializer.rs `CompiledScript::deserialize_with_config`).
 * aptos-core meets it when it executes the script; this node checks it on admission, where the client
 * still hears why. A version or construct newer than the codec reads is no evidence against the
 * script: it is let through (its calls are resolved when it executes).
 */
function checkScript(signed: SignedTransaction): void {
  const script = scriptOf(signed);
  if (script === undefined) return;
  try {
    deserializeScript(script.code);
  } catch (error) {
    if (error instanceof MalformedModule)
      throw vmError("CODE_DESERIALIZATION_ERROR", `the script cannot be deserialized: ${error.message}`);
    if (!(error instanceof UnsupportedModule)) throw error;
  }
}

/**
 * A sponsored transaction may come from an account that does not exist yet: aptos-core creates it
 * (aptos-move/aptos-vm/src/aptos_vm.rs `is_account_init_for_sponsored_transaction`: the feature
 * SPONSORED_AUTOMATIC_ACCOUNT_V1_CREATION, on in types/src/on_chain_config/aptos_features.rs
 * `default_features`; a fee payer; sequence number 0; no Account resource at the sender). The
 * prologue (aptos-framework/sources/transaction_validation.move `prologue_common`,
 * `check_for_replay_protection_regular_txn`) then holds the sender to what an account without a
 * resource has (account.move `get_authentication_key`, `get_sequence_number`): the authentication key
 * is the address itself, and the sequence number is 0. Such a sender is the account it is about to be.
 */
export function sponsoredNewSender(txn: PendingTransaction, signer: ClaimedSigner): AccountState | undefined {
  const feePayer = txn.signers.find((s) => s.role === "fee_payer");
  if (feePayer === undefined || bytesEqual(feePayer.address, signer.address)) return undefined;
  if (txn.replayProtector.type !== "sequence_number" || txn.replayProtector.sequenceNumber !== 0n) return undefined;
  return newAccount(signer.address);
}

/** Whether executing `txn` creates its sender (a sponsored transaction from an address with no account). */
export function createsSender(txn: PendingTransaction, view: Pick<PrologueView, "account">): boolean {
  if (view.account(txn.sender) !== undefined) return false;
  const signer = txn.signers.find((s) => s.role === "sender");
  return signer !== undefined && sponsoredNewSender(txn, signer) !== undefined;
}

/** An account as 0x1::account::create_account_if_does_not_exist makes it: key = address, nothing else. */
export function newAccount(address: Uint8Array): AccountState {
  return { sequenceNumber: 0n, authenticationKey: new Uint8Array(address), balance: 0n };
}

/** The prologue against the latest state. Throws 400 vm_error with the VM status code. */
export function checkPrologue(txn: PendingTransaction, view: PrologueView, mode: PrologueMode): void {
  const raw = txn.signed.raw_txn;

  if (raw.max_gas_amount > MAX_GAS_UNITS)
    throw vmError("MAX_GAS_UNITS_EXCEEDS_MAX_GAS_UNITS_BOUND", `max_gas_amount ${raw.max_gas_amount} is above ${MAX_GAS_UNITS}`);
  // A sponsored sender that does not exist yet must also cover its account's creation (aptos-move/
  // aptos-vm/src/gas.rs `check_gas`, "Insufficient gas for sponsored transaction").
  const intrinsic = intrinsicGas(txn.bytes.length) + (createsSender(txn, view) ? GAS.createAccount : 0n);
  if (raw.max_gas_amount < intrinsic)
    throw vmError(
      "MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS",
      `max_gas_amount ${raw.max_gas_amount} is below the ${intrinsic} units this transaction needs`,
    );
  if (raw.gas_unit_price < view.minGasUnitPrice)
    throw vmError("GAS_UNIT_PRICE_BELOW_MIN_BOUND", `gas_unit_price ${raw.gas_unit_price} is below the minimum ${view.minGasUnitPrice}`);
  if (raw.gas_unit_price > MAX_GAS_UNIT_PRICE)
    throw vmError("GAS_UNIT_PRICE_ABOVE_MAX_BOUND", `gas_unit_price ${raw.gas_unit_price} is above ${MAX_GAS_UNIT_PRICE}`);

  if (view.nowSeconds >= raw.expiration_timestamp_secs)
    throw vmError(
      "TRANSACTION_EXPIRED",
      `expiration_timestamp_secs ${raw.expiration_timestamp_secs} is not after the chain time ${view.nowSeconds}`,
    );
  if (raw.chain_id !== view.chainId) throw vmError("BAD_CHAIN_ID", `chain id ${raw.chain_id} is not this chain's (${view.chainId})`);

  const seen = new Set<string>();
  for (const signer of txn.signers) {
    const key = bytesToHex(signer.address);
    if (seen.has(key)) throw vmError("SIGNERS_CONTAIN_DUPLICATES", `0x${key} signs more than once`);
    seen.add(key);
  }
  let sender: AccountState | undefined;
  for (const signer of txn.signers) {
    const account = view.account(signer.address) ?? (signer.role === "sender" ? sponsoredNewSender(txn, signer) : undefined);
    if (account === undefined) {
      if (signer.role === "fee_payer")
        throw vmError("GAS_PAYER_ACCOUNT_MISSING", `fee payer 0x${bytesToHex(signer.address)} does not exist`);
      throw vmError("SENDING_ACCOUNT_DOES_NOT_EXIST", `${signer.role} account 0x${bytesToHex(signer.address)} does not exist`);
    }
    if (!bytesEqual(account.authenticationKey, signer.authenticationKey))
      throw vmError("INVALID_AUTH_KEY", `the ${signer.role} key does not match the authentication key of 0x${bytesToHex(signer.address)}`);
    if (signer.role === "sender") sender = account;
  }
  if (sender === undefined) throw vmError("SENDING_ACCOUNT_DOES_NOT_EXIST", "the transaction names no sender");

  const multisig = multisigRequestOf(txn.signed);
  if (multisig !== undefined) validateMultisig(multisig, view.multisig(multisig.address), txn.sender);

  const protector = txn.replayProtector;
  if (protector.type === "sequence_number") {
    if (protector.sequenceNumber < sender.sequenceNumber)
      throw vmError(
        "SEQUENCE_NUMBER_TOO_OLD",
        `sequence number ${protector.sequenceNumber} is below the account's ${sender.sequenceNumber}`,
      );
    if (mode === "execution" && protector.sequenceNumber > sender.sequenceNumber)
      throw vmError(
        "SEQUENCE_NUMBER_TOO_NEW",
        `sequence number ${protector.sequenceNumber} is ahead of the account's ${sender.sequenceNumber}`,
      );
  } else if (view.isNonceUsed(txn.sender, protector.nonce)) {
    throw vmError("SEQUENCE_NONCE_INVALID", `nonce ${protector.nonce} was already used`);
  }

  const payer = view.account(txn.gasPayer);
  const maxFee = raw.max_gas_amount * raw.gas_unit_price;
  if (payer === undefined || payer.balance < maxFee)
    throw vmError("INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE", `the gas payer cannot pay the maximum fee of ${maxFee} octas`);
}
