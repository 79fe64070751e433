// BCS schemas of public keys, signatures and authenticators (the family's convention; aptos-core
// types/src/transaction/authenticator.rs). Ed25519 keys and signatures are length-prefixed bytes;
// MultiEd25519 keys are the concatenated keys + a threshold byte, its signatures the concatenated
// signatures + a 4-byte bitmap, both carried as one length-prefixed byte string.
import { bcs } from "@mysten/bcs";
import { AccountAddress, Bytes, Identifier, sizedBytes } from "./bcs-primitives.ts";
import { FederatedKeylessPublicKey, KeylessPublicKey, KeylessSignature, WebAuthnSignature } from "./bcs-opaque.ts";
import { CodecError } from "./errors.ts";

export const ED25519_PUBLIC_KEY_LENGTH = 32;
export const ED25519_SIGNATURE_LENGTH = 64;
export const MULTI_ED25519_MAX_KEYS = 32;
export const MULTI_ED25519_BITMAP_LENGTH = 4;

export const Ed25519PublicKey = sizedBytes("Ed25519PublicKey", (n) => n === ED25519_PUBLIC_KEY_LENGTH, "32 bytes");
export const Ed25519Signature = sizedBytes("Ed25519Signature", (n) => n === ED25519_SIGNATURE_LENGTH, "64 bytes");
/** Uncompressed (65 bytes) as the Aptos SDK writes it, or compressed (33). */
export const Secp256k1PublicKey = sizedBytes("Secp256k1PublicKey", (n) => n === 65 || n === 33, "65 or 33 bytes");
export const Secp256k1Signature = sizedBytes("Secp256k1Signature", (n) => n === 64, "64 bytes");
export const Secp256r1PublicKey = sizedBytes("Secp256r1PublicKey", (n) => n === 65, "65 bytes");

/** Indexes of the set bits of an MSB-first bitmap (bit i is byte i/8, mask 0x80 >> i%8), ascending. */
export function bitmapIndexes(bitmap: Uint8Array): number[] {
  const indexes: number[] = [];
  bitmap.forEach((byte, i) => {
    for (let bit = 0; bit < 8; bit++) if (byte & (0x80 >> bit)) indexes.push(8 * i + bit);
  });
  return indexes;
}

export interface MultiEd25519PublicKeyParts {
  public_keys: Uint8Array[];
  threshold: number;
}
export interface MultiEd25519SignatureParts {
  signatures: Uint8Array[];
  bitmap: Uint8Array;
}

function chunks(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.slice(i, i + size));
  return out;
}

/** aptos-core MultiEd25519PublicKey::try_from: 1..=32 keys and a threshold in 1..=keys. */
function splitMultiEd25519PublicKey(bytes: Uint8Array): MultiEd25519PublicKeyParts {
  const keyBytes = bytes.length - 1;
  const count = keyBytes / ED25519_PUBLIC_KEY_LENGTH;
  if (keyBytes < 0 || !Number.isInteger(count) || count < 1 || count > MULTI_ED25519_MAX_KEYS)
    throw new CodecError(`MultiEd25519PublicKey: ${bytes.length} bytes is not 32*n + 1 with n in 1..32`);
  const threshold = bytes[keyBytes] ?? 0;
  if (threshold < 1 || threshold > count) throw new CodecError(`MultiEd25519PublicKey: threshold ${threshold} not in 1..${count}`);
  return { public_keys: chunks(bytes.subarray(0, keyBytes), ED25519_PUBLIC_KEY_LENGTH), threshold };
}

function joinMultiEd25519PublicKey(parts: MultiEd25519PublicKeyParts): Uint8Array {
  if (parts.public_keys.some((k) => k.length !== ED25519_PUBLIC_KEY_LENGTH))
    throw new CodecError("MultiEd25519PublicKey: every key must be 32 bytes");
  const bytes = new Uint8Array([...parts.public_keys.flatMap((k) => [...k]), parts.threshold]);
  splitMultiEd25519PublicKey(bytes);
  return bytes;
}

/** aptos-core MultiEd25519Signature::try_from: up to 32 signatures, as many as bits set in the bitmap. */
function splitMultiEd25519Signature(bytes: Uint8Array): MultiEd25519SignatureParts {
  const sigBytes = bytes.length - MULTI_ED25519_BITMAP_LENGTH;
  const count = sigBytes / ED25519_SIGNATURE_LENGTH;
  if (sigBytes < 0 || !Number.isInteger(count) || count > MULTI_ED25519_MAX_KEYS)
    throw new CodecError(`MultiEd25519Signature: ${bytes.length} bytes is not 64*n + 4 with n in 0..32`);
  const bitmap = bytes.slice(sigBytes);
  if (bitmapIndexes(bitmap).length !== count)
    throw new CodecError(`MultiEd25519Signature: bitmap sets ${bitmapIndexes(bitmap).length} bits for ${count} signatures`);
  return { signatures: chunks(bytes.subarray(0, sigBytes), ED25519_SIGNATURE_LENGTH), bitmap };
}

function joinMultiEd25519Signature(parts: MultiEd25519SignatureParts): Uint8Array {
  if (parts.signatures.some((s) => s.length !== ED25519_SIGNATURE_LENGTH))
    throw new CodecError("MultiEd25519Signature: every signature must be 64 bytes");
  if (parts.bitmap.length !== MULTI_ED25519_BITMAP_LENGTH) throw new CodecError("MultiEd25519Signature: bitmap must be 4 bytes");
  const bytes = new Uint8Array([...parts.signatures.flatMap((s) => [...s]), ...parts.bitmap]);
  splitMultiEd25519Signature(bytes);
  return bytes;
}

export const MultiEd25519PublicKey = Bytes.transform({
  name: "MultiEd25519PublicKey",
  input: joinMultiEd25519PublicKey,
  output: splitMultiEd25519PublicKey,
});
export const MultiEd25519Signature = Bytes.transform({
  name: "MultiEd25519Signature",
  input: joinMultiEd25519Signature,
  output: splitMultiEd25519Signature,
});

/** Keyless and federated keyless keys are kept as their BCS bytes (see bcs-opaque.ts). */
export const AnyPublicKey = bcs.enum("AnyPublicKey", {
  Ed25519: Ed25519PublicKey,
  Secp256k1Ecdsa: Secp256k1PublicKey,
  Secp256r1Ecdsa: Secp256r1PublicKey,
  Keyless: KeylessPublicKey,
  FederatedKeyless: FederatedKeylessPublicKey,
});

/** WebAuthn and keyless signatures are kept as their BCS bytes (see bcs-opaque.ts). */
export const AnySignature = bcs.enum("AnySignature", {
  Ed25519: Ed25519Signature,
  Secp256k1Ecdsa: Secp256k1Signature,
  WebAuthn: WebAuthnSignature,
  Keyless: KeylessSignature,
});

export const MultiKey = bcs.struct("MultiKey", { public_keys: bcs.vector(AnyPublicKey), signatures_required: bcs.u8() });

export const FunctionInfo = bcs.struct("FunctionInfo", {
  module_address: AccountAddress,
  module_name: Identifier,
  function_name: Identifier,
});

export const AbstractionAuthData = bcs.enum("AbstractionAuthData", {
  V1: bcs.struct("AbstractionAuthDataV1", { signing_message_digest: Bytes, authenticator: Bytes }),
  DerivableV1: bcs.struct("AbstractionAuthDataDerivableV1", {
    signing_message_digest: Bytes,
    abstract_signature: Bytes,
    abstract_public_key: Bytes,
  }),
});

export const AccountAuthenticator = bcs.enum("AccountAuthenticator", {
  Ed25519: bcs.struct("Ed25519Authenticator", { public_key: Ed25519PublicKey, signature: Ed25519Signature }),
  MultiEd25519: bcs.struct("MultiEd25519Authenticator", {
    public_key: MultiEd25519PublicKey,
    signature: MultiEd25519Signature,
  }),
  SingleKey: bcs.struct("SingleKeyAuthenticator", { public_key: AnyPublicKey, signature: AnySignature }),
  MultiKey: bcs.struct("MultiKeyAuthenticator", {
    public_keys: MultiKey,
    signatures: bcs.vector(AnySignature),
    signatures_bitmap: Bytes,
  }),
  NoAccountAuthenticator: null,
  Abstraction: bcs.struct("AbstractionAuthenticator", { function_info: FunctionInfo, auth_data: AbstractionAuthData }),
});

export const TransactionAuthenticator = bcs.enum("TransactionAuthenticator", {
  Ed25519: bcs.struct("Ed25519TransactionAuthenticator", { public_key: Ed25519PublicKey, signature: Ed25519Signature }),
  MultiEd25519: bcs.struct("MultiEd25519TransactionAuthenticator", {
    public_key: MultiEd25519PublicKey,
    signature: MultiEd25519Signature,
  }),
  MultiAgent: bcs.struct("MultiAgentAuthenticator", {
    sender: AccountAuthenticator,
    secondary_signer_addresses: bcs.vector(AccountAddress),
    secondary_signers: bcs.vector(AccountAuthenticator),
  }),
  FeePayer: bcs.struct("FeePayerAuthenticator", {
    sender: AccountAuthenticator,
    secondary_signer_addresses: bcs.vector(AccountAddress),
    secondary_signers: bcs.vector(AccountAuthenticator),
    fee_payer_address: AccountAddress,
    fee_payer_signer: AccountAuthenticator,
  }),
  SingleSender: bcs.struct("SingleSenderAuthenticator", { sender: AccountAuthenticator }),
});

export type AnyPublicKey = typeof AnyPublicKey.$inferType;
export type AnySignature = typeof AnySignature.$inferType;
export type MultiKey = typeof MultiKey.$inferType;
export type AbstractionAuthData = typeof AbstractionAuthData.$inferType;
export type AccountAuthenticator = typeof AccountAuthenticator.$inferType;
export type AccountAuthenticatorInput = typeof AccountAuthenticator.$inferInput;
export type TransactionAuthenticator = typeof TransactionAuthenticator.$inferType;
export type TransactionAuthenticatorInput = typeof TransactionAuthenticator.$inferInput;
