// Ed25519 keys, signatures and strict verification, with aptos-core's verdicts.
//
// Signing and verifying go through node:crypto (OpenSSL) for speed; @noble/ed25519 does the point
// arithmetic of the strict checks. OpenSSL verifies and signs several times faster than noble's
// JavaScript, and a node's genesis signs and verifies every transaction it admits, its block producer
// one transfer a block, so these costs add up in the node's start.
//
// aptos-core's Ed25519Signature::verify (crates/aptos-crypto/src/ed25519/ed25519_sigs.rs) is
// check_s_malleability (S < L) then ed25519-dalek's verify_strict: the public key and R must not be of
// small order, and the cofactorless equation must give R's exact encoding. OpenSSL's verify computes
// the same equation (cofactorless, comparing the encoding of [S]B - [k]A with R's bytes, rejecting S >= L),
// but accepts small-order keys and small-order R. So before it:
// - S < L, as aptos-core checks it itself;
// - R is none of the 8 small-order points (a non-canonical encoding of one never equals the encoding
//   OpenSSL computes, so only the canonical ones need naming; test/codec/ed25519-strict.test.ts proves both);
// - the public key is a canonical encoding of a point not of small order, checked once per key by noble
//   and remembered with its OpenSSL key object in a bounded map. (dalek decodes y >= p by reducing it;
//   nobody can sign for such a key, the point having no known discrete log, so refusing it changes no
//   verdict a signer can reach.)
// Verification never throws: malformed input is false.
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import * as ed from "@noble/ed25519";
import { bytesToHex } from "@noble/hashes/utils.js";
import { BoundedMap } from "./bounded-map.ts";
import { CodecError } from "./errors.ts";

/** A node sees few distinct keys; the bound keeps a stream of hostile keys from growing memory. */
const KEY_CACHE_CAPACITY = 1024;

/** The group order L = 2^252 + 27742317777372353535851937790883648493, little-endian as S is encoded. */
const GROUP_ORDER_LE = Uint8Array.from({ length: 32 }, (_, i) =>
  Number(((2n ** 252n + 27742317777372353535851937790883648493n) >> BigInt(8 * i)) & 0xffn),
);

/**
 * The canonical encodings of the 8 points of order dividing 8 (the multiples of one point of order 8),
 * hex. ed25519-strict.test.ts derives them with noble.
 */
export const SMALL_ORDER_ENCODINGS: ReadonlySet<string> = new Set([
  "0100000000000000000000000000000000000000000000000000000000000000",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "0000000000000000000000000000000000000000000000000000000000000080",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
  "0000000000000000000000000000000000000000000000000000000000000000",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
]);

type SigningKey = { readonly privateKey: KeyObject; readonly publicKey: Uint8Array };
const signingKeys = new BoundedMap<string, SigningKey>(KEY_CACHE_CAPACITY);
/** null for a key the strict checks reject. */
const verifyingKeys = new BoundedMap<string, KeyObject | null>(KEY_CACHE_CAPACITY);

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

function signingKey(seed: Uint8Array): SigningKey {
  if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new CodecError("ed25519 private key: expected 32 bytes");
  const id = bytesToHex(seed);
  const known = signingKeys.get(id);
  if (known) return known;
  // A JWK imports ~10x faster than PKCS#8 DER. Node requires `x` to be a string but builds the key from
  // `d` alone (OpenSSL derives the public half), so it stays empty; the tests compare with noble.
  const privateKey = createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", d: base64url(seed), x: "" }, format: "jwk" });
  const { x } = createPublicKey(privateKey).export({ format: "jwk" });
  const made = { privateKey, publicKey: new Uint8Array(Buffer.from(x ?? "", "base64url")) };
  signingKeys.set(id, made);
  return made;
}

export function ed25519PublicKey(privateKey: Uint8Array): Uint8Array {
  return signingKey(privateKey).publicKey.slice();
}

/** RFC 8032 signing is deterministic: the same bytes as any other conforming signer. */
export function ed25519Sign(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return Uint8Array.from(sign(null, message, signingKey(privateKey).privateKey));
}

/** aptos-core's check_s_lt_l: S read little-endian, compared from its most significant byte. */
function scalarBelowGroupOrder(s: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    if (s[i]! !== GROUP_ORDER_LE[i]!) return s[i]! < GROUP_ORDER_LE[i]!;
  }
  return false;
}

/** The OpenSSL key for a canonical encoding of a point not of small order; null for any other 32 bytes. */
function verifyingKey(publicKey: Uint8Array): KeyObject | null {
  const id = bytesToHex(publicKey);
  const known = verifyingKeys.get(id);
  if (known !== undefined) return known;
  let key: KeyObject | null = null;
  try {
    if (!ed.Point.fromBytes(publicKey, false).isSmallOrder())
      key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: base64url(publicKey) }, format: "jwk" });
  } catch {
    key = null; // not a canonical encoding of a curve point
  }
  verifyingKeys.set(id, key);
  return key;
}

/** aptos-core's Ed25519Signature::verify verdict; false, never a throw, for a malformed signature or key. */
export function ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (!(signature instanceof Uint8Array) || signature.length !== 64) return false;
  if (!(message instanceof Uint8Array) || !(publicKey instanceof Uint8Array) || publicKey.length !== 32) return false;
  if (!scalarBelowGroupOrder(signature.subarray(32))) return false;
  if (SMALL_ORDER_ENCODINGS.has(bytesToHex(signature.subarray(0, 32)))) return false;
  const key = verifyingKey(publicKey);
  if (key === null) return false;
  try {
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}
