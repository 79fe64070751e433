// The contract between the reference node's ledger engine (src/node/ledger) and its HTTP face
// (src/node/http). The engine knows nothing of HTTP, JSON or headers; the HTTP face knows nothing of
// how state is stored. Every failure the engine reports is a LedgerError carrying the status and the
// §7.2 error code the HTTP face answers with.

import type { MoveModuleAbi, SignedTransaction } from "../../codec/index.ts";

/** The §7.2 error codes, exactly. */
export const ERROR_CODES = [
  "account_not_found",
  "resource_not_found",
  "module_not_found",
  "struct_field_not_found",
  "version_not_found",
  "transaction_not_found",
  "table_item_not_found",
  "block_not_found",
  "state_value_not_found",
  "version_pruned",
  "block_pruned",
  "invalid_input",
  "invalid_transaction_update",
  "sequence_number_too_old",
  "vm_error",
  "rejected_by_filter",
  "health_check_failed",
  "mempool_is_full",
  "internal_error",
  "web_framework_error",
  "bcs_not_supported",
  "api_disabled",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error the HTTP face turns into `{message, error_code, vm_error_code?}` with this status. */
export class LedgerError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 410 | 413 | 500 | 503 | 507,
    readonly code: ErrorCode,
    message: string,
    readonly vmErrorCode?: number,
  ) {
    super(message);
    this.name = "LedgerError";
  }
}

/** The ledger state the §2.7 headers report. All u64 values are bigint. */
export interface LedgerInfo {
  readonly chainId: number;
  readonly ledgerVersion: bigint;
  readonly oldestLedgerVersion: bigint;
  readonly ledgerTimestampUsec: bigint;
  readonly epoch: bigint;
  readonly blockHeight: bigint;
  readonly oldestBlockHeight: bigint;
}

/** 32 raw bytes. Formatting (0x1 vs long form) is the HTTP face's job. */
export type AddressBytes = Uint8Array;

/** The ABI types are the codec's: the node serves the ABI the codec derives from the bytecode. */
export type { MoveFunctionGenericTypeParam, MoveFunctionAbi, MoveStructAbi, MoveModuleAbi } from "../../codec/index.ts";
export interface ModuleRecord {
  /** Starts with the Move magic 0xa11ceb0b. */
  readonly bytecode: Uint8Array;
  readonly abi: MoveModuleAbi;
}

export interface ModulePage {
  readonly modules: readonly ModuleRecord[];
  /** Opaque hex cursor naming the next, not yet returned module; absent on the last page. */
  readonly nextCursor?: string;
}

export type ReplayProtector =
  | { readonly type: "sequence_number"; readonly sequenceNumber: bigint }
  | { readonly type: "nonce"; readonly nonce: bigint };

export interface TransactionSummary {
  readonly sender: AddressBytes;
  readonly version: bigint;
  /** 32 bytes. */
  readonly hash: Uint8Array;
  readonly replayProtector: ReplayProtector;
}

export interface GasEstimate {
  readonly deprioritized: bigint;
  readonly market: bigint;
  readonly prioritized: bigint;
}

export interface SubmitResult {
  /** The transaction hash (32 bytes), as the codec computes it. */
  readonly hash: Uint8Array;
  readonly signed: SignedTransaction;
  /** The pending transaction as the family's nodes give it: {hash, sender, sequence_number, max_gas_amount, gas_unit_price, expiration_timestamp_secs, payload, signature}. */
  readonly pendingJson: Record<string, unknown>;
}

/** An account's sequence number and authentication key (GET /v1/accounts/{address}, beyond the spec). */
export interface AccountInfo {
  readonly sequenceNumber: bigint;
  /** 32 bytes. */
  readonly authenticationKey: Uint8Array;
}

/**
 * How a committed transaction ended, as aptos-core records it in TransactionInfo (types/src/transaction/
 * mod.rs `ExecutionStatus`): success, out of gas, a Move abort in a module with its code, or another VM
 * status kept on the ledger (a verification or deserialization failure: `MiscellaneousError(Some(code))`,
 * as `TransactionStatus::from_vm_status` keeps it). The node's vm_status string says the same in words.
 */
export type ExecutionStatus =
  | { readonly kind: "success" }
  | { readonly kind: "out_of_gas" }
  | { readonly kind: "move_abort"; readonly module: { readonly address: AddressBytes; readonly name: string }; readonly code: bigint }
  | { readonly kind: "miscellaneous_error"; readonly statusCode: number };

/** What GET /v1/transactions/by_hash/{hash} (beyond the spec) finds: the transaction in the mempool, or committed. */
export type TransactionByHash =
  | {
      readonly kind: "pending";
      readonly hash: Uint8Array;
      readonly signed: SignedTransaction;
      /** The submission's JSON members (the family's order): sender … signature, replay_protection_nonce when it has one. */
      readonly request: Readonly<Record<string, unknown>>;
    }
  | {
      readonly kind: "committed";
      readonly hash: Uint8Array;
      readonly signed: SignedTransaction;
      readonly request: Readonly<Record<string, unknown>>;
      readonly version: bigint;
      readonly success: boolean;
      /** "Executed successfully", or the VM status of the failure. */
      readonly vmStatus: string;
      readonly status: ExecutionStatus;
      readonly gasUsed: bigint;
      /** Timestamp of the block that holds it. */
      readonly timestampUsec: bigint;
      /** The stand-ins for TransactionInfo's hashes (ledger/transaction-hashes.ts says what each hashes). */
      readonly stateChangeHash: Uint8Array;
      readonly eventRootHash: Uint8Array;
      readonly accumulatorRootHash: Uint8Array;
    };

/** What the HTTP face asks of the ledger engine. `version` undefined means the latest. */
/** How a health check treats a duration_secs reaching before the Unix epoch. */
export interface HealthOptions {
  /**
   * "healthy" (default): like any other threshold, the rule holds. "internal_error": 500 internal_error,
   * as aptos-core, which computes the threshold as a time since the Unix epoch and fails when there is
   * none (api/src/basic.rs `healthy`: `SystemTime::now().sub(..).duration_since(UNIX_EPOCH)` mapped to
   * `internal_with_code(.., AptosErrorCode::InternalError, ..)`).
   */
  readonly beforeEpoch?: "healthy" | "internal_error";
}

/** Which summaries §4.3 asks for. */
export interface SummaryOptions {
  readonly startVersion?: bigint;
  readonly endVersion?: bigint;
  readonly limit: number;
  /**
   * A window that starts (or, with only endVersion, ends) below the oldest retained version: 410
   * version_pruned ("gone", the default), or a scan of what the pruner left ("scan": the summaries from
   * the oldest on, or none when only endVersion is below it).
   */
  readonly belowOldest?: "gone" | "scan";
}

export interface LedgerApi {
  info(): LedgerInfo;

  /** Throws 404 version_not_found above the latest, 410 version_pruned below the oldest, 404 module_not_found. */
  getModule(address: AddressBytes, name: string, version?: bigint): ModuleRecord;

  /** `start` is a cursor this API issued; an unknown or malformed one throws 400 invalid_input. `limit` is already clamped to 1..9999. */
  listModules(address: AddressBytes, options: { version?: bigint; start?: string; limit: number }): ModulePage;

  /**
   * `keyType`, `valueType` are MoveType strings and `key` the JSON value of the key. Returns the BCS bytes
   * of the value and its JSON form. Throws 400 invalid_input for unparsable types or a key that does not
   * fit its type, 404 table_item_not_found, and the version errors.
   */
  getTableItem(
    handle: AddressBytes,
    request: { keyType: string; valueType: string; key: unknown },
    version?: bigint,
  ): { bcs: Uint8Array; json: unknown };

  /** §4.3 and the family's convention: `limit` already clamped to 0..100 (0, an empty page, only under the aptos profile); ascending by version; unknown account gives []. */
  transactionSummaries(address: AddressBytes, options: SummaryOptions): readonly TransactionSummary[];

  gasEstimate(): GasEstimate;

  /** Whether the latest ledger timestamp is within `durationSecs` of the node's clock. */
  isHealthy(durationSecs?: bigint, options?: HealthOptions): boolean;

  /** Accepts a BCS-encoded signed transaction (already decoded) into the mempool, or throws. */
  submit(signed: SignedTransaction): SubmitResult;

  /** The account at `version`; throws 404 account_not_found when it has no state there, and the version errors. */
  account(address: AddressBytes, version?: bigint): AccountInfo;

  /** The transaction with `hash`, pending or committed (while in the pruning window); throws 404 transaction_not_found. */
  transactionByHash(hash: Uint8Array): TransactionByHash;

  /** Converts a JSON submission request (the family's member names) to the signed transaction it describes; throws 400 invalid_input. */
  signedTransactionFromJson(body: unknown): SignedTransaction;
}
