// ed25519 through node:crypto (OpenSSL) keeps aptos-core's verdicts: aptos-core's Ed25519Signature::verify
// (crates/aptos-crypto/src/ed25519/ed25519_sigs.rs) is check_s_malleability (S < L) plus ed25519-dalek's
// verify_strict (no small-order public key or R; cofactorless equation compared with R's encoding).
// The verdicts are compared with noble's strict mode (`zip215: false`) and with OpenSSL alone, so each
// extra check is shown to be needed and each claim about OpenSSL is shown to hold.
import { verify as opensslVerify, createPublicKey } from "node:crypto";
import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes } from "@noble/hashes/utils.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SMALL_ORDER_ENCODINGS } from "../../src/codec/ed25519.ts";
import { ed25519PublicKey, ed25519Sign, ed25519Verify } from "../../src/codec/index.ts";

// noble signs and verifies here as the reference; its SHA-512 is wired in by hand (its README).
ed.hashes.sha512 = sha512;

const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const B = ed.Point.BASE;
type Point = typeof B;

const le32 = (n: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));
const fromLe = (bytes: Uint8Array) => bytes.reduceRight((acc, b) => (acc << 8n) | BigInt(b), 0n);
const withSignBit = (bytes: Uint8Array) => Uint8Array.from(bytes, (b, i) => (i === 31 ? b | 0x80 : b));
/** n·point for 0 ≤ n < L (n mod L would be wrong for a point outside the prime-order subgroup). */
const times = (point: Point, n: bigint) => point.multiply(n, false);
/** k = SHA-512(R ‖ A ‖ M) mod L, the challenge every verifier computes over the bytes as sent. */
const challenge = (r: Uint8Array, a: Uint8Array, message: Uint8Array) => fromLe(sha512(concatBytes(r, a, message))) % L;

const nobleStrict = (sig: Uint8Array, msg: Uint8Array, pk: Uint8Array) => {
  try {
    return ed.verify(sig, msg, pk, { zip215: false });
  } catch {
    return false;
  }
};
/** OpenSSL with no checks in front: what node:crypto alone would accept. */
const opensslAlone = (sig: Uint8Array, msg: Uint8Array, pk: Uint8Array) => {
  try {
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(pk).toString("base64url") }, format: "jwk" });
    return opensslVerify(null, msg, key, sig);
  } catch {
    return false;
  }
};

/** A point of order 8, found from scratch: L·P is P's torsion component; half the curve's points have one of order 8. */
function pointOfOrder8(): Point {
  for (let y = 2n; y < 200n; y++) {
    let point: Point;
    try {
      point = ed.Point.fromBytes(le32(y), false);
    } catch {
      continue;
    }
    const torsion = point.multiply(L - 1n, false).add(point);
    if (!torsion.double().double().is0()) return torsion;
  }
  throw new Error("no point with a torsion component of order 8 among the first y values");
}
const T8 = pointOfOrder8();
/** torsion[j] = j·T8: the whole torsion subgroup (the curve group is Z/8 × Z/L). */
const torsion = Array.from({ length: 8 }, (_, j) => times(T8, BigInt(j)));
/** -k·T8, by k's residue mod 8 (T8 has order 8). */
const minusKT8 = (k: bigint) => torsion[Number((8n - (k % 8n)) % 8n)]!;

/**
 * Every non-canonical encoding (y ≥ p, or x = 0 with the sign bit set) that decodes, leniently as dalek
 * does, to a point of small order.
 */
const nonCanonicalSmallOrder = [
  ...Array.from({ length: 19 }, (_, k) => le32(P + BigInt(k))).flatMap((bytes) => [bytes, withSignBit(bytes)]),
  withSignBit(le32(1n)),
  withSignBit(le32(P - 1n)),
].filter((bytes) => {
  try {
    return ed.Point.fromBytes(bytes, true).isSmallOrder();
  } catch {
    return false;
  }
});

describe("the small-order encodings ed25519Verify refuses as R", () => {
  it("are exactly the canonical encodings of the 8 multiples of a point of order 8", () => {
    const derived = new Set(torsion.map((point) => point.toHex()));
    expect(derived.size).toBe(8);
    expect([...derived].sort()).toEqual([...SMALL_ORDER_ENCODINGS].sort());
    for (const hex of SMALL_ORDER_ENCODINGS) expect(ed.Point.fromHex(hex, false).isSmallOrder(), hex).toBe(true);
  });

  it("have 6 non-canonical variants (y = p, p + 1 with either sign; -0 for y = ±1)", () => {
    expect(nonCanonicalSmallOrder.map(bytesToHex).sort()).toEqual(
      [
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "0100000000000000000000000000000000000000000000000000000000000080",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
      ].sort(),
    );
  });
});

describe("ed25519 through node:crypto makes noble's keys and signatures, byte for byte", () => {
  it("public keys and signatures over random seeds and messages", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 300 }), (seed, message) => {
        expect(bytesToHex(ed25519PublicKey(seed))).toBe(bytesToHex(ed.getPublicKey(seed)));
        expect(bytesToHex(ed25519Sign(message, seed))).toBe(bytesToHex(ed.sign(message, seed)));
      }),
      { numRuns: 300 },
    );
  });
});

describe("ed25519Verify and noble's strict mode agree", () => {
  const keyAndMessage = fc.tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 200 }));

  it("on valid signatures, tampered messages and tampered signatures", () => {
    fc.assert(
      fc.property(keyAndMessage, fc.nat(), fc.integer({ min: 0, max: 7 }), ([seed, message], at, bit) => {
        const pk = ed25519PublicKey(seed);
        const sig = ed25519Sign(message, seed);
        expect(ed25519Verify(sig, message, pk)).toBe(true);
        expect(nobleStrict(sig, message, pk)).toBe(true);
        const longer = concatBytes(message, new Uint8Array([at & 0xff]));
        const changed = message.length === 0 ? longer : message.map((b, i) => (i === at % message.length ? b ^ (1 << bit) : b));
        for (const other of [changed, longer]) {
          expect(ed25519Verify(sig, other, pk)).toBe(false);
          expect(nobleStrict(sig, other, pk)).toBe(false);
        }
        const flipped = sig.map((b, i) => (i === at % 64 ? b ^ (1 << bit) : b));
        expect(ed25519Verify(flipped, message, pk)).toBe(false);
        expect(nobleStrict(flipped, message, pk)).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it("on S ≥ L: S = L, S + L, S + 2L, 2^256 - 1 (OpenSSL alone rejects them too)", () => {
    const seed = new Uint8Array(32).fill(3);
    const message = new TextEncoder().encode("malleability");
    const pk = ed25519PublicKey(seed);
    const sig = ed25519Sign(message, seed);
    const s = fromLe(sig.subarray(32));
    for (const big of [L, s + L, s + 2n * L, 2n ** 256n - 1n]) {
      const mauled = concatBytes(sig.subarray(0, 32), le32(big));
      expect(ed25519Verify(mauled, message, pk), big.toString(16)).toBe(false);
      expect(nobleStrict(mauled, message, pk), big.toString(16)).toBe(false);
      expect(opensslAlone(mauled, message, pk), big.toString(16)).toBe(false);
    }
  });

  it("on small-order public keys, canonical and not, even with signatures OpenSSL alone accepts", () => {
    // For A = T of small order, R = rB and S = r hold the cofactorless equation whenever k·T = 0.
    const r = 12345n;
    const R = times(B, r).toBytes();
    for (const [name, pk] of [
      ...[...SMALL_ORDER_ENCODINGS].map((hex) => [hex, ed.etc.hexToBytes(hex)] as const),
      ...nonCanonicalSmallOrder.map((bytes) => [`${bytesToHex(bytes)} (non-canonical)`, bytes] as const),
    ]) {
      const T = ed.Point.fromBytes(pk, true);
      const message = findMessage((m) => times(T, challenge(R, pk, m)).is0());
      const sig = concatBytes(R, le32(r));
      if (SMALL_ORDER_ENCODINGS.has(bytesToHex(pk))) expect(opensslAlone(sig, message, pk), name).toBe(true);
      expect(ed25519Verify(sig, message, pk), name).toBe(false);
      expect(nobleStrict(sig, message, pk), name).toBe(false);
    }
  });

  it("on non-canonical public keys of points not of small order (y = p + k): both refuse", () => {
    // dalek decodes such a key (reducing y mod p) and would then need a signature; none can be made,
    // as the point with y = k has no known discrete log, so refusing it outright gives the same verdicts.
    const seed = new Uint8Array(32).fill(4);
    const message = new TextEncoder().encode("non-canonical key");
    const sig = ed25519Sign(message, seed);
    let tried = 0;
    for (let k = 0n; k < 19n; k++)
      for (const pk of [le32(P + k), withSignBit(le32(P + k))]) {
        if (nonCanonicalSmallOrder.some((bytes) => bytesToHex(bytes) === bytesToHex(pk))) continue;
        tried++;
        expect(ed25519Verify(sig, message, pk), bytesToHex(pk)).toBe(false);
        expect(nobleStrict(sig, message, pk), bytesToHex(pk)).toBe(false);
      }
    expect(tried).toBe(34);
  });

  it("keep their verdicts past the key caches' bound (1,024 keys)", () => {
    const message = new TextEncoder().encode("many keys");
    const seeds = Array.from({ length: 1030 }, (_, i) => le32(BigInt(i) + 1000n));
    const signed = seeds.map((seed) => ({ pk: ed25519PublicKey(seed), sig: ed25519Sign(message, seed) }));
    for (const { pk, sig } of signed) expect(ed25519Verify(sig, message, pk)).toBe(true);
    const first = signed[0]!;
    expect(bytesToHex(first.sig)).toBe(bytesToHex(ed.sign(message, seeds[0]!)));
    expect(ed25519Verify(first.sig, message, first.pk)).toBe(true);
    const smallOrderKey = ed.etc.hexToBytes([...SMALL_ORDER_ENCODINGS][0]!);
    expect(ed25519Verify(first.sig, message, smallOrderKey)).toBe(false);
    expect(ed25519Verify(first.sig, message, smallOrderKey)).toBe(false);
  });

  it("on wrong lengths: false, never a throw", () => {
    const seed = new Uint8Array(32).fill(5);
    const message = new TextEncoder().encode("lengths");
    const pk = ed25519PublicKey(seed);
    const sig = ed25519Sign(message, seed);
    for (const [s, k] of [
      [sig.subarray(0, 63), pk],
      [concatBytes(sig, new Uint8Array(1)), pk],
      [new Uint8Array(0), pk],
      [sig, pk.subarray(0, 31)],
      [sig, concatBytes(pk, new Uint8Array(1))],
      [sig, new Uint8Array(0)],
    ] as const) {
      expect(ed25519Verify(s, message, k)).toBe(false);
      expect(nobleStrict(s, message, k)).toBe(false);
    }
  });
});

/** The first of "0", "1", … (as UTF-8) that `holds`, like grinding a nonce; 1 in 8 do for the uses below. */
function findMessage(holds: (message: Uint8Array) => boolean): Uint8Array {
  for (let i = 0; i < 1000; i++) {
    const message = new TextEncoder().encode(String(i));
    if (holds(message)) return message;
  }
  throw new Error("no message among the first 1000 satisfies the condition");
}

describe("where noble's strict mode (cofactored) and aptos-core's verify_strict (cofactorless) differ, ed25519Verify follows aptos-core", () => {
  // A mixed-order key A = aB + T8 is not of small order, so verify_strict takes it, and checks
  // [S]B - [k]A = R exactly: with S = r + k·a that is R - k·T8, equal to R only when k ≡ 0 (mod 8).
  const a = 0x1234567890abcdefn;
  const mixedKey = times(B, a).add(T8).toBytes();

  it("a signature by a mixed-order key holds only with the cofactor unless k ≡ 0 (mod 8)", () => {
    const r = 777n;
    const R = times(B, r).toBytes();
    const sign = (message: Uint8Array) => concatBytes(R, le32((r + challenge(R, mixedKey, message) * a) % L));
    const cofactorOnly = findMessage((m) => challenge(R, mixedKey, m) % 8n !== 0n);
    expect(nobleStrict(sign(cofactorOnly), cofactorOnly, mixedKey)).toBe(true);
    expect(opensslAlone(sign(cofactorOnly), cofactorOnly, mixedKey)).toBe(false);
    expect(ed25519Verify(sign(cofactorOnly), cofactorOnly, mixedKey)).toBe(false);
    const exact = findMessage((m) => challenge(R, mixedKey, m) % 8n === 0n);
    expect(nobleStrict(sign(exact), exact, mixedKey)).toBe(true);
    expect(ed25519Verify(sign(exact), exact, mixedKey)).toBe(true);
  });

  it("R of small order is refused, though noble's strict mode and OpenSSL alone accept it", () => {
    // With S = k·a, [S]B - [k]A = -k·T8: a message whose k makes that the chosen small-order point
    // gives a signature whose equation holds exactly, R's encoding included.
    torsion.forEach((point, j) => {
      const R = point.toBytes();
      const message = findMessage((m) => minusKT8(challenge(R, mixedKey, m)).equals(point));
      const sig = concatBytes(R, le32((challenge(R, mixedKey, message) * a) % L));
      expect(opensslAlone(sig, message, mixedKey), `R = ${j}·T8`).toBe(true);
      expect(nobleStrict(sig, message, mixedKey), `R = ${j}·T8`).toBe(true);
      expect(ed25519Verify(sig, message, mixedKey), `R = ${j}·T8`).toBe(false);
    });
  });

  it("R = identity under an ordinary key (the forgery a signer can make for any message) is refused", () => {
    const seed = new Uint8Array(32).fill(6);
    const { scalar, pointBytes: pk } = ed.utils.getExtendedPublicKey(seed);
    const R = ed.Point.ZERO.toBytes();
    const message = new TextEncoder().encode("identity R");
    const sig = concatBytes(R, le32((challenge(R, pk, message) * scalar) % L));
    expect(opensslAlone(sig, message, pk)).toBe(true);
    expect(nobleStrict(sig, message, pk)).toBe(true);
    expect(ed25519Verify(sig, message, pk)).toBe(false);
  });
});

describe("non-canonical R fails in OpenSSL already (it compares R's bytes)", () => {
  it("each non-canonical encoding of a small-order R, with the equation holding for its point", () => {
    // Only small-order points have non-canonical encodings whose discrete log is known, so these are
    // the only non-canonical R a test can make hold; OpenSSL, noble and ed25519Verify all refuse them.
    const a = 0xfeedfacen;
    const mixedKey = times(B, a).add(T8).toBytes();
    for (const R of nonCanonicalSmallOrder) {
      const point = ed.Point.fromBytes(R, true);
      const message = findMessage((m) => minusKT8(challenge(R, mixedKey, m)).equals(point));
      const sig = concatBytes(R, le32((challenge(R, mixedKey, message) * a) % L));
      const k = challenge(R, mixedKey, message);
      expect(
        times(B, fromLe(sig.subarray(32)))
          .subtract(times(ed.Point.fromBytes(mixedKey, false), k))
          .equals(point),
      ).toBe(true);
      expect(opensslAlone(sig, message, mixedKey), bytesToHex(R)).toBe(false);
      expect(nobleStrict(sig, message, mixedKey), bytesToHex(R)).toBe(false);
      expect(ed25519Verify(sig, message, mixedKey), bytesToHex(R)).toBe(false);
    }
  });
});
