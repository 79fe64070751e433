// The LedgerApi the HTTP face serves: reads at any version in the pruning window, the gas estimate, health
// against the clock, and submission into the mempool. Time moves by tick(): it produces every block the
// clock says is due (info() does so first when autoTick is on, and every request starts with info()).

import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { BoundedMap } from "../../codec/bounded-map.ts";
import {
  CodecError,
  decodeMoveValue,
  encodeMoveValue,
  parseAddress,
  parseTypeTag,
  signedTransactionFromJson,
  signedTransactionToJson,
  toHex,
  type FunctionParams,
  type SignedTransaction,
  type TypeTag,
} from "../../codec/index.ts";
import {
  LedgerError,
  type AccountInfo,
  type AddressBytes,
  type GasEstimate,
  type HealthOptions,
  type LedgerApi,
  type LedgerInfo,
  type ModulePage,
  type ModuleRecord,
  type SubmitResult,
  type SummaryOptions,
  type TransactionByHash,
  type TransactionSummary,
} from "./api.ts";
import type { BlockProducer } from "./block-producer.ts";
import type { EngineConfig } from "./config.ts";
import { estimateGasPrice } from "./gas-estimator.ts";
import type { Ledger } from "./ledger.ts";
import type { Mempool } from "./mempool.ts";
import { checkPrologue, verifyTransaction, type PendingTransaction, type PrologueView } from "./prologue.ts";
import { moduleStateKey } from "./state.ts";
import { structResolver } from "./struct-resolver.ts";
import type { CommittedTransaction } from "./transaction-log.ts";
import { accumulatorPlaceholderHash, EMPTY_EVENT_ROOT_HASH } from "./transaction-hashes.ts";
import type { TransferBot } from "./transfer-bot.ts";

const MODULE_KEY = /^module:0x([0-9a-f]{64})::([A-Za-z_][A-Za-z0-9_]*)$/;
const SIGNER_PARAM = /^&?\s*signer$/;

/** Table item answers kept, by request and version; beyond it the oldest is dropped. */
const KEPT_TABLE_ITEMS = 256;
/** Longer requests (types and key) are not kept: the cache stays a few hundred KB at most. */
const MAX_KEPT_KEY_LENGTH = 1_024;

export class LedgerEngine implements LedgerApi {
  private bot: TransferBot | undefined;
  /** Answers of getTableItem by table, types, key and version (readTableItem's, never an error). */
  private readonly tableItems = new BoundedMap<string, { bcs: Uint8Array; json: unknown }>(KEPT_TABLE_ITEMS);

  constructor(
    readonly config: EngineConfig,
    readonly ledger: Ledger,
    readonly mempool: Mempool,
    private readonly producer: BlockProducer,
  ) {}

  /** After genesis: the transactions account sends `config.backgroundTransfersPerBlock` transfers after each block. */
  keepBusy(bot: TransferBot): void {
    this.bot = bot;
  }

  /** Produces the blocks the clock says are due; returns how many. */
  tick(): number {
    const interval = BigInt(this.config.blockIntervalMs) * 1000n;
    const last = this.ledger.blocks.latest().timestampUsec;
    let due = (this.config.clock.nowUsec() - last) / interval;
    if (due <= 0n) return 0;
    let first = last + interval;
    const cap = BigInt(this.config.maxCatchUpBlocks);
    if (due > cap) {
      // After a long pause the chain jumps ahead rather than replaying every missed block.
      first = last + (due - cap + 1n) * interval;
      due = cap;
    }
    for (let k = 0n; k < due; k++) {
      this.producer.produceBlock(first + k * interval);
      this.sendBackgroundTransfers();
    }
    return Number(due);
  }

  info(): LedgerInfo {
    if (this.config.autoTick) this.tick();
    return this.ledger.info();
  }

  getModule(address: AddressBytes, name: string, version?: bigint): ModuleRecord {
    const at = this.readableVersion(version);
    const record = this.ledger.state.module(address, name, at);
    if (record === undefined)
      throw new LedgerError(404, "module_not_found", `Module ${moduleLabel(address, name)} not found at ledger version ${at}`);
    return record;
  }

  listModules(address: AddressBytes, options: { version?: bigint; start?: string; limit: number }): ModulePage {
    const at = this.readableVersion(options.version);
    const names = this.ledger.state.moduleNamesAt(address);
    let index = 0;
    if (options.start !== undefined) index = names.indexOf(this.cursorName(address, options.start));
    const modules: ModuleRecord[] = [];
    for (; index < names.length; index++) {
      const name = names[index] as string;
      const record = this.ledger.state.module(address, name, at);
      if (record === undefined) continue;
      if (modules.length === options.limit) return { modules, nextCursor: moduleCursor(address, name) };
      modules.push(record);
    }
    return { modules };
  }

  getTableItem(
    handle: AddressBytes,
    request: { keyType: string; valueType: string; key: unknown },
    version?: bigint,
  ): { bcs: Uint8Array; json: unknown } {
    const at = this.readableVersion(version);
    // An item at a readable version cannot change: the answer is kept (after the version checks, so a
    // pruned or future version is still refused) and the same object is answered again.
    const cacheKey = `${toHex(handle)} ${request.keyType} ${request.valueType} ${JSON.stringify(request.key)} ${at}`;
    const kept = this.tableItems.get(cacheKey);
    if (kept !== undefined) return kept;
    const item = this.readTableItem(handle, request, at);
    // A request of odd size (a body may be megabytes) is answered but not kept.
    if (cacheKey.length > MAX_KEPT_KEY_LENGTH) return item;
    this.tableItems.set(cacheKey, item);
    return item;
  }

  private readTableItem(
    handle: AddressBytes,
    request: { keyType: string; valueType: string; key: unknown },
    at: bigint,
  ): { bcs: Uint8Array; json: unknown } {
    const resolve = structResolver(this.ledger.state, at);
    const keyType = inputType("key_type", request.keyType);
    const valueType = inputType("value_type", request.valueType);
    const key = invalidInputOnCodecError(`key does not fit ${request.keyType}`, () => encodeMoveValue(keyType, request.key, resolve));
    const bytes = this.ledger.state.tableItem(handle, key, at);
    if (bytes === undefined)
      throw new LedgerError(
        404,
        "table_item_not_found",
        `Table item not found: table ${toHex(handle)}, key ${toHex(key)}, ledger version ${at}`,
      );
    const json = invalidInputOnCodecError(`the item's value is not a ${request.valueType}`, () =>
      decodeMoveValue(valueType, bytes, resolve),
    );
    return { bcs: bytes, json };
  }

  transactionSummaries(address: AddressBytes, options: SummaryOptions): readonly TransactionSummary[] {
    const latest = this.ledger.latestVersion;
    const oldest = this.ledger.oldestVersion;
    const from = options.startVersion ?? options.endVersion;
    if (from !== undefined && from < oldest) {
      if (options.belowOldest !== "scan")
        throw new LedgerError(410, "version_pruned", `Ledger version ${from} has been pruned; the oldest available version is ${oldest}`);
      // What the pruner left: a forward scan from below the oldest starts at it; a backward one from below it finds nothing.
      if (options.startVersion === undefined) return [];
    }
    // The log's own objects (a committed transaction is a summary and more): the same transaction is the
    // same object in every answer, so the HTTP face renders each one's JSON once.
    return this.ledger.transactions.summaries(address, options, oldest, latest);
  }

  gasEstimate(): GasEstimate {
    return estimateGasPrice(
      this.ledger.blocks.recent(120),
      { transactionCapacity: this.config.blockTransactionCapacity, gasLimit: this.config.blockGasLimit },
      this.config.minGasUnitPrice,
    );
  }

  isHealthy(durationSecs?: bigint, options: HealthOptions = {}): boolean {
    if (durationSecs === undefined) return true;
    const ledgerTime = this.ledger.blocks.latest().timestampUsec;
    const now = this.config.clock.nowUsec();
    if (options.beforeEpoch === "internal_error" && durationSecs * 1_000_000n > now)
      throw new LedgerError(500, "internal_error", "Failed to determine absolute unix time based on given duration");
    return ledgerTime + durationSecs * 1_000_000n >= now;
  }

  submit(signed: SignedTransaction): SubmitResult {
    if (!this.config.submissionEnabled) throw new LedgerError(403, "api_disabled", "Transaction submission is disabled on this node");
    return this.admit(signed);
  }

  /** The submission path behind the API's enabled switch: signatures, prologue, mempool. */
  admit(signed: SignedTransaction): SubmitResult {
    const txn = verifyTransaction(signed, this.config.domain);
    checkPrologue(txn, this.prologueView(), "admission");
    const pendingJson = this.pendingJson(txn);
    this.mempool.add(txn);
    return { hash: txn.hash, signed, pendingJson };
  }

  /**
   * Admission as a node whose admission races itself does it (the fault mempool-double-accept,
   * src/node/faults/concurrency.ts): `signed` is checked as admit() checks it, and when another
   * transaction of its sender is pending under its replay protector it is held beside that one, to be
   * committed right after it, instead of refused or replacing it. Otherwise it is admit().
   */
  admitBeside(signed: SignedTransaction): SubmitResult {
    if (!this.config.submissionEnabled) throw new LedgerError(403, "api_disabled", "Transaction submission is disabled on this node");
    const txn = verifyTransaction(signed, this.config.domain);
    const first = this.mempool.pendingUnder(txn.sender, txn.replayProtector);
    if (first === undefined || bytesToHex(first.hash) === bytesToHex(txn.hash)) return this.admit(signed);
    checkPrologue(txn, this.prologueView(), "admission");
    const pendingJson = this.pendingJson(txn);
    this.mempool.addBeside(first, txn);
    return { hash: txn.hash, signed, pendingJson };
  }

  signedTransactionFromJson(body: unknown): SignedTransaction {
    return invalidInputOnCodecError("Invalid submission", () =>
      signedTransactionFromJson(body, {
        chainId: this.config.chainId,
        functionParams: this.functionParams,
        resolveStruct: structResolver(this.ledger.state, this.ledger.latestVersion),
      }),
    );
  }

  account(address: AddressBytes, version?: bigint): AccountInfo {
    const at = this.readableVersion(version);
    const state = this.ledger.state.account(address, at);
    if (state === undefined)
      throw new LedgerError(404, "account_not_found", `Account 0x${bytesToHex(address)} not found at ledger version ${at}`);
    return { sequenceNumber: state.sequenceNumber, authenticationKey: state.authenticationKey };
  }

  transactionByHash(hash: Uint8Array): TransactionByHash {
    const committed = this.ledger.transactions.withHash(hash);
    if (committed !== undefined && committed.version <= this.ledger.latestVersion) {
      return {
        kind: "committed",
        hash,
        signed: committed.signed,
        request: this.requestJson(committed.signed),
        version: committed.version,
        success: committed.success,
        vmStatus: committed.vmStatus,
        status: committed.status,
        gasUsed: committed.gasUsed,
        timestampUsec: this.ledger.blocks.at(committed.blockHeight)?.timestampUsec ?? this.ledger.blocks.latest().timestampUsec,
        stateChangeHash: committed.stateChangeHash,
        eventRootHash: EMPTY_EVENT_ROOT_HASH,
        accumulatorRootHash: accumulatorPlaceholderHash(committed.version, committed.hash),
      };
    }
    const pending = this.mempool.withHash(hash);
    if (pending !== undefined) return { kind: "pending", hash, signed: pending.signed, request: this.requestJson(pending.signed) };
    throw new LedgerError(404, "transaction_not_found", `Transaction ${toHex(hash)} not found in the mempool or the ledger`);
  }

  /** The committed transaction with `hash`, while it is in the pruning window. */
  committedTransaction(hash: Uint8Array): CommittedTransaction | undefined {
    return this.ledger.transactions.withHash(hash);
  }

  /** The non-signer parameters of an entry function published at the latest version. */
  private readonly functionParams: FunctionParams = (moduleAddress, moduleName, functionName) => {
    let address: Uint8Array;
    try {
      address = parseAddress(moduleAddress);
    } catch {
      return undefined;
    }
    const abi = this.ledger.state
      .module(address, moduleName, this.ledger.latestVersion)
      ?.abi.exposed_functions.find((f) => f.name === functionName && f.is_entry);
    if (abi === undefined) return undefined;
    const firstValue = abi.params.findIndex((p) => !SIGNER_PARAM.test(p.trim()));
    return firstValue < 0 ? [] : abi.params.slice(firstValue);
  };

  private prologueView(): PrologueView {
    const ledger = this.ledger;
    const nowSeconds = ledger.nowSeconds;
    return {
      chainId: this.config.chainId,
      minGasUnitPrice: this.config.minGasUnitPrice,
      nowSeconds,
      account: (address) => ledger.state.latestAccount(address),
      multisig: (address) => ledger.state.latestMultisig(address),
      isNonceUsed: (sender, nonce) => ledger.nonces.isUsed(sender, nonce, nowSeconds),
    };
  }

  /** The family's pending transaction: the submission's JSON form with its hash first. */
  private pendingJson(txn: PendingTransaction): Record<string, unknown> {
    return { hash: toHex(txn.hash), ...this.requestJson(txn.signed) };
  }

  /** The submission request members of `signed` in the family's order, replay_protection_nonce only when it has one. */
  private requestJson(signed: SignedTransaction): Record<string, unknown> {
    const json = invalidInputOnCodecError("The transaction has no JSON form", () =>
      signedTransactionToJson(signed, {
        functionParams: this.functionParams,
        resolveStruct: structResolver(this.ledger.state, this.ledger.latestVersion),
      }),
    );
    const { sender, sequence_number, max_gas_amount, gas_unit_price, expiration_timestamp_secs, payload, signature } = json;
    const nonce = json.replay_protection_nonce === undefined ? {} : { replay_protection_nonce: json.replay_protection_nonce };
    return {
      sender,
      sequence_number,
      max_gas_amount,
      gas_unit_price,
      expiration_timestamp_secs,
      payload,
      ...nonce,
      signature,
    };
  }

  private sendBackgroundTransfers(): void {
    const bot = this.bot;
    if (bot === undefined) return;
    const sender = bot.account.address;
    for (let i = 0; i < this.config.backgroundTransfersPerBlock; i++) {
      const committed = this.ledger.state.latestAccount(sender)?.sequenceNumber ?? 0n;
      const pending = this.mempool.pendingOf(sender).filter((t) => t.replayProtector.type === "sequence_number").length;
      try {
        this.admit(bot.next(committed + BigInt(pending), this.ledger.nowSeconds));
      } catch (error) {
        // A full mempool only delays the account's activity.
        if (!(error instanceof LedgerError)) throw error;
      }
    }
  }

  /** Version checks of every read: above the latest 404 version_not_found, below the oldest 410 version_pruned. */
  private readableVersion(requested: bigint | undefined): bigint {
    const latest = this.ledger.latestVersion;
    if (requested === undefined) return latest;
    if (requested > latest)
      throw new LedgerError(404, "version_not_found", `Ledger version ${requested} is newer than the latest version ${latest}`);
    const oldest = this.ledger.oldestVersion;
    if (requested < oldest)
      throw new LedgerError(
        410,
        "version_pruned",
        `Ledger version ${requested} has been pruned; the oldest available version is ${oldest}`,
      );
    return requested;
  }

  /** The module a modules cursor names, checked to be one this node issues for `address`. */
  private cursorName(address: AddressBytes, cursor: string): string {
    const invalid = () =>
      new LedgerError(400, "invalid_input", `Invalid start ${JSON.stringify(cursor)}: not a module cursor for this account`);
    const digits = cursor.startsWith("0x") ? cursor.slice(2) : cursor;
    let key: string;
    try {
      key = new TextDecoder("utf-8", { fatal: true }).decode(hexToBytes(digits));
    } catch {
      throw invalid();
    }
    const match = MODULE_KEY.exec(key);
    if (match === null || match[1] !== bytesToHex(address)) throw invalid();
    const name = match[2] as string;
    if (!this.ledger.state.moduleNamesAt(address).includes(name)) throw invalid();
    return name;
  }
}

/** The cursor naming module `name` at `address`: the hex of its state key. */
export function moduleCursor(address: AddressBytes, name: string): string {
  return toHex(utf8ToBytes(moduleStateKey(address, name)));
}

function moduleLabel(address: AddressBytes, name: string): string {
  return `0x${bytesToHex(address)}::${name}`;
}

/** Parsed type tags by their text: table reads name the same few types again and again. */
/** Distinct type texts kept; beyond it the oldest is dropped, so odd inputs cannot grow it. */
const PARSED_TYPES_KEPT = 256;
const parsedTypes = new BoundedMap<string, TypeTag>(PARSED_TYPES_KEPT);

function inputType(member: string, text: string): TypeTag {
  const known = parsedTypes.get(text);
  if (known !== undefined) return known;
  const parsed = invalidInputOnCodecError(`Invalid ${member}`, () => parseTypeTag(text));
  parsedTypes.set(text, Object.freeze(parsed));
  return parsed;
}

function invalidInputOnCodecError<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof CodecError) throw new LedgerError(400, "invalid_input", `${what}: ${error.message}`);
    throw error;
  }
}
