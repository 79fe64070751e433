// SHA3-256 (FIPS 202), which the codec takes from node:crypto (src/codec/hash.ts): the standard's
// vectors, and noble's independent Keccak on inputs of every length up to two rate blocks and beyond.

import { sha3_256 as nobleSha3 } from "@noble/hashes/sha3.js";
import { describe, expect, it } from "vitest";
import { sha3_256, toHex } from "../../src/codec/index.ts";

const ascii = (text: string) => new TextEncoder().encode(text);

describe("sha3_256", () => {
  it('gives the FIPS 202 digests of the empty message and of "abc"', () => {
    expect(toHex(sha3_256(new Uint8Array()))).toBe("0xa7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
    expect(toHex(sha3_256(ascii("abc")))).toBe("0x3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
  });

  it("agrees with noble's Keccak on every length from 0 to 300 bytes (the rate is 136)", () => {
    for (let length = 0; length <= 300; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      expect(toHex(sha3_256(bytes)), `length ${length}`).toBe(toHex(nobleSha3(bytes)));
    }
  });

  it("returns a Uint8Array of its own, not a view of a shared buffer", () => {
    const digest = sha3_256(ascii("ledger"));
    expect(digest).toBeInstanceOf(Uint8Array);
    expect(digest.byteLength).toBe(32);
    expect(digest.buffer.byteLength).toBe(32);
  });
});
