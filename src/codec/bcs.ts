// BCS schemas of transactions (the family's convention) and of the read responses, with @mysten/bcs. Each schema
// and its decoded shape share a name (see index.ts). Layouts follow aptos-core types/src/transaction.
import { bcs, type BcsType } from "@mysten/bcs";
import {
  AccountAddress,
  Bytes,
  canonicalMap,
  decodeExact,
  encodeWith,
  Identifier,
  RawBytes,
  sizedBytes,
  U128,
  U256,
  U64,
} from "./bcs-primitives.ts";
import { TransactionAuthenticator } from "./bcs-auth.ts";
import { toHex } from "./hex.ts";

/** A Move type tag. Hand-written because it is recursive; the enum order is aptos-core's. */
export type TypeTag =
  | { Bool: true; $kind: "Bool" }
  | { U8: true; $kind: "U8" }
  | { U64: true; $kind: "U64" }
  | { U128: true; $kind: "U128" }
  | { Address: true; $kind: "Address" }
  | { Signer: true; $kind: "Signer" }
  | { Vector: TypeTag; $kind: "Vector" }
  | { Struct: StructTag; $kind: "Struct" }
  | { U16: true; $kind: "U16" }
  | { U32: true; $kind: "U32" }
  | { U256: true; $kind: "U256" };
export interface StructTag {
  address: Uint8Array;
  module: string;
  name: string;
  type_args: TypeTag[];
}
/** What the TypeTag schema accepts: the same without `$kind`. */
export type TypeTagInput =
  | { Bool: true }
  | { U8: true }
  | { U64: true }
  | { U128: true }
  | { Address: true }
  | { Signer: true }
  | { Vector: TypeTagInput }
  | { Struct: StructTagInput }
  | { U16: true }
  | { U32: true }
  | { U256: true };
export interface StructTagInput {
  address: Uint8Array;
  module: string;
  name: string;
  type_args: readonly TypeTagInput[];
}

// The casts only replace @mysten/bcs's inferred shapes by the hand-written recursive ones above.
export const TypeTag: BcsType<TypeTag, TypeTagInput> = bcs.enum("TypeTag", {
  Bool: null,
  U8: null,
  U64: null,
  U128: null,
  Address: null,
  Signer: null,
  Vector: bcs.lazy(() => TypeTag),
  Struct: bcs.lazy(() => StructTag),
  U16: null,
  U32: null,
  U256: null,
}) as unknown as BcsType<TypeTag, TypeTagInput>;

export const StructTag: BcsType<StructTag, StructTagInput> = bcs.struct("StructTag", {
  address: AccountAddress,
  module: Identifier,
  name: Identifier,
  type_args: bcs.vector(bcs.lazy(() => TypeTag)),
}) as unknown as BcsType<StructTag, StructTagInput>;

export const ModuleId = bcs.struct("ModuleId", { address: AccountAddress, name: Identifier });

/** Entry function arguments are each the BCS bytes of one Move value. */
export const EntryFunction = bcs.struct("EntryFunction", {
  module: ModuleId,
  function: Identifier,
  ty_args: bcs.vector(TypeTag),
  args: bcs.vector(Bytes),
});

export const TransactionArgument = bcs.enum("TransactionArgument", {
  U8: bcs.u8(),
  U64: U64,
  U128: U128,
  Address: AccountAddress,
  U8Vector: Bytes,
  Bool: bcs.bool(),
  U16: bcs.u16(),
  U32: bcs.u32(),
  U256: U256,
  Serialized: Bytes,
});

export const Script = bcs.struct("Script", {
  code: Bytes,
  ty_args: bcs.vector(TypeTag),
  args: bcs.vector(TransactionArgument),
});

export const MultisigTransactionPayload = bcs.enum("MultisigTransactionPayload", { EntryFunction });

export const Multisig = bcs.struct("Multisig", {
  multisig_address: AccountAddress,
  transaction_payload: bcs.option(MultisigTransactionPayload),
});

/** The orderless payload (AIP-123): TransactionPayload variant 4, "Payload". */
export const TransactionExecutable = bcs.enum("TransactionExecutable", { Script, EntryFunction, Empty: null });
export const TransactionExtraConfig = bcs.enum("TransactionExtraConfig", {
  V1: bcs.struct("TransactionExtraConfigV1", {
    multisig_address: bcs.option(AccountAddress),
    replay_protection_nonce: bcs.option(U64),
  }),
});
export const TransactionPayloadInner = bcs.enum("TransactionPayloadInner", {
  V1: bcs.struct("TransactionPayloadInnerV1", { executable: TransactionExecutable, extra_config: TransactionExtraConfig }),
});

export const TransactionPayload = bcs.enum("TransactionPayload", {
  Script,
  /** Deprecated; aptos-core keeps it as `DeprecatedPayload { dummy_value: u64 }`. Nodes reject it. */
  ModuleBundle: bcs.struct("DeprecatedPayload", { dummy_value: U64 }),
  EntryFunction,
  Multisig,
  Payload: TransactionPayloadInner,
});

export const RawTransaction = bcs.struct("RawTransaction", {
  sender: AccountAddress,
  sequence_number: U64,
  payload: TransactionPayload,
  max_gas_amount: U64,
  gas_unit_price: U64,
  expiration_timestamp_secs: U64,
  chain_id: bcs.u8(),
});

export const SignedTransaction = bcs.struct("SignedTransaction", {
  raw_txn: RawTransaction,
  authenticator: TransactionAuthenticator,
});

/** What multi-agent and fee-payer signers sign (under "…::RawTransactionWithData"). */
export const RawTransactionWithData = bcs.enum("RawTransactionWithData", {
  MultiAgent: bcs.struct("MultiAgentRawTransaction", {
    raw_txn: RawTransaction,
    secondary_signer_addresses: bcs.vector(AccountAddress),
  }),
  MultiAgentWithFeePayer: bcs.struct("FeePayerRawTransaction", {
    raw_txn: RawTransaction,
    secondary_signer_addresses: bcs.vector(AccountAddress),
    fee_payer_address: AccountAddress,
  }),
});

// Read responses (Accept: application/x-bcs), as aptos-core writes them (the family's convention: the spec does not
// define the layouts; the family's are the only ones an existing client reads).

/** One module: its bytecode bytes as they are, no length prefix (api/src/state.rs `module`: `try_from_encoded(bytes)`). */
export const ModuleBytecodeBcs = RawBytes;

/**
 * The modules listing: aptos-core collects the page into a `BTreeMap<MoveModuleId, Vec<u8>>` and BCS-encodes
 * it (api/src/accounts.rs `modules`, BCS arm). MoveModuleId serializes as its string `{address}::{name}`
 * in every format (api/types/src/move_types.rs `impl Serialize for MoveModuleId`: `to_string()`), its
 * address written as api/types/src/address.rs `Display` does, 0x and the hex with leading zeros stripped
 * (`to_hex_literal`, see `moduleIdString`). A BCS map is sorted by the keys' BCS bytes, so by the
 * string's length first: "0x1::coin" comes before "0x1::account".
 */
export const ModuleMapBcs = canonicalMap("ModuleMap", bcs.string(), Bytes);

/** The key aptos-core gives a module in the listing's map: `0x{hex without leading zeros}::{name}`. */
export function moduleIdString(address: Uint8Array, name: string): string {
  const digits = toHex(address).slice(2).replace(/^0+/, "");
  return `0x${digits === "" ? "0" : digits}::${name}`;
}

/** types/src/transaction/mod.rs `enum ReplayProtector { Nonce(u64), SequenceNumber(u64) }`. */
export const ReplayProtectorBcs = bcs.enum("ReplayProtector", { Nonce: U64, SequenceNumber: U64 });

/**
 * HashValue under BCS: `serialize_newtype_struct("HashValue", serde_bytes::Bytes::new(..))`
 * (crates/aptos-crypto/src/hash.rs), a byte vector: ULEB128 length 32, then the 32 bytes.
 */
export const HashValueBcs = sizedBytes("HashValue", (length) => length === 32, "32 bytes");

/**
 * One summary: types/src/transaction/mod.rs `enum IndexedTransactionSummary { V1 { sender, version,
 * transaction_hash: HashValue, replay_protector } }`, which the summaries endpoint BCS-encodes as is
 * (api/src/transactions.rs `list_txn_summaries_by_account`, BCS arm, over api/src/context.rs
 * `get_account_transaction_summaries` -> `Vec<IndexedTransactionSummary>`).
 */
export const TransactionSummaryBcs = bcs.enum("IndexedTransactionSummary", {
  V1: bcs.struct("IndexedTransactionSummaryV1", {
    sender: AccountAddress,
    version: U64,
    transaction_hash: HashValueBcs,
    replay_protector: ReplayProtectorBcs,
  }),
});
export const TransactionSummaryListBcs = bcs.vector(TransactionSummaryBcs);
export const GasEstimationBcs = bcs.struct("GasEstimation", {
  deprioritized_gas_estimate: bcs.option(U64),
  gas_estimate: U64,
  prioritized_gas_estimate: bcs.option(U64),
});
export const HealthBcs = bcs.struct("HealthCheckSuccess", { message: bcs.string() });

/**
 * GET /v1 under BCS: aptos-core's IndexResponseBcs (api/types/src/index.rs). Its U64 members are the
 * API's U64, whose Serialize writes the decimal string in every format (api/types/src/move_types.rs
 * `define_integer_type!`), so under BCS each is a length-prefixed string; node_role is config's
 * RoleType enum {Validator, FullNode}.
 */
export const IndexResponseBcs = bcs.struct("IndexResponseBcs", {
  chain_id: bcs.u8(),
  epoch: bcs.string(),
  ledger_version: bcs.string(),
  oldest_ledger_version: bcs.string(),
  ledger_timestamp: bcs.string(),
  node_role: bcs.enum("RoleType", { Validator: null, FullNode: null }),
  oldest_block_height: bcs.string(),
  block_height: bcs.string(),
});

/** 0x1::event::EventHandle: a counter and its GUID {id: {creation_num, addr}} (types/src/event.rs). */
const EventHandleBcs = bcs.struct("EventHandle", {
  counter: U64,
  guid: bcs.struct("GUID", { id: bcs.struct("ID", { creation_num: U64, addr: AccountAddress }) }),
});

/**
 * 0x1::account::Account, what aptos-core answers GET /accounts/{address} with under BCS (the state
 * value's bytes; api/src/accounts.rs `account`): types/src/account_config/resources/core_account.rs.
 */
export const AccountResourceBcs = bcs.struct("AccountResource", {
  authentication_key: Bytes,
  sequence_number: U64,
  guid_creation_num: U64,
  coin_register_events: EventHandleBcs,
  key_rotation_events: EventHandleBcs,
  rotation_capability_offer: bcs.option(AccountAddress),
  signer_capability_offer: bcs.option(AccountAddress),
});

export type ModuleId = typeof ModuleId.$inferType;
export type EntryFunction = typeof EntryFunction.$inferType;
export type EntryFunctionInput = typeof EntryFunction.$inferInput;
export type TransactionArgument = typeof TransactionArgument.$inferType;
export type Script = typeof Script.$inferType;
export type Multisig = typeof Multisig.$inferType;
export type TransactionExecutable = typeof TransactionExecutable.$inferType;
export type TransactionPayload = typeof TransactionPayload.$inferType;
export type TransactionPayloadInput = typeof TransactionPayload.$inferInput;
export type RawTransaction = typeof RawTransaction.$inferType;
export type RawTransactionInput = typeof RawTransaction.$inferInput;
export type SignedTransaction = typeof SignedTransaction.$inferType;
export type SignedTransactionInput = typeof SignedTransaction.$inferInput;
export type RawTransactionWithData = typeof RawTransactionWithData.$inferType;
export type RawTransactionWithDataInput = typeof RawTransactionWithData.$inferInput;
export type ModuleBytecodeBcs = typeof ModuleBytecodeBcs.$inferType;
export type ModuleMapBcs = typeof ModuleMapBcs.$inferType;
export type TransactionSummaryBcs = typeof TransactionSummaryBcs.$inferType;
export type TransactionSummaryListBcs = typeof TransactionSummaryListBcs.$inferType;
export type GasEstimationBcs = typeof GasEstimationBcs.$inferType;
export type HealthBcs = typeof HealthBcs.$inferType;
export type AccountResourceBcs = typeof AccountResourceBcs.$inferType;

/** BCS bytes of any value of `schema`; throws CodecError when the value does not fit. */
export function encodeBcs<I>(schema: BcsType<unknown, I>, value: I): Uint8Array {
  return encodeWith(schema, value, `BCS ${schema.name}`);
}

/** Decodes exactly `bytes` (no trailing bytes) with `schema`; throws CodecError. */
export function decodeBcs<T, I>(schema: BcsType<T, I>, bytes: Uint8Array): T {
  return decodeExact(schema, bytes, `BCS ${schema.name}`);
}

export const encodeSignedTransaction = (signed: SignedTransactionInput): Uint8Array => encodeBcs(SignedTransaction, signed);
export const decodeSignedTransaction = (bytes: Uint8Array): SignedTransaction => decodeBcs(SignedTransaction, bytes);
export const encodeRawTransaction = (raw: RawTransactionInput): Uint8Array => encodeBcs(RawTransaction, raw);
export const decodeRawTransaction = (bytes: Uint8Array): RawTransaction => decodeBcs(RawTransaction, bytes);

/**
 * The BCS bytes of the Move value a script argument carries, as the VM passes it to the script's main
 * (types/src/transaction/script.rs `TransactionArgument`: each variant is its value's BCS; Serialized is
 * those bytes already).
 */
export function scriptArgumentBytes(arg: TransactionArgument): Uint8Array {
  switch (arg.$kind) {
    case "U8":
      return bcs.u8().serialize(arg.U8).toBytes();
    case "U16":
      return bcs.u16().serialize(arg.U16).toBytes();
    case "U32":
      return bcs.u32().serialize(arg.U32).toBytes();
    case "U64":
      return bcs.u64().serialize(arg.U64).toBytes();
    case "U128":
      return bcs.u128().serialize(arg.U128).toBytes();
    case "U256":
      return bcs.u256().serialize(arg.U256).toBytes();
    case "Bool":
      return bcs.bool().serialize(arg.Bool).toBytes();
    case "Address":
      return new Uint8Array(arg.Address);
    case "U8Vector":
      return bcs.byteVector().serialize(arg.U8Vector).toBytes();
    case "Serialized":
      return new Uint8Array(arg.Serialized);
  }
}
