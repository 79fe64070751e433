// WebAuthn assertions with a secp256r1 (P-256) key, after aptos-core types/src/transaction/webauthn.rs
// `PartialAuthenticatorAssertionResponse::verify`: the client data's `challenge` is the base64url of
// SHA3-256(signing message); the signature is a compact, low-S P-256 ECDSA signature over
// SHA-256(authenticator_data ++ SHA-256(client_data_json)) (crates/aptos-crypto/src/secp256r1_ecdsa:
// `verify_arbitrary_msg` checks malleability, then p256 verifies with its SHA-256 digest); the
// three parts together are at most 1,024 bytes (MAX_WEBAUTHN_SIGNATURE_BYTES).
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { PartialAuthenticatorAssertionResponse } from "./bcs-opaque.ts";
import { sha3_256 } from "./hash.ts";

export const MAX_WEBAUTHN_SIGNATURE_BYTES = 1024;
/** The client data types passkey_types' CollectedClientData takes. */
const CLIENT_DATA_TYPES = new Set(["webauthn.create", "webauthn.get", "payment.get"]);

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

/** The 65-byte uncompressed P-256 public key of a 32-byte private key. */
export function secp256r1PublicKey(privateKey: Uint8Array): Uint8Array {
  return p256.getPublicKey(privateKey, false);
}

/** What the authenticator signs: authenticator_data ++ SHA-256(client_data_json). */
function verificationData(authenticatorData: Uint8Array, clientDataJson: Uint8Array): Uint8Array {
  return concatBytes(authenticatorData, sha256(clientDataJson));
}

/**
 * The BCS bytes of a PartialAuthenticatorAssertionResponse over `message` (a signing message), as a
 * passkey on `rpId` would give it: user present and verified, counter 0. For tests and the suite.
 */
export function webAuthnSign(message: Uint8Array, privateKey: Uint8Array, rpId = "localhost"): Uint8Array {
  const clientDataJson = utf8ToBytes(
    JSON.stringify({ type: "webauthn.get", challenge: base64url(sha3_256(message)), origin: `http://${rpId}`, crossOrigin: false }),
  );
  const authenticatorData = concatBytes(sha256(utf8ToBytes(rpId)), new Uint8Array([0x05, 0, 0, 0, 0]));
  const signature = p256.sign(sha256(verificationData(authenticatorData, clientDataJson)), privateKey, {
    prehash: false,
    lowS: true,
  });
  return PartialAuthenticatorAssertionResponse.serialize({
    signature: { Secp256r1Ecdsa: signature },
    authenticator_data: authenticatorData,
    client_data_json: clientDataJson,
  }).toBytes();
}

/** Why a WebAuthn assertion over `message` does not verify under `publicKey`, or undefined when it does. Never throws. */
export function webAuthnProblem(assertion: Uint8Array, message: Uint8Array, publicKey: Uint8Array): string | undefined {
  let parsed: typeof PartialAuthenticatorAssertionResponse.$inferType;
  try {
    parsed = PartialAuthenticatorAssertionResponse.parse(assertion);
  } catch {
    return "web_authn: not a PartialAuthenticatorAssertionResponse";
  }
  const signature = parsed.signature.Secp256r1Ecdsa;
  if (signature === undefined || signature.length !== 64) return "web_authn: the secp256r1 signature is not 64 bytes";
  const size = signature.length + parsed.authenticator_data.length + parsed.client_data_json.length;
  if (size > MAX_WEBAUTHN_SIGNATURE_BYTES) return `web_authn: ${size} bytes is above ${MAX_WEBAUTHN_SIGNATURE_BYTES}`;
  let clientData: unknown;
  try {
    clientData = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(parsed.client_data_json));
  } catch {
    return "web_authn: client_data_json is not JSON";
  }
  const { type, challenge, origin } = (clientData ?? {}) as { type?: unknown; challenge?: unknown; origin?: unknown };
  if (typeof type !== "string" || !CLIENT_DATA_TYPES.has(type) || typeof challenge !== "string" || typeof origin !== "string")
    return "web_authn: client_data_json is not collected client data {type, challenge, origin}";
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(challenge)) return "web_authn: the challenge is not base64url";
  const expected = base64url(sha3_256(message));
  if (Buffer.from(challenge.replace(/=+$/, ""), "base64url").toString("base64url") !== expected)
    return "web_authn: the challenge is not SHA3-256 of the signing message";
  try {
    const digest = sha256(verificationData(parsed.authenticator_data, parsed.client_data_json));
    if (p256.verify(signature, digest, publicKey, { prehash: false, lowS: true })) return undefined;
  } catch {
    // An invalid key or signature encoding: not a valid signature.
  }
  return "web_authn: the secp256r1 signature does not verify";
}
