// A map that forgets its oldest entry once it holds `capacity` entries, so a cache keyed by data a
// peer chooses (public keys in submitted transactions, table item requests, type texts) cannot grow
// memory without bound. "Oldest" is by the last set: get leaves the order alone, and a cache that
// should drop the least recently used entry sets it again on each use.
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("BoundedMap: capacity must be a positive integer");
  }

  get size(): number {
    return this.#entries.size;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as K);
    this.#entries.set(key, value);
  }
}
