// Layouts of the account-key and signature variants the codec carries without verifying (keyless,
// federated keyless, WebAuthn), after aptos-core types/src/keyless and types/src/transaction/webauthn.
// They are only used to find where such a value ends; the parsed value is its raw BCS bytes (opaque()).
import { bcs } from "@mysten/bcs";
import { AccountAddress, Bytes, opaque, U64 } from "./bcs-primitives.ts";

/** aptos-core types/src/transaction/webauthn.rs PartialAuthenticatorAssertionResponse (BCS field order). */
export const PartialAuthenticatorAssertionResponse = bcs.struct("PartialAuthenticatorAssertionResponse", {
  signature: bcs.enum("AssertionSignature", { Secp256r1Ecdsa: Bytes }),
  authenticator_data: Bytes,
  client_data_json: Bytes,
});

const EphemeralPublicKey = bcs.enum("EphemeralPublicKey", { Ed25519: Bytes, Secp256r1Ecdsa: Bytes });
const EphemeralSignature = bcs.enum("EphemeralSignature", {
  Ed25519: Bytes,
  WebAuthn: PartialAuthenticatorAssertionResponse,
});

const Groth16Proof = bcs.struct("Groth16Proof", { a: bcs.bytes(32), b: bcs.bytes(64), c: bcs.bytes(32) });

const ZeroKnowledgeSig = bcs.struct("ZeroKnowledgeSig", {
  proof: bcs.enum("ZKP", { Groth16: Groth16Proof }),
  exp_horizon_secs: U64,
  extra_field: bcs.option(bcs.string()),
  override_aud_val: bcs.option(bcs.string()),
  training_wheels_signature: bcs.option(EphemeralSignature),
});

const OpenIdSig = bcs.struct("OpenIdSig", {
  jwt_sig: Bytes,
  jwt_payload_json: bcs.string(),
  uid_key: bcs.string(),
  epk_blinder: Bytes,
  pepper: bcs.bytes(31),
  idc_aud_val: bcs.option(bcs.string()),
});

export const KeylessPublicKeyLayout = bcs.struct("KeylessPublicKey", { iss_val: bcs.string(), idc: Bytes });

export const KeylessSignatureLayout = bcs.struct("KeylessSignature", {
  cert: bcs.enum("EphemeralCertificate", { ZeroKnowledgeSig, OpenIdSig }),
  jwt_header_json: bcs.string(),
  exp_date_secs: U64,
  ephemeral_pubkey: EphemeralPublicKey,
  ephemeral_signature: EphemeralSignature,
});

export const KeylessPublicKey = opaque("KeylessPublicKey", KeylessPublicKeyLayout);
export const FederatedKeylessPublicKeyLayout = bcs.struct("FederatedKeylessPublicKey", {
  jwk_addr: AccountAddress,
  pk: KeylessPublicKeyLayout,
});
export const FederatedKeylessPublicKey = opaque("FederatedKeylessPublicKey", FederatedKeylessPublicKeyLayout);
export const KeylessSignature = opaque("KeylessSignature", KeylessSignatureLayout);
export const WebAuthnSignature = opaque("WebAuthnSignature", PartialAuthenticatorAssertionResponse);
