// GET /v1/transactions/by_hash/{hash} under BCS: aptos-core answers the `TransactionData` it found
// (api/src/transactions.rs `get_transaction_inner`, BCS arm: `try_from_bcs(transaction_data)`), an
// enum of the committed transaction with its output, or the signed transaction still in the mempool.
// Layouts after aptos-core api/types/src/transaction.rs, types/src/transaction/mod.rs,
// types/src/contract_event.rs, types/src/write_set.rs and types/src/state_store/.
import { bcs } from "@mysten/bcs";
import { HashValueBcs, SignedTransaction, TypeTag } from "./bcs.ts";
import { AccountAddress, Bytes, canonicalMap, Identifier, U64 } from "./bcs-primitives.ts";

/** move-core-types vm_status.rs `AbortLocation { Module(ModuleId), Script }`. */
const AbortLocationBcs = bcs.enum("AbortLocation", {
  Module: bcs.struct("ModuleId", { address: AccountAddress, name: Identifier }),
  Script: null,
});

/**
 * types/src/transaction/mod.rs `ExecutionStatus`. A StatusCode serializes as its u64 value
 * (move-core-types vm_status.rs `impl Serialize for StatusCode`).
 */
export const ExecutionStatusBcs = bcs.enum("ExecutionStatus", {
  Success: null,
  OutOfGas: null,
  MoveAbort: bcs.struct("MoveAbort", {
    location: AbortLocationBcs,
    code: U64,
    info: bcs.option(bcs.struct("AbortInfo", { reason_name: bcs.string(), description: bcs.string() })),
  }),
  ExecutionFailure: bcs.struct("ExecutionFailure", { location: AbortLocationBcs, function: bcs.u16(), code_offset: bcs.u16() }),
  MiscellaneousError: bcs.option(U64),
});

/**
 * types/src/transaction/mod.rs `enum TransactionInfo { V0(TransactionInfoV0) }`, its members in
 * declaration order; the last, `auxiliary_info_hash`, is None for a transaction without persisted
 * auxiliary info.
 */
export const TransactionInfoBcs = bcs.enum("TransactionInfo", {
  V0: bcs.struct("TransactionInfoV0", {
    gas_used: U64,
    status: ExecutionStatusBcs,
    transaction_hash: HashValueBcs,
    event_root_hash: HashValueBcs,
    state_change_hash: HashValueBcs,
    state_checkpoint_hash: bcs.option(HashValueBcs),
    auxiliary_info_hash: bcs.option(HashValueBcs),
  }),
});

/** types/src/contract_event.rs `enum ContractEvent { V1(ContractEventV1), V2(ContractEventV2) }`. */
export const ContractEventBcs = bcs.enum("ContractEvent", {
  V1: bcs.struct("ContractEventV1", {
    key: bcs.struct("EventKey", { creation_number: U64, account_address: AccountAddress }),
    sequence_number: U64,
    type_tag: TypeTag,
    event_data: Bytes,
  }),
  V2: bcs.struct("ContractEventV2", { type_tag: TypeTag, event_data: Bytes }),
});

/** types/src/state_store/state_key/inner.rs `StateKeyInner`, which StateKey serializes as. */
const StateKeyBcs = bcs.enum("StateKey", {
  AccessPath: bcs.struct("AccessPath", { address: AccountAddress, path: Bytes }),
  TableItem: bcs.struct("TableItem", { handle: AccountAddress, key: Bytes }),
  Raw: Bytes,
});

/** types/src/state_store/state_value.rs `PersistedStateValueMetadata`. */
const StateValueMetadataBcs = bcs.enum("StateValueMetadata", {
  V0: bcs.struct("StateValueMetadataV0", { deposit: U64, creation_time_usecs: U64 }),
  V1: bcs.struct("StateValueMetadataV1", { slot_deposit: U64, bytes_deposit: U64, creation_time_usecs: U64 }),
});

/** types/src/write_set.rs `PersistedWriteOp`, which WriteOp serializes as. */
const WriteOpBcs = bcs.enum("WriteOp", {
  Creation: Bytes,
  Modification: Bytes,
  Deletion: null,
  CreationWithMetadata: bcs.struct("CreationWithMetadata", { data: Bytes, metadata: StateValueMetadataBcs }),
  ModificationWithMetadata: bcs.struct("ModificationWithMetadata", { data: Bytes, metadata: StateValueMetadataBcs }),
  DeletionWithMetadata: bcs.struct("DeletionWithMetadata", { metadata: StateValueMetadataBcs }),
});

/**
 * types/src/write_set.rs: WriteSet serializes its value write set only, `enum WriteSet { V0(WriteSetV0) }`,
 * WriteSetV0 a newtype of WriteSetMut `{ write_set: BTreeMap<StateKey, WriteOp> }` (a BCS map, sorted by key bytes).
 */
export const WriteSetBcs = bcs.enum("WriteSet", { V0: canonicalMap("WriteSetV0", StateKeyBcs, WriteOpBcs) });

/**
 * types/src/transaction/mod.rs `enum Transaction`: only its first variant, `UserTransaction(SignedTransaction)`,
 * is laid out here, the only kind GET by_hash finds on this node; a later variant (genesis, block metadata,
 * state checkpoint, validator, block epilogue) does not decode.
 */
export const TransactionBcs = bcs.enum("Transaction", { UserTransaction: SignedTransaction });

/** api/types/src/transaction.rs `TransactionOnChainData`. */
export const TransactionOnChainDataBcs = bcs.struct("TransactionOnChainData", {
  version: U64,
  transaction: TransactionBcs,
  info: TransactionInfoBcs,
  events: bcs.vector(ContractEventBcs),
  accumulator_root_hash: HashValueBcs,
  changes: WriteSetBcs,
});

/** api/types/src/transaction.rs `enum TransactionData { OnChain(TransactionOnChainData), Pending(Box<SignedTransaction>) }`. */
export const TransactionDataBcs = bcs.enum("TransactionData", {
  OnChain: TransactionOnChainDataBcs,
  Pending: SignedTransaction,
});

export type ExecutionStatusBcs = typeof ExecutionStatusBcs.$inferType;
export type TransactionDataBcs = typeof TransactionDataBcs.$inferType;
export type TransactionDataBcsInput = typeof TransactionDataBcs.$inferInput;
