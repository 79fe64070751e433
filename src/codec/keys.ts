// Secp256k1 primitives and authentication keys. Secp256k1 ECDSA via @noble/curves over SHA3-256 of the
// message, low-S only, as the Aptos SDK and aptos-core do; ed25519 is in ed25519.ts.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { AnyPublicKey, MultiKey, type AccountAuthenticator, type MultiEd25519PublicKeyParts } from "./bcs-auth.ts";
import { encodeBcs } from "./bcs.ts";
import { sha3_256 } from "./hash.ts";

/** The Aptos SDK signs secp256k1 over SHA3-256(message); high-S signatures are rejected. Never throws. */
export function secp256k1Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return secp256k1.verify(signature, sha3_256(message), publicKey, { prehash: false, lowS: true });
  } catch {
    return false;
  }
}

/** For tests and fixtures: a low-S compact signature over SHA3-256(message). */
export function secp256k1Sign(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return secp256k1.sign(sha3_256(message), privateKey, { prehash: false, lowS: true });
}

/** The 65-byte uncompressed secp256k1 public key of a 32-byte private key (the form the Aptos SDK writes). */
export function secp256k1PublicKey(privateKey: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(privateKey, false);
}

/** The scheme byte appended before hashing a key into an authentication key. */
export const AuthenticationScheme = { Ed25519: 0, MultiEd25519: 1, SingleKey: 2, MultiKey: 3 } as const;
export type AuthenticationScheme = (typeof AuthenticationScheme)[keyof typeof AuthenticationScheme];

/** SHA3-256(keyBytes ++ scheme). A fresh account's address equals its authentication key. */
export function authenticationKey(scheme: AuthenticationScheme, keyBytes: Uint8Array): Uint8Array {
  return sha3_256(concatBytes(keyBytes, new Uint8Array([scheme])));
}

export function ed25519AuthenticationKey(publicKey: Uint8Array): Uint8Array {
  return authenticationKey(AuthenticationScheme.Ed25519, publicKey);
}

/** Over the concatenated keys and the threshold byte. */
export function multiEd25519AuthenticationKey(publicKey: MultiEd25519PublicKeyParts): Uint8Array {
  const bytes = concatBytes(...publicKey.public_keys, new Uint8Array([publicKey.threshold]));
  return authenticationKey(AuthenticationScheme.MultiEd25519, bytes);
}

/** Over bcs(AnyPublicKey). */
export function singleKeyAuthenticationKey(publicKey: typeof AnyPublicKey.$inferInput): Uint8Array {
  return authenticationKey(AuthenticationScheme.SingleKey, encodeBcs(AnyPublicKey, publicKey));
}

/** Over bcs(MultiKey). */
export function multiKeyAuthenticationKey(multiKey: typeof MultiKey.$inferInput): Uint8Array {
  return authenticationKey(AuthenticationScheme.MultiKey, encodeBcs(MultiKey, multiKey));
}

/** The authentication key an account authenticator claims; undefined for the variants that carry no key. */
export function authenticationKeyOf(authenticator: AccountAuthenticator): Uint8Array | undefined {
  switch (authenticator.$kind) {
    case "Ed25519":
      return ed25519AuthenticationKey(authenticator.Ed25519.public_key);
    case "MultiEd25519":
      return multiEd25519AuthenticationKey(authenticator.MultiEd25519.public_key);
    case "SingleKey":
      return singleKeyAuthenticationKey(authenticator.SingleKey.public_key);
    case "MultiKey":
      return multiKeyAuthenticationKey(authenticator.MultiKey.public_keys);
    case "NoAccountAuthenticator":
    case "Abstraction":
      return undefined;
  }
}
