// Pending transactions, per sender and replay protector (sequence number or nonce), with Aptos'
// mempool rules for a second transaction under the same replay protector: a different payload,
// expiration or max gas amount is an invalid update; a higher gas unit price replaces; a lower one is
// an invalid update; an equal one is an identical resubmission, accepted again. A full mempool (or a
// sender at its own limit) is 507 mempool_is_full.
//
// A transaction may also be held beside the one pending under its replay protector (addBeside): only
// a node whose admission races itself does that (the fault mempool-double-accept,
// src/node/faults/concurrency.ts); the producer executes it right after the one it is beside.

import { bytesToHex } from "@noble/hashes/utils.js";
import { bytesEqual } from "../../codec/index.ts";
import { LedgerError, type ReplayProtector } from "./api.ts";
import type { PendingTransaction } from "./prologue.ts";

export type AddOutcome = "accepted" | "replaced" | "resubmitted";

interface Entry {
  readonly txn: PendingTransaction;
  /** Arrival order: ties in gas price go first come, first served. */
  readonly arrival: number;
}

const replayKey = (protector: ReplayProtector): string =>
  protector.type === "sequence_number" ? `s${protector.sequenceNumber}` : `n${protector.nonce}`;

export class Mempool {
  private readonly bySender = new Map<string, Map<string, Entry>>();
  /** Transactions held beside a pending one, by that one's hash (hex). */
  private readonly beside = new Map<string, PendingTransaction[]>();
  private total = 0;
  private arrivals = 0;

  constructor(
    readonly capacity: number,
    readonly capacityPerSender: number,
  ) {}

  get size(): number {
    return this.total;
  }

  /** Takes `txn` in, or throws 400 invalid_transaction_update or 507 mempool_is_full. */
  add(txn: PendingTransaction): AddOutcome {
    const senderKey = bytesToHex(txn.sender);
    const key = replayKey(txn.replayProtector);
    const pending = this.bySender.get(senderKey);
    const current = pending?.get(key);
    if (pending !== undefined && current !== undefined) {
      const update = compareUpdate(current.txn, txn);
      if (update === "resubmitted") return update;
      pending.set(key, { txn, arrival: this.arrivals++ });
      return "replaced";
    }
    if (this.total >= this.capacity)
      throw new LedgerError(507, "mempool_is_full", `Mempool is full: it holds ${this.total} transactions, its capacity`);
    if ((pending?.size ?? 0) >= this.capacityPerSender)
      throw new LedgerError(
        507,
        "mempool_is_full",
        `Mempool is full for sender 0x${senderKey}: it has ${this.capacityPerSender} pending transactions, the most one sender may`,
      );
    const entries = pending ?? new Map<string, Entry>();
    entries.set(key, { txn, arrival: this.arrivals++ });
    this.bySender.set(senderKey, entries);
    this.total++;
    return "accepted";
  }

  /** The pending transaction of `sender` under `protector`, if any. */
  pendingUnder(sender: Uint8Array, protector: ReplayProtector): PendingTransaction | undefined {
    return this.bySender.get(bytesToHex(sender))?.get(replayKey(protector))?.txn;
  }

  /** Holds `txn` beside `first`, whatever their replay protectors: it leaves the mempool with `first` (takeBeside). */
  addBeside(first: PendingTransaction, txn: PendingTransaction): void {
    const key = bytesToHex(first.hash);
    this.beside.set(key, [...(this.beside.get(key) ?? []), txn]);
  }

  /** Removes and returns the transactions held beside `first`. */
  takeBeside(first: PendingTransaction): PendingTransaction[] {
    const key = bytesToHex(first.hash);
    const held = this.beside.get(key) ?? [];
    this.beside.delete(key);
    return held;
  }

  /** Forgets `txn` (committed or discarded). */
  remove(txn: PendingTransaction): void {
    const senderKey = bytesToHex(txn.sender);
    const pending = this.bySender.get(senderKey);
    if (pending?.delete(replayKey(txn.replayProtector))) {
      this.total--;
      if (pending.size === 0) this.bySender.delete(senderKey);
    }
  }

  /** The pending transactions of `sender`. */
  pendingOf(sender: Uint8Array): PendingTransaction[] {
    return [...(this.bySender.get(bytesToHex(sender))?.values() ?? [])].map((e) => e.txn);
  }

  /** The pending transaction with `hash`, if any. */
  withHash(hash: Uint8Array): PendingTransaction | undefined {
    for (const pending of this.bySender.values())
      for (const entry of pending.values()) if (bytesEqual(entry.txn.hash, hash)) return entry.txn;
    for (const held of this.beside.values()) for (const txn of held) if (bytesEqual(txn.hash, hash)) return txn;
    return undefined;
  }

  /** Drops and returns the transactions that expire at or before `nowSeconds`, with those held beside them. */
  dropExpired(nowSeconds: bigint): PendingTransaction[] {
    const dropped: PendingTransaction[] = [];
    for (const pending of this.bySender.values())
      for (const entry of pending.values()) if (entry.txn.signed.raw_txn.expiration_timestamp_secs <= nowSeconds) dropped.push(entry.txn);
    for (const txn of dropped) this.remove(txn);
    return [...dropped, ...dropped.flatMap((txn) => this.takeBeside(txn))];
  }

  /**
   * The transaction to execute next: among each sender's ready ones (its next sequence number, and any
   * orderless one), the highest gas unit price, then the earliest arrival.
   */
  next(sequenceNumberOf: (sender: Uint8Array) => bigint): PendingTransaction | undefined {
    let best: Entry | undefined;
    const consider = (entry: Entry | undefined) => {
      if (entry === undefined) return;
      if (
        best === undefined ||
        entry.txn.signed.raw_txn.gas_unit_price > best.txn.signed.raw_txn.gas_unit_price ||
        (entry.txn.signed.raw_txn.gas_unit_price === best.txn.signed.raw_txn.gas_unit_price && entry.arrival < best.arrival)
      )
        best = entry;
    };
    for (const pending of this.bySender.values()) {
      const first = pending.values().next().value as Entry;
      const sequenceNumber = sequenceNumberOf(first.txn.sender);
      consider(pending.get(`s${sequenceNumber}`));
      for (const entry of pending.values()) if (entry.txn.replayProtector.type === "nonce") consider(entry);
    }
    return best?.txn;
  }
}

/** Aptos' rules for a transaction arriving under a replay protector already pending. */
function compareUpdate(current: PendingTransaction, incoming: PendingTransaction): "resubmitted" | "replace" {
  const a = current.signed.raw_txn;
  const b = incoming.signed.raw_txn;
  const invalid = (what: string) =>
    new LedgerError(400, "invalid_transaction_update", `Transaction already in mempool with a different ${what}`);
  if (!bytesEqual(current.payloadBytes, incoming.payloadBytes)) throw invalid("payload");
  if (a.expiration_timestamp_secs !== b.expiration_timestamp_secs) throw invalid("expiration timestamp");
  if (a.max_gas_amount !== b.max_gas_amount) throw invalid("max gas amount");
  if (b.gas_unit_price < a.gas_unit_price) throw invalid("gas unit price: a lower one cannot replace it");
  return b.gas_unit_price > a.gas_unit_price ? "replace" : "resubmitted";
}
