// BoundedMap: the cache of keys a peer chooses never holds more than its capacity.
import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../src/codec/bounded-map.ts";

describe("BoundedMap", () => {
  it("forgets the oldest entry once full, and counts a re-set entry as new", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    map.set("a", 3);
    map.set("c", 4);
    expect(map.size).toBe(2);
    expect(map.has("b")).toBe(false);
    expect(map.get("a")).toBe(3);
    expect(map.get("c")).toBe(4);
  });

  it("keeps the order of the last set: a get does not keep an entry, setting it again does", () => {
    const read = new BoundedMap<string, number>(2);
    read.set("a", 1);
    read.set("b", 2);
    read.get("a");
    read.set("c", 3);
    expect(read.has("a")).toBe(false);
    const used = new BoundedMap<string, number>(2);
    used.set("a", 1);
    used.set("b", 2);
    used.set("a", used.get("a") ?? 0);
    used.set("c", 3);
    expect([used.has("a"), used.has("b")]).toEqual([true, false]);
  });

  it("refuses a capacity that is not a positive integer", () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) expect(() => new BoundedMap(capacity)).toThrow(RangeError);
  });
});
