// The pruning window: the node keeps the latest `window` versions. The oldest version follows the
// latest exactly (it is what reads are checked against); the stores forget what fell out of the window
// in batches, which never removes anything a read at the oldest version or later can reach.

import type { BlockLog } from "./block-log.ts";

/** Anything that holds per-version history. */
export interface Prunable {
  /** Forgets what no read at `oldestVersion` or later needs. */
  pruneBelow(oldestVersion: bigint): void;
}

export class Pruner {
  private prunedUpTo = 0n;
  private readonly batch: bigint;

  constructor(
    readonly window: bigint,
    private readonly targets: readonly Prunable[],
  ) {
    if (window < 1n) throw new RangeError(`pruning window must be at least 1, got ${window}`);
    this.batch = window / 16n > 1n ? window / 16n : 1n;
  }

  /** A pruner over `targets` (copies of this one's) that has pruned as far as this one. */
  copyFor(targets: readonly Prunable[]): Pruner {
    const copy = new Pruner(this.window, targets);
    copy.prunedUpTo = this.prunedUpTo;
    return copy;
  }

  /** The oldest version a read may ask for when `latest` is the latest version. */
  oldestVersion(latest: bigint): bigint {
    return latest + 1n > this.window ? latest + 1n - this.window : 0n;
  }

  /** After a commit: prunes the stores once the oldest version has moved on by a batch. */
  afterCommit(latest: bigint): void {
    const oldest = this.oldestVersion(latest);
    if (oldest - this.prunedUpTo < this.batch) return;
    for (const target of this.targets) target.pruneBelow(oldest);
    this.prunedUpTo = oldest;
  }
}

/**
 * The oldest block height the node still serves whole: the first block whose block-metadata version is
 * not pruned (the block holding the oldest version may have lost its start). Never above the latest.
 */
export function oldestBlockHeight(blocks: BlockLog, oldestVersion: bigint): bigint {
  return (blocks.firstStartingAtOrAfter(oldestVersion) ?? blocks.latest()).height;
}
