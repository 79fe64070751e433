// The committed ledger: state, blocks and transactions, the latest version, and the pruning window over
// them. Everything here is what a read can see; the mempool and the producer live outside.

import type { LedgerInfo } from "./api.ts";
import { BlockLog } from "./block-log.ts";
import { NonceRegistry } from "./nonces.ts";
import { oldestBlockHeight, Pruner } from "./pruner.ts";
import { LedgerState } from "./state.ts";
import { TransactionLog } from "./transaction-log.ts";

export class Ledger {
  readonly state: LedgerState;
  readonly blocks: BlockLog;
  readonly transactions: TransactionLog;
  readonly nonces: NonceRegistry;
  readonly pruner: Pruner;
  /** -1 before genesis commits version 0. */
  private latest = -1n;

  /** An empty ledger; or, `from` a ledger, a copy of it whose blocks are `shiftUsec` later. */
  constructor(
    readonly chainId: number,
    pruneWindow: bigint,
    from?: { readonly ledger: Ledger; readonly shiftUsec: bigint },
  ) {
    this.state = from?.ledger.state.copy() ?? new LedgerState();
    this.blocks = from?.ledger.blocks.copy(from.shiftUsec) ?? new BlockLog();
    this.transactions = from?.ledger.transactions.copy() ?? new TransactionLog();
    this.nonces = from?.ledger.nonces.copy() ?? new NonceRegistry();
    const targets = [this.state, this.transactions, { pruneBelow: (oldest: bigint) => this.blocks.pruneBelow(oldest) }];
    this.pruner = from?.ledger.pruner.copyFor(targets) ?? new Pruner(pruneWindow, targets);
    if (from !== undefined) this.latest = from.ledger.latest;
  }

  /** A ledger with the same history, each block `shiftUsec` later, independent of this one from now on. */
  copy(shiftUsec: bigint): Ledger {
    return new Ledger(this.chainId, this.pruner.window, { ledger: this, shiftUsec });
  }

  get latestVersion(): bigint {
    if (this.latest < 0n) throw new RangeError("Ledger: nothing committed yet");
    return this.latest;
  }

  get oldestVersion(): bigint {
    return this.pruner.oldestVersion(this.latestVersion);
  }

  /** The chain time in whole seconds, as the Move prologue's timestamp::now_seconds sees it. */
  get nowSeconds(): bigint {
    return this.blocks.latest().timestampUsec / 1_000_000n;
  }

  /** Records that every version up to `version` is committed (their block is already in the log). */
  advanceTo(version: bigint): void {
    if (version < this.latest) throw new RangeError(`Ledger: version ${version} is behind ${this.latest}`);
    this.latest = version;
    this.pruner.afterCommit(version);
  }

  info(): LedgerInfo {
    const latestBlock = this.blocks.latest();
    const oldestVersion = this.oldestVersion;
    return {
      chainId: this.chainId,
      ledgerVersion: this.latestVersion,
      oldestLedgerVersion: oldestVersion,
      ledgerTimestampUsec: latestBlock.timestampUsec,
      epoch: latestBlock.epoch,
      blockHeight: latestBlock.height,
      oldestBlockHeight: oldestBlockHeight(this.blocks, oldestVersion),
    };
  }
}
