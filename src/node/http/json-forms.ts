// JSON forms of the engine's results (the family's convention): addresses as formatAddress, u64 as decimal strings,
// bytes as 0x hex, gas estimates as JSON integers.

import { deserializeModule, formatAddress, structEnumAbis, toHex, type MoveModuleAbi } from "../../codec/index.ts";
import type { AccountInfo, GasEstimate, LedgerInfo, ModuleRecord, TransactionByHash, TransactionSummary } from "../ledger/api.ts";
import type { Profile } from "./profile.ts";

export function transactionSummaryJson(summary: TransactionSummary, profile: Profile): Record<string, unknown> {
  return {
    sender: formatAddress(summary.sender),
    version: summary.version.toString(),
    transaction_hash: toHex(summary.hash),
    replay_protector: replayProtectorJson(summary.replayProtector, profile),
  };
}

function replayProtectorJson(protector: TransactionSummary["replayProtector"], profile: Profile): unknown {
  const value = protector.type === "sequence_number" ? protector.sequenceNumber.toString() : protector.nonce.toString();
  if (profile.replayProtectorJson === "bare") return value;
  return protector.type === "sequence_number" ? { type: "sequence_number", sequence_number: value } : { type: "nonce", nonce: value };
}

export function moduleJson(record: ModuleRecord, profile: Profile): Record<string, unknown> {
  return { bytecode: toHex(record.bytecode), abi: profile.structEnumMembers ? withStructEnumMembers(record) : record.abi };
}

/** The ABI with is_enum after is_event and variants after fields in every struct (Profile.structEnumMembers). */
function withStructEnumMembers(record: ModuleRecord): MoveModuleAbi {
  const enums = structEnumAbis(deserializeModule(record.bytecode));
  return {
    ...record.abi,
    structs: record.abi.structs.map((struct, i) => {
      const { is_enum, variants } = enums[i] ?? { is_enum: false, variants: [] };
      const { name, is_native, is_event, abilities, generic_type_params, fields } = struct;
      return { name, is_native, is_event, is_enum, abilities, generic_type_params, fields, variants };
    }),
  };
}

/**
 * JSON integers (the family's convention). Estimates are far below 2^53, but a bigint cannot be serialised, and a
 * silent rounding would be wrong: refuse rather than lie.
 */
export function gasEstimateJson(estimate: GasEstimate): Record<string, number> {
  return {
    deprioritized_gas_estimate: safeNumber(estimate.deprioritized),
    gas_estimate: safeNumber(estimate.market),
    prioritized_gas_estimate: safeNumber(estimate.prioritized),
  };
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`gas estimate ${value} exceeds 2^53`);
  return Number(value);
}

/** GET /v1 (not in the spec): what Aptos clients read the chain id from. */
export function ledgerInfoJson(info: LedgerInfo): Record<string, unknown> {
  return {
    chain_id: info.chainId,
    epoch: info.epoch.toString(),
    ledger_version: info.ledgerVersion.toString(),
    oldest_ledger_version: info.oldestLedgerVersion.toString(),
    ledger_timestamp: info.ledgerTimestampUsec.toString(),
    node_role: "full_node",
    oldest_block_height: info.oldestBlockHeight.toString(),
    block_height: info.blockHeight.toString(),
  };
}

/**
 * The pending transaction (the engine's, the family's member order) as the profile writes it: under
 * Profile.replayProtectionNonceAlways with replay_protection_nonce last and null when the transaction
 * has none, as aptos-core's UserTransactionRequest serializes (api/types/src/transaction.rs).
 */
export function pendingTransactionJson(pending: Readonly<Record<string, unknown>>, profile: Profile): Record<string, unknown> {
  if (!profile.replayProtectionNonceAlways) return { ...pending };
  const { replay_protection_nonce: nonce = null, ...rest } = pending;
  return { ...rest, replay_protection_nonce: nonce };
}

/** GET /v1/accounts/{address} (beyond the spec), as aptos-core's AccountData (api/types/src/account.rs). */
export function accountJson(account: AccountInfo): Record<string, unknown> {
  return { sequence_number: account.sequenceNumber.toString(), authentication_key: toHex(account.authenticationKey) };
}

/**
 * GET /v1/transactions/by_hash/{hash} (beyond the spec), as aptos-core's Transaction enum tagged by
 * `type` (api/types/src/transaction.rs): "pending_transaction" {hash, request members}, then
 * "user_transaction": TransactionInfo's members (version, hash, state_change_hash, event_root_hash,
 * state_checkpoint_hash, gas_used, success, vm_status, accumulator_root_hash, changes), the request
 * members, events and timestamp, in aptos-core's order. The node has no state tree, accumulator or
 * events: the three hashes are the stand-ins ledger/transaction-hashes.ts defines; state_checkpoint_hash
 * is null, as aptos-core gives it for a user transaction; changes is [] because the node keeps its
 * writes only as its own account records, which are not aptos-core's WriteSetChange resources (with
 * their state key hashes); events is [] because the node emits none.
 */
export function transactionByHashJson(found: TransactionByHash, profile: Profile): Record<string, unknown> {
  if (found.kind === "pending")
    return { ...pendingTransactionJson({ hash: toHex(found.hash), ...found.request }, profile), type: "pending_transaction" };
  return {
    version: found.version.toString(),
    hash: toHex(found.hash),
    state_change_hash: toHex(found.stateChangeHash),
    event_root_hash: toHex(found.eventRootHash),
    state_checkpoint_hash: null,
    gas_used: found.gasUsed.toString(),
    success: found.success,
    vm_status: found.vmStatus,
    accumulator_root_hash: toHex(found.accumulatorRootHash),
    changes: [],
    ...pendingTransactionJson(found.request, profile),
    events: [],
    timestamp: found.timestampUsec.toString(),
    type: "user_transaction",
  };
}
