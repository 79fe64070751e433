// Committed user transactions, by version, by sender and by hash, with the window queries of the
// transaction summaries endpoint (§4.3, the family's convention).

import { bytesToHex } from "@noble/hashes/utils.js";
import type { SignedTransaction } from "../../codec/index.ts";
import type { ExecutionStatus, ReplayProtector, TransactionSummary } from "./api.ts";
import type { Prunable } from "./pruner.ts";

export interface CommittedTransaction extends TransactionSummary {
  readonly signed: SignedTransaction;
  readonly blockHeight: bigint;
  readonly success: boolean;
  /** "Executed successfully", or the VM status of the failure. */
  readonly vmStatus: string;
  readonly status: ExecutionStatus;
  readonly gasUsed: bigint;
  /** transaction-hashes.ts writeSetHash of the writes it made. */
  readonly stateChangeHash: Uint8Array;
}

export interface SummaryWindow {
  readonly startVersion?: bigint;
  readonly endVersion?: bigint;
  readonly limit: number;
}

export class TransactionLog implements Prunable {
  /** Ascending by version. */
  private all: CommittedTransaction[] = [];
  private readonly bySender = new Map<string, CommittedTransaction[]>();
  private byHash = new Map<string, CommittedTransaction>();

  /** A log of the same transactions, independent of this one from now on (the records are shared: never changed). */
  copy(): TransactionLog {
    const copy = new TransactionLog();
    copy.all = [...this.all];
    for (const [sender, list] of this.bySender) copy.bySender.set(sender, [...list]);
    copy.byHash = new Map(this.byHash);
    return copy;
  }

  record(txn: CommittedTransaction): void {
    const last = this.all[this.all.length - 1];
    if (last !== undefined && txn.version <= last.version)
      throw new RangeError(`TransactionLog: version ${txn.version} after ${last.version}`);
    this.all.push(txn);
    const sender = bytesToHex(txn.sender);
    const list = this.bySender.get(sender);
    if (list === undefined) this.bySender.set(sender, [txn]);
    else list.push(txn);
    this.byHash.set(bytesToHex(txn.hash), txn);
  }

  withHash(hash: Uint8Array): CommittedTransaction | undefined {
    return this.byHash.get(bytesToHex(hash));
  }

  /** Every retained transaction of `sender`, ascending. */
  ofSender(sender: Uint8Array): readonly CommittedTransaction[] {
    return this.bySender.get(bytesToHex(sender)) ?? [];
  }

  /**
   * The family's rule: with `startVersion` the scan goes forward from it (`endVersion` is ignored); with only
   * `endVersion` the output ends there; with neither it is the most recent. Always ascending, at most
   * `limit`, only versions in [oldest, latest].
   */
  summaries(sender: Uint8Array, window: SummaryWindow, oldest: bigint, latest: bigint): CommittedTransaction[] {
    const list = this.ofSender(sender);
    const from = firstIndexAtOrAbove(list, oldest);
    const to = firstIndexAtOrAbove(list, latest + 1n); // exclusive
    if (window.startVersion !== undefined) {
      const start = Math.max(from, firstIndexAtOrAbove(list, window.startVersion));
      return list.slice(start, Math.min(to, start + window.limit));
    }
    const end = window.endVersion === undefined ? to : Math.min(to, firstIndexAtOrAbove(list, window.endVersion + 1n));
    return list.slice(Math.max(from, end - window.limit), Math.max(from, end));
  }

  pruneBelow(oldestVersion: bigint): void {
    const drop = firstIndexAtOrAbove(this.all, oldestVersion);
    if (drop === 0) return;
    for (const txn of this.all.splice(0, drop)) {
      this.byHash.delete(bytesToHex(txn.hash));
      const key = bytesToHex(txn.sender);
      const list = this.bySender.get(key);
      if (list === undefined) continue;
      list.shift();
      if (list.length === 0) this.bySender.delete(key);
    }
  }
}

/** Index of the first transaction at `version` or later (the length when there is none). */
function firstIndexAtOrAbove(list: readonly { readonly version: bigint }[], version: bigint): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] as { version: bigint }).version < version) low = mid + 1;
    else high = mid;
  }
  return low;
}

export function replayProtectorOf(signed: SignedTransaction): ReplayProtector {
  const payload = signed.raw_txn.payload;
  if (payload.$kind === "Payload") {
    const nonce = payload.Payload.V1.extra_config.V1.replay_protection_nonce;
    if (nonce !== null && nonce !== undefined) return { type: "nonce", nonce };
  }
  return { type: "sequence_number", sequenceNumber: signed.raw_txn.sequence_number };
}
