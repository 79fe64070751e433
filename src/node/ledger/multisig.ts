// The multisig transaction flow (AIP-12), as aptos-core runs it: an owner of a multisig account executes
// the account's next approved proposal as the account. The prologue calls
// aptos-framework/sources/multisig_account.move `validate_multisig_transaction` (the account exists,
// the sender is an owner, the proposal last_executed_sequence_number + 1 exists and has enough approvals,
// counting the executing owner's implicit vote, and a payload given matches the proposal), and
// aptos-move/aptos-vm/src/errors.rs `convert_prologue_error` turns its aborts into the validation
// statuses ACCOUNT_NOT_MULTISIG, NOT_MULTISIG_OWNER, MULTISIG_TRANSACTION_NOT_FOUND,
// MULTISIG_TRANSACTION_INSUFFICIENT_APPROVALS and MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH_HASH. The
// execution runs the proposal's entry function with the multisig account as its signer; whether it
// succeeds or fails, the proposal is then resolved (`successful_transaction_execution_cleanup`,
// `failed_transaction_execution_cleanup`: last_executed_sequence_number moves on, the proposal is removed).

import { bytesToHex } from "@noble/hashes/utils.js";
import {
  bytesEqual,
  decodeBcs,
  encodeBcs,
  MultisigTransactionPayload,
  sha3_256,
  type EntryFunction,
  type SignedTransaction,
} from "../../codec/index.ts";
import type { MultisigAccountState, MultisigProposal } from "./state.ts";
import { vmError } from "./vm-status.ts";

/** What a transaction asks of a multisig account: its address and the entry function it gives, if any. */
export interface MultisigRequest {
  readonly address: Uint8Array;
  readonly call: EntryFunction | undefined;
}

/** The multisig request of a Multisig payload, or of an orderless payload with a multisig address; else undefined. */
export function multisigRequestOf(signed: SignedTransaction): MultisigRequest | undefined {
  const payload = signed.raw_txn.payload;
  if (payload.$kind === "Multisig") {
    const inner = payload.Multisig.transaction_payload;
    return { address: payload.Multisig.multisig_address, call: inner?.EntryFunction ?? undefined };
  }
  if (payload.$kind === "Payload") {
    const { executable, extra_config } = payload.Payload.V1;
    const address = extra_config.V1.multisig_address;
    if (address === null || address === undefined) return undefined;
    return { address, call: executable.$kind === "EntryFunction" ? executable.EntryFunction : undefined };
  }
  return undefined;
}

/** The BCS of MultisigTransactionPayload::EntryFunction(call): what a proposal stores, or hashes. */
export function proposalPayloadBytes(call: EntryFunction): Uint8Array {
  return encodeBcs(MultisigTransactionPayload, { EntryFunction: call });
}

/** The proposal the next multisig transaction executes, and its sequence number. */
export function nextProposal(account: MultisigAccountState): { sequenceNumber: bigint; proposal: MultisigProposal | undefined } {
  const sequenceNumber = account.lastExecutedSequenceNumber + 1n;
  return { sequenceNumber, proposal: account.transactions.get(sequenceNumber) };
}

/** validate_multisig_transaction, with the VM statuses convert_prologue_error gives its aborts. Throws 400 vm_error. */
export function validateMultisig(request: MultisigRequest, account: MultisigAccountState | undefined, sender: Uint8Array): void {
  const at = `0x${bytesToHex(request.address)}`;
  if (account === undefined) throw vmError("ACCOUNT_NOT_MULTISIG", `${at} is not a multisig account`);
  const owner = bytesToHex(sender);
  if (!account.owners.includes(owner)) throw vmError("NOT_MULTISIG_OWNER", `0x${owner} is not an owner of the multisig account ${at}`);
  const { sequenceNumber, proposal } = nextProposal(account);
  if (proposal === undefined)
    throw vmError("MULTISIG_TRANSACTION_NOT_FOUND", `the multisig account ${at} has no proposal ${sequenceNumber} to execute`);
  const approvals = new Set(proposal.approvals.filter((a) => account.owners.includes(a)));
  approvals.add(owner);
  if (BigInt(approvals.size) < account.numSignaturesRequired)
    throw vmError(
      "MULTISIG_TRANSACTION_INSUFFICIENT_APPROVALS",
      `proposal ${sequenceNumber} of ${at} has ${approvals.size} approvals of the ${account.numSignaturesRequired} required`,
    );
  const given = request.call === undefined ? undefined : proposalPayloadBytes(request.call);
  if (proposal.payloadHash !== undefined && (given === undefined || !bytesEqual(sha3_256(given), proposal.payloadHash)))
    throw vmError(
      "MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH_HASH",
      `the payload does not match the hash proposal ${sequenceNumber} holds`,
    );
  if (proposal.payload !== undefined && given !== undefined && !bytesEqual(given, proposal.payload))
    throw vmError("MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH_HASH", `the payload is not the one proposal ${sequenceNumber} holds`);
}

/** The entry function a validated multisig transaction runs: the one it gives, else the proposal's. */
export function proposalCall(request: MultisigRequest, proposal: MultisigProposal): EntryFunction | undefined {
  if (request.call !== undefined) return request.call;
  if (proposal.payload === undefined) return undefined;
  const decoded = decodeBcs(MultisigTransactionPayload, proposal.payload);
  return decoded.EntryFunction;
}

/** The account with its next proposal resolved: removed, and last_executed_sequence_number moved on to it. */
export function resolveNextProposal(account: MultisigAccountState): MultisigAccountState {
  const { sequenceNumber } = nextProposal(account);
  const transactions = new Map(account.transactions);
  transactions.delete(sequenceNumber);
  return { ...account, transactions, lastExecutedSequenceNumber: sequenceNumber };
}
