// Produces blocks as Aptos does: a block-metadata transaction opens each block and takes a version (so
// versions move even without user transactions), then the mempool's ready transactions follow, highest
// gas price first, until the block reaches its transaction capacity or gas limit. Each is validated
// again against the state left by the ones before it; one that no longer passes is discarded.

import { LedgerError } from "./api.ts";
import type { BlockRecord } from "./block-log.ts";
import type { Executor } from "./executor.ts";
import type { Ledger } from "./ledger.ts";
import type { Mempool } from "./mempool.ts";
import { checkPrologue, type PendingTransaction, type PrologueView } from "./prologue.ts";
import type { StateWrite } from "./state.ts";
import type { CommittedTransaction } from "./transaction-log.ts";
import { writeSetHash } from "./transaction-hashes.ts";

export interface BlockLimits {
  readonly epochBlocks: number;
  readonly transactionCapacity: number;
  readonly gasLimit: number;
  readonly minGasUnitPrice: bigint;
}

export interface ProducedBlock {
  readonly block: BlockRecord;
  readonly committed: readonly CommittedTransaction[];
  /** Taken from the mempool but failing validation at execution (or expired), so never committed. */
  readonly discarded: readonly { readonly txn: PendingTransaction; readonly reason: string }[];
}

export class BlockProducer {
  constructor(
    private readonly ledger: Ledger,
    private readonly mempool: Mempool,
    private readonly executor: Executor,
    private readonly limits: BlockLimits,
  ) {}

  epochOf(height: bigint): bigint {
    return 1n + height / BigInt(this.limits.epochBlocks);
  }

  /** Block 0: the genesis transaction alone, at version 0. */
  produceGenesis(timestampUsec: bigint, writes: readonly StateWrite[]): void {
    this.ledger.state.apply(0n, writes);
    this.ledger.blocks.append({
      epoch: this.epochOf(0n),
      firstVersion: 0n,
      lastVersion: 0n,
      timestampUsec,
      userTransactions: 0,
      gasUsed: 0,
      minGasUnitPrice: undefined,
    });
    this.ledger.advanceTo(0n);
  }

  /**
   * The next block at `timestampUsec` (kept strictly after the previous block's). `systemWrites` are the
   * block-metadata transaction's own writes (what Aptos' block prologue and governance would change).
   */
  produceBlock(timestampUsec: bigint, systemWrites: readonly StateWrite[] = []): ProducedBlock {
    const ledger = this.ledger;
    const previous = ledger.blocks.latest();
    const timestamp = timestampUsec > previous.timestampUsec ? timestampUsec : previous.timestampUsec + 1n;
    const height = previous.height + 1n;
    const nowSeconds = timestamp / 1_000_000n;
    const metadataVersion = ledger.latestVersion + 1n;
    ledger.state.apply(metadataVersion, systemWrites);

    const discarded: { txn: PendingTransaction; reason: string }[] = [];
    for (const txn of this.mempool.dropExpired(nowSeconds)) discarded.push({ txn, reason: "expired in the mempool" });
    ledger.nonces.forgetExpired(nowSeconds);

    const view: PrologueView = {
      chainId: ledger.chainId,
      minGasUnitPrice: this.limits.minGasUnitPrice,
      nowSeconds,
      account: (address) => ledger.state.latestAccount(address),
      multisig: (address) => ledger.state.latestMultisig(address),
      isNonceUsed: (sender, nonce) => ledger.nonces.isUsed(sender, nonce, nowSeconds),
    };
    const committed: CommittedTransaction[] = [];
    let version = metadataVersion;
    let gasUsed = 0n;
    let minGasUnitPrice: bigint | undefined;
    while (committed.length < this.limits.transactionCapacity && gasUsed < BigInt(this.limits.gasLimit)) {
      // An address without an account is at sequence number 0 (aptos-framework account.move
      // `get_sequence_number`): a sponsored transaction may create it (prologue.ts sponsoredNewSender).
      const txn = this.mempool.next((sender) => ledger.state.latestAccount(sender)?.sequenceNumber ?? 0n);
      if (txn === undefined) break;
      this.mempool.remove(txn);
      // Held beside it (a racing admission's, mempool.ts addBeside): executed right after it, as validated with it.
      const beside = this.mempool.takeBeside(txn);
      try {
        checkPrologue(txn, view, "execution");
      } catch (error) {
        if (!(error instanceof LedgerError)) throw error;
        for (const discard of [txn, ...beside]) discarded.push({ txn: discard, reason: error.message });
        continue;
      }
      for (const next of [txn, ...beside]) {
        version += 1n;
        const record = this.commit(next, version, height);
        committed.push(record);
        gasUsed += record.gasUsed;
        const price = next.signed.raw_txn.gas_unit_price;
        if (minGasUnitPrice === undefined || price < minGasUnitPrice) minGasUnitPrice = price;
      }
    }

    ledger.blocks.append({
      epoch: this.epochOf(height),
      firstVersion: metadataVersion,
      lastVersion: version,
      timestampUsec: timestamp,
      userTransactions: committed.length,
      gasUsed: Number(gasUsed),
      minGasUnitPrice,
    });
    ledger.advanceTo(version);
    return { block: ledger.blocks.latest(), committed, discarded };
  }

  /** Executes `txn` at `version` of the block at `height` and records it. */
  private commit(txn: PendingTransaction, version: bigint, height: bigint): CommittedTransaction {
    const ledger = this.ledger;
    const outcome = this.executor.execute(txn, version);
    ledger.state.apply(version, outcome.writes);
    const raw = txn.signed.raw_txn;
    if (txn.replayProtector.type === "nonce") ledger.nonces.record(txn.sender, txn.replayProtector.nonce, raw.expiration_timestamp_secs);
    const record: CommittedTransaction = {
      sender: txn.sender,
      version,
      hash: txn.hash,
      replayProtector: txn.replayProtector,
      signed: txn.signed,
      blockHeight: height,
      success: outcome.success,
      vmStatus: outcome.vmStatus,
      status: outcome.status,
      gasUsed: outcome.gasUsed,
      stateChangeHash: writeSetHash(outcome.writes),
    };
    ledger.transactions.record(record);
    return record;
  }

  /**
   * `count` blocks holding only their block-metadata transaction, `stepUsec` apart from
   * `firstTimestampUsec` on: how genesis lays down a long, quiet history quickly.
   */
  produceEmptyBlocks(count: number, firstTimestampUsec: bigint, stepUsec: bigint): void {
    if (count <= 0) return;
    const ledger = this.ledger;
    const firstVersion = ledger.latestVersion + 1n;
    const epochBlocks = this.limits.epochBlocks;
    ledger.blocks.appendEmpty(count, (height) => 1 + Math.floor(height / epochBlocks), firstVersion, firstTimestampUsec, stepUsec);
    ledger.advanceTo(firstVersion + BigInt(count) - 1n);
  }
}
