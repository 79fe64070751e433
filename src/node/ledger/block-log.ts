// The committed blocks, oldest first, in typed-array columns: a genesis of a million versions is a
// million blocks, which must fit in a few megabytes. Versions and timestamps are kept as float64, exact
// up to 2^53 (a microsecond timestamp is about 2^51 today).

export interface BlockRecord {
  readonly height: bigint;
  readonly epoch: bigint;
  /** The block-metadata transaction's version. */
  readonly firstVersion: bigint;
  readonly lastVersion: bigint;
  readonly timestampUsec: bigint;
  /** User transactions committed in the block. */
  readonly userTransactions: number;
  readonly gasUsed: number;
  /** The lowest gas unit price among the block's user transactions; undefined without any. */
  readonly minGasUnitPrice: bigint | undefined;
}

/** A block to append: its height is the log's next one. */
export type NewBlock = Omit<BlockRecord, "height">;

const COLUMNS = ["epoch", "first", "last", "timestamp", "userTxns", "gasUsed", "minPrice"] as const;
type Column = (typeof COLUMNS)[number];

export class BlockLog {
  private columns: Record<Column, Float64Array>;
  /** Index of the oldest retained block in the columns. */
  private start = 0;
  private end = 0;
  /** Height of the block at index 0 of the columns. */
  private baseHeight = 0;

  constructor(initialCapacity = 1024) {
    this.columns = allocate(Math.max(16, initialCapacity));
  }

  get count(): number {
    return this.end - this.start;
  }

  /** Appends the next block (height = latest height + 1, or 0 for the first). */
  append(block: NewBlock): void {
    this.appendRow(
      Number(block.epoch),
      Number(block.firstVersion),
      Number(block.lastVersion),
      Number(block.timestampUsec),
      block.userTransactions,
      block.gasUsed,
      block.minGasUnitPrice === undefined ? Number.NaN : Number(block.minGasUnitPrice),
    );
  }

  /**
   * Appends `count` blocks of one version each (only their block-metadata transaction), the first at
   * `firstVersion` and `firstTimestampUsec`, then every `stepUsec`. Genesis fills its early history so.
   */
  appendEmpty(
    count: number,
    epochOf: (height: number) => number,
    firstVersion: bigint,
    firstTimestampUsec: bigint,
    stepUsec: bigint,
  ): void {
    const version = Number(firstVersion);
    const timestamp = Number(firstTimestampUsec);
    const step = Number(stepUsec);
    for (let k = 0; k < count; k++) {
      const height = this.baseHeight + this.end;
      this.appendRow(epochOf(height), version + k, version + k, timestamp + k * step, 0, 0, Number.NaN);
    }
  }

  private appendRow(
    epoch: number,
    first: number,
    last: number,
    timestamp: number,
    userTxns: number,
    gasUsed: number,
    minPrice: number,
  ): void {
    if (this.end > this.start && first !== (this.columns.last[this.end - 1] as number) + 1)
      throw new RangeError(`BlockLog: block starting at ${first} does not follow version ${this.columns.last[this.end - 1]}`);
    if (last < first) throw new RangeError("BlockLog: block ends before it starts");
    if (!Number.isSafeInteger(last) || !Number.isSafeInteger(timestamp)) throw new RangeError("BlockLog: value beyond 2^53");
    if (this.end === this.columns.first.length) this.grow();
    const i = this.end++;
    const c = this.columns;
    c.epoch[i] = epoch;
    c.first[i] = first;
    c.last[i] = last;
    c.timestamp[i] = timestamp;
    c.userTxns[i] = userTxns;
    c.gasUsed[i] = gasUsed;
    c.minPrice[i] = minPrice;
  }

  /** A log of the same blocks, each `shiftUsec` later, independent of this one from now on. */
  copy(shiftUsec: bigint): BlockLog {
    const copy = new BlockLog();
    copy.columns = allocate(this.columns.first.length);
    for (const name of COLUMNS) copy.columns[name].set(this.columns[name]);
    const shift = Number(shiftUsec);
    for (let i = this.start; i < this.end; i++) copy.columns.timestamp[i] = (this.columns.timestamp[i] as number) + shift;
    copy.start = this.start;
    copy.end = this.end;
    copy.baseHeight = this.baseHeight;
    return copy;
  }

  latest(): BlockRecord {
    if (this.count === 0) throw new RangeError("BlockLog: no blocks");
    return this.record(this.end - 1);
  }

  /** The retained block at `height`, or undefined. */
  at(height: bigint): BlockRecord | undefined {
    const index = Number(height) - this.baseHeight;
    return index >= this.start && index < this.end ? this.record(index) : undefined;
  }

  /** The first retained block whose metadata version is at or after `version`, or undefined. */
  firstStartingAtOrAfter(version: bigint): BlockRecord | undefined {
    const target = Number(version);
    const below = this.lastIndexStartingAtOrBelow(target);
    const index = below >= 0 && this.columns.first[below] === target ? below : below + 1;
    const from = Math.max(index, this.start);
    return from < this.end ? this.record(from) : undefined;
  }

  /** Up to `n` blocks, the latest first. */
  *recent(n: number): Generator<BlockRecord> {
    for (let i = this.end - 1; i >= this.start && i >= this.end - n; i--) yield this.record(i);
  }

  /** Forgets the blocks that end before `version` (the block holding it is kept). */
  pruneBelow(version: bigint): void {
    const target = Number(version);
    while (this.start < this.end - 1 && (this.columns.last[this.start] as number) < target) this.start++;
    if (this.start > 4096 && this.start * 2 > this.end) this.compact();
  }

  private lastIndexStartingAtOrBelow(target: number): number {
    let low = this.start;
    let high = this.end - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if ((this.columns.first[mid] as number) <= target) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  private record(i: number): BlockRecord {
    const c = this.columns;
    const minPrice = c.minPrice[i] as number;
    return {
      height: BigInt(this.baseHeight + i),
      epoch: BigInt(c.epoch[i] as number),
      firstVersion: BigInt(c.first[i] as number),
      lastVersion: BigInt(c.last[i] as number),
      timestampUsec: BigInt(c.timestamp[i] as number),
      userTransactions: c.userTxns[i] as number,
      gasUsed: c.gasUsed[i] as number,
      minGasUnitPrice: Number.isNaN(minPrice) ? undefined : BigInt(minPrice),
    };
  }

  private grow(): void {
    const next = allocate(this.columns.first.length * 2);
    for (const name of COLUMNS) next[name].set(this.columns[name]);
    this.columns = next;
  }

  /** Moves the retained blocks to the front, so memory follows the pruning window. */
  private compact(): void {
    const count = this.count;
    const next = allocate(Math.max(16, count * 2));
    for (const name of COLUMNS) next[name].set(this.columns[name].subarray(this.start, this.end));
    this.baseHeight += this.start;
    this.start = 0;
    this.end = count;
    this.columns = next;
  }
}

function allocate(capacity: number): Record<Column, Float64Array> {
  return Object.fromEntries(COLUMNS.map((name) => [name, new Float64Array(capacity)])) as Record<Column, Float64Array>;
}
