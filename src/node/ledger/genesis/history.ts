// How genesis lays out its versions. Version 0 is the genesis transaction. The history after it ends at
// the clock's time: first a quiet stretch of blocks holding only their block-metadata transaction (laid
// down in bulk, so a genesis of a million versions starts in seconds), then an active stretch in which
// the transactions account commits its transfers, one block at a time through the mempool. The active
// stretch reaches a quarter of a window below the oldest version the pruner keeps, so that some of the
// account's transactions are already pruned when the node starts.

export interface HistoryPlan {
  /** Blocks after genesis with only their block-metadata transaction (one version each). */
  readonly emptyBlocks: number;
  /** Blocks of the active stretch; `transfers` of them carry one transfer each. */
  readonly activeBlocks: number;
  readonly transfers: number;
}

export function planHistory(genesisVersions: number, pruneWindow: bigint, transfers: number): HistoryPlan {
  const afterGenesis = genesisVersions - 1;
  const window = Number(pruneWindow > 1n << 40n ? 1n << 40n : pruneWindow);
  const active = Math.min(afterGenesis, Math.max(Math.ceil(window * 1.25), 2 * transfers));
  if (active - transfers < transfers) throw new RangeError(`a genesis of ${genesisVersions} versions cannot hold ${transfers} transfers`);
  return { emptyBlocks: afterGenesis - active, activeBlocks: active - transfers, transfers };
}

/** How many transfers active block `j` carries (0 or 1, spread evenly). */
export function transfersInBlock(plan: HistoryPlan, j: number): number {
  const before = Math.floor((j * plan.transfers) / plan.activeBlocks);
  const through = Math.floor(((j + 1) * plan.transfers) / plan.activeBlocks);
  return through - before;
}

/** The active block at `fraction` (0..1) of the active stretch. */
export function activeBlockAt(plan: HistoryPlan, fraction: number): number {
  return Math.min(plan.activeBlocks - 1, Math.floor(fraction * plan.activeBlocks));
}
