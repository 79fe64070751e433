// The multi-version store: a read at version v answers the value as of v; pruning forgets only what no
// read at the oldest version or later can reach.

import { describe, expect, it } from "vitest";
import { lastIndexAtOrBelow, VersionedStore } from "../../../src/node/ledger/versioned-store.ts";

function storeWithHistory(): VersionedStore<string> {
  const store = new VersionedStore<string>();
  store.put("a", 2n, "a2");
  store.put("a", 5n, "a5");
  store.delete("a", 8n);
  store.put("a", 11n, "a11");
  store.put("b", 3n, "b3");
  return store;
}

describe("VersionedStore reads", () => {
  it("answers each version with the value written at or before it", () => {
    const store = storeWithHistory();
    const expected: Record<number, string | undefined> = {
      0: undefined,
      1: undefined,
      2: "a2",
      3: "a2",
      4: "a2",
      5: "a5",
      6: "a5",
      7: "a5",
      8: undefined,
      9: undefined,
      10: undefined,
      11: "a11",
      20: "a11",
    };
    for (const [version, value] of Object.entries(expected)) {
      expect(store.get("a", BigInt(version)), `a at ${version}`).toBe(value);
    }
    expect(store.get("b", 2n)).toBeUndefined();
    expect(store.get("b", 3n)).toBe("b3");
    expect(store.get("missing", 100n)).toBeUndefined();
  });

  it("overwrites a second write at the same version and refuses to go back in time", () => {
    const store = new VersionedStore<number>();
    store.put("k", 4n, 1);
    store.put("k", 4n, 2);
    expect(store.get("k", 4n)).toBe(2);
    expect(store.historyLength("k")).toBe(1);
    expect(() => store.put("k", 3n, 9)).toThrow(RangeError);
  });

  it("latest() is the newest value, undefined after a deletion", () => {
    const store = storeWithHistory();
    expect(store.latest("a")).toBe("a11");
    store.delete("b", 30n);
    expect(store.latest("b")).toBeUndefined();
  });
});

describe("VersionedStore pruning", () => {
  it("keeps the latest entry at or below the oldest version, so reads from the oldest on are unchanged", () => {
    const store = storeWithHistory();
    const before = [6n, 7n, 8n, 11n, 15n].map((v) => store.get("a", v));
    store.prune(6n);
    expect(store.historyLength("a")).toBe(3); // a5, deleted at 8, a11
    expect([6n, 7n, 8n, 11n, 15n].map((v) => store.get("a", v))).toEqual(before);
    // What was before the oldest version is gone.
    expect(store.get("a", 2n)).toBeUndefined();
  });

  it("drops a deletion at or below the oldest version and forgets keys with nothing left", () => {
    const store = new VersionedStore<string>();
    store.put("gone", 1n, "x");
    store.delete("gone", 4n);
    store.put("kept", 1n, "y");
    store.prune(10n);
    expect(store.knows("gone")).toBe(false);
    expect(store.get("gone", 10n)).toBeUndefined();
    expect(store.get("kept", 10n)).toBe("y");
    expect(store.historyLength("kept")).toBe(1);
  });

  it("leaves entries above the oldest version alone", () => {
    const store = storeWithHistory();
    store.prune(1n);
    expect(store.historyLength("a")).toBe(4);
    expect(store.get("a", 2n)).toBe("a2");
  });
});

describe("lastIndexAtOrBelow", () => {
  it("finds the last element at or below the target", () => {
    const sorted = [1n, 3n, 3n, 7n];
    expect(lastIndexAtOrBelow(sorted, 0n)).toBe(-1);
    expect(lastIndexAtOrBelow(sorted, 1n)).toBe(0);
    expect(lastIndexAtOrBelow(sorted, 3n)).toBe(2);
    expect(lastIndexAtOrBelow(sorted, 6n)).toBe(2);
    expect(lastIndexAtOrBelow(sorted, 100n)).toBe(3);
    expect(lastIndexAtOrBelow([], 5n)).toBe(-1);
  });
});

describe("a VersionedStore's copy", () => {
  it("reads as the store does, then neither sees the other's writes, and each prunes its own history", () => {
    const store = storeWithHistory();
    const copy = store.copy();
    for (const v of [0n, 3n, 6n, 9n, 12n]) expect(copy.get("a", v)).toBe(store.get("a", v));
    copy.put("c", 14n, "c14");
    store.put("b", 14n, "b14");
    expect(store.latest("c")).toBeUndefined();
    expect(copy.latest("c")).toBe("c14");
    expect(copy.latest("b")).toBe("b3");
    // "a" was written before the copy only: the copy knows it has history to prune.
    copy.prune(12n);
    expect(copy.historyLength("a")).toBe(1);
    expect(store.historyLength("a")).toBe(4);
    expect(copy.get("a", 12n)).toBe("a11");
  });
});
