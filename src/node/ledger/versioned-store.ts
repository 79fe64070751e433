// Multi-version key-value state. Each key keeps its history as ascending (version, value | deleted)
// entries; a read at version v is a binary search for the last entry at or below v. Pruning drops the
// history below the oldest version but keeps the latest entry at or below it, so every version from the
// oldest on still reads correctly.

const DELETED: unique symbol = Symbol("deleted");
type Entry<V> = V | typeof DELETED;

interface History<V> {
  readonly versions: bigint[];
  readonly values: Entry<V>[];
}

export class VersionedStore<V> {
  private readonly histories = new Map<string, History<V>>();
  /** Keys whose history holds more than one entry or a deletion: the only ones pruning can shrink. */
  private readonly prunable = new Set<string>();

  /** Writes `value` at `version`. Versions per key must not go backwards; the same version overwrites. */
  put(key: string, version: bigint, value: V): void {
    this.write(key, version, value);
  }

  /** Records that `key` has no value from `version` on. */
  delete(key: string, version: bigint): void {
    if (this.histories.has(key)) this.write(key, version, DELETED);
  }

  /** The value of `key` as of `version`, or undefined when it had none. */
  get(key: string, version: bigint): V | undefined {
    const history = this.histories.get(key);
    if (history === undefined) return undefined;
    const index = lastIndexAtOrBelow(history.versions, version);
    if (index < 0) return undefined;
    const value = history.values[index];
    return value === DELETED ? undefined : value;
  }

  /** The newest value of `key`, whatever its version. */
  latest(key: string): V | undefined {
    const history = this.histories.get(key);
    const value = history?.values[history.values.length - 1];
    return value === DELETED ? undefined : value;
  }

  /** A store with the same histories, which writes and pruning to either leave the other's alone. */
  copy(): VersionedStore<V> {
    const copy = new VersionedStore<V>();
    for (const [key, history] of this.histories) copy.histories.set(key, { versions: [...history.versions], values: [...history.values] });
    for (const key of this.prunable) copy.prunable.add(key);
    return copy;
  }

  /** Whether `key` has ever been written (and not pruned away). */
  knows(key: string): boolean {
    return this.histories.has(key);
  }

  /** How many entries `key` keeps (for tests of pruning). */
  historyLength(key: string): number {
    return this.histories.get(key)?.versions.length ?? 0;
  }

  /**
   * Drops every entry that no read at `oldest` or later can reach: the entries before the last one at
   * or below `oldest`, and that one too when it is a deletion.
   */
  prune(oldest: bigint): void {
    for (const key of this.prunable) {
      const history = this.histories.get(key);
      if (history === undefined) {
        this.prunable.delete(key);
        continue;
      }
      const index = lastIndexAtOrBelow(history.versions, oldest);
      if (index < 0) continue;
      const drop = history.values[index] === DELETED ? index + 1 : index;
      if (drop > 0) {
        history.versions.splice(0, drop);
        history.values.splice(0, drop);
      }
      if (history.versions.length === 0) {
        this.histories.delete(key);
        this.prunable.delete(key);
      } else if (history.versions.length === 1 && history.values[0] !== DELETED) {
        this.prunable.delete(key);
      }
    }
  }

  private write(key: string, version: bigint, value: Entry<V>): void {
    let history = this.histories.get(key);
    if (history === undefined) {
      history = { versions: [], values: [] };
      this.histories.set(key, history);
    }
    const last = history.versions.length - 1;
    const lastVersion = history.versions[last];
    if (lastVersion !== undefined && version < lastVersion) {
      throw new RangeError(`VersionedStore: write to ${key} at ${version} after ${lastVersion}`);
    }
    if (lastVersion === version) {
      history.values[last] = value;
    } else {
      history.versions.push(version);
      history.values.push(value);
    }
    if (history.versions.length > 1 || value === DELETED) this.prunable.add(key);
  }
}

/** Index of the last element <= target in an ascending array, or -1. */
export function lastIndexAtOrBelow(sorted: readonly bigint[], target: bigint): number {
  let low = 0;
  let high = sorted.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as bigint) <= target) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}
