// Verification of every signature a transaction authenticator carries, after aptos-core's
// TransactionAuthenticator::verify. WebAuthn assertions with a secp256r1 key are verified as aptos-core
// does (webauthn.ts); the variants that need a provider we cannot be (keyless and federated keyless
// proofs, account abstraction's Move function) are reported as unsupported rather than guessed at.
import { bitmapIndexes, type AccountAuthenticator, type AnyPublicKey, type AnySignature } from "./bcs-auth.ts";
import type { SignedTransaction } from "./bcs.ts";
import { DEFAULT_DOMAIN, signingMessage, signingMessageWithData } from "./hash.ts";
import { ed25519Verify } from "./ed25519.ts";
import { webAuthnProblem } from "./webauthn.ts";
import { authenticationKeyOf, ed25519AuthenticationKey, multiEd25519AuthenticationKey, secp256k1Verify } from "./keys.ts";
import type { MultiEd25519PublicKeyParts, MultiEd25519SignatureParts } from "./bcs-auth.ts";

export type SignerRole = "sender" | "secondary" | "fee_payer";

/** An account the authenticator speaks for; the node checks that `address` has `authenticationKey`. */
export interface ClaimedSigner {
  readonly role: SignerRole;
  readonly address: Uint8Array;
  readonly authenticationKey: Uint8Array;
}

export type AuthenticatorVerdict =
  | { readonly ok: true; readonly signers: readonly ClaimedSigner[] }
  | { readonly ok: false; readonly unsupported?: false; readonly reason: string }
  | { readonly ok: false; readonly unsupported: true; readonly reason: string };

type Check = { kind: "valid" } | { kind: "invalid"; reason: string } | { kind: "unsupported"; reason: string };
const VALID: Check = { kind: "valid" };
const invalid = (reason: string): Check => ({ kind: "invalid", reason });
const unsupported = (reason: string): Check => ({ kind: "unsupported", reason });

function verifyMultiEd25519(pk: MultiEd25519PublicKeyParts, sig: MultiEd25519SignatureParts, message: Uint8Array): Check {
  const indexes = bitmapIndexes(sig.bitmap);
  if (indexes.length !== sig.signatures.length) return invalid("multi-ed25519: bitmap and signature count differ");
  if (indexes.length < pk.threshold) return invalid(`multi-ed25519: ${indexes.length} signatures below threshold ${pk.threshold}`);
  for (const [i, index] of indexes.entries()) {
    const key = pk.public_keys[index];
    if (!key) return invalid(`multi-ed25519: bitmap bit ${index} names no key`);
    if (!ed25519Verify(sig.signatures[i] ?? new Uint8Array(), message, key))
      return invalid(`multi-ed25519: signature for key ${index} does not verify`);
  }
  return VALID;
}

function verifyAnyKey(pk: AnyPublicKey, sig: AnySignature, message: Uint8Array): Check {
  if (pk.$kind === "Ed25519" && sig.$kind === "Ed25519")
    return ed25519Verify(sig.Ed25519, message, pk.Ed25519) ? VALID : invalid("ed25519 signature does not verify");
  if (pk.$kind === "Secp256k1Ecdsa" && sig.$kind === "Secp256k1Ecdsa")
    return secp256k1Verify(sig.Secp256k1Ecdsa, message, pk.Secp256k1Ecdsa) ? VALID : invalid("secp256k1_ecdsa signature does not verify");
  if (pk.$kind === "Secp256r1Ecdsa" && sig.$kind === "WebAuthn") {
    const problem = webAuthnProblem(sig.WebAuthn, message, pk.Secp256r1Ecdsa);
    return problem === undefined ? VALID : invalid(problem);
  }
  const supportedPair = (pk.$kind === "Keyless" || pk.$kind === "FederatedKeyless") && sig.$kind === "Keyless";
  if (supportedPair) return unsupported(`${pk.$kind} key with ${sig.$kind} signature is not verified by this codec`);
  return invalid(`${pk.$kind} key cannot carry a ${sig.$kind} signature`);
}

function verifyAccount(auth: AccountAuthenticator, message: Uint8Array): Check {
  switch (auth.$kind) {
    case "Ed25519":
      return ed25519Verify(auth.Ed25519.signature, message, auth.Ed25519.public_key) ? VALID : invalid("ed25519 signature does not verify");
    case "MultiEd25519":
      return verifyMultiEd25519(auth.MultiEd25519.public_key, auth.MultiEd25519.signature, message);
    case "SingleKey":
      return verifyAnyKey(auth.SingleKey.public_key, auth.SingleKey.signature, message);
    case "MultiKey": {
      const { public_keys: multiKey, signatures, signatures_bitmap } = auth.MultiKey;
      const indexes = bitmapIndexes(signatures_bitmap);
      if (indexes.length !== signatures.length) return invalid("multi-key: bitmap and signature count differ");
      if (multiKey.signatures_required < 1 || multiKey.signatures_required > multiKey.public_keys.length)
        return invalid("multi-key: signatures_required out of range");
      if (indexes.length < multiKey.signatures_required) return invalid("multi-key: fewer signatures than required");
      const checks = indexes.map((index, i) => {
        const key = multiKey.public_keys[index];
        const signature = signatures[i];
        return key && signature ? verifyAnyKey(key, signature, message) : invalid(`multi-key: bitmap bit ${index} names no key`);
      });
      return worst(checks);
    }
    case "NoAccountAuthenticator":
      return invalid("no_account_signature carries no signature");
    case "Abstraction":
      return unsupported("account abstraction is not verified by this codec");
  }
}

/** Invalid beats unsupported beats valid. */
function worst(checks: readonly Check[]): Check {
  return checks.find((c) => c.kind === "invalid") ?? checks.find((c) => c.kind === "unsupported") ?? VALID;
}

/** Valid under either message: aptos-core lets sender and secondaries sign over fee payer 0x0 or the real one. */
function eitherMessage(auth: AccountAuthenticator, first: Uint8Array, second: Uint8Array): Check {
  const check = verifyAccount(auth, first);
  return check.kind === "invalid" ? verifyAccount(auth, second) : check;
}

function claimed(role: SignerRole, address: Uint8Array, auth: AccountAuthenticator) {
  return { role, address, authenticationKey: authenticationKeyOf(auth) };
}

/** Checks every signature of `signed`; on success returns the signers it claims, each with its authentication key. */
export function verifyTransactionAuthenticator(signed: SignedTransaction, domain: string = DEFAULT_DOMAIN): AuthenticatorVerdict {
  const raw = signed.raw_txn;
  const auth = signed.authenticator;
  let checks: Check[];
  let signers: { role: SignerRole; address: Uint8Array; authenticationKey: Uint8Array | undefined }[];
  switch (auth.$kind) {
    case "Ed25519": {
      const { public_key, signature } = auth.Ed25519;
      checks = [ed25519Verify(signature, signingMessage(raw, domain), public_key) ? VALID : invalid("ed25519 signature does not verify")];
      signers = [{ role: "sender", address: raw.sender, authenticationKey: ed25519AuthenticationKey(public_key) }];
      break;
    }
    case "MultiEd25519": {
      const { public_key, signature } = auth.MultiEd25519;
      checks = [verifyMultiEd25519(public_key, signature, signingMessage(raw, domain))];
      signers = [{ role: "sender", address: raw.sender, authenticationKey: multiEd25519AuthenticationKey(public_key) }];
      break;
    }
    case "SingleSender":
      checks = [verifyAccount(auth.SingleSender.sender, signingMessage(raw, domain))];
      signers = [claimed("sender", raw.sender, auth.SingleSender.sender)];
      break;
    case "MultiAgent": {
      const { sender, secondary_signer_addresses: addresses, secondary_signers: secondaries } = auth.MultiAgent;
      if (addresses.length !== secondaries.length)
        return { ok: false, reason: "multi-agent: secondary signer addresses and signatures differ in number" };
      const message = signingMessageWithData({ MultiAgent: { raw_txn: raw, secondary_signer_addresses: addresses } }, domain);
      checks = [sender, ...secondaries].map((a) => verifyAccount(a, message));
      signers = [claimed("sender", raw.sender, sender), ...secondaries.map((a, i) => claimed("secondary", addresses[i]!, a))];
      break;
    }
    case "FeePayer": {
      const {
        sender,
        secondary_signer_addresses: addresses,
        secondary_signers: secondaries,
        fee_payer_address,
        fee_payer_signer,
      } = auth.FeePayer;
      if (addresses.length !== secondaries.length)
        return { ok: false, reason: "fee-payer: secondary signer addresses and signatures differ in number" };
      const withFeePayer = (address: Uint8Array) =>
        signingMessageWithData(
          { MultiAgentWithFeePayer: { raw_txn: raw, secondary_signer_addresses: addresses, fee_payer_address: address } },
          domain,
        );
      const zeroMessage = withFeePayer(new Uint8Array(32));
      const realMessage = withFeePayer(fee_payer_address);
      checks = [
        ...[sender, ...secondaries].map((a) => eitherMessage(a, zeroMessage, realMessage)),
        verifyAccount(fee_payer_signer, realMessage),
      ];
      signers = [
        claimed("sender", raw.sender, sender),
        ...secondaries.map((a, i) => claimed("secondary", addresses[i]!, a)),
        claimed("fee_payer", fee_payer_address, fee_payer_signer),
      ];
      break;
    }
  }
  const verdict = worst(checks);
  if (verdict.kind === "invalid") return { ok: false, reason: verdict.reason };
  if (verdict.kind === "unsupported") return { ok: false, unsupported: true, reason: verdict.reason };
  const keyed = signers.flatMap((s) => (s.authenticationKey ? [{ ...s, authenticationKey: s.authenticationKey }] : []));
  // Unreachable today (no-account and abstraction never verify), kept so a new variant cannot slip through keyless.
  if (keyed.length !== signers.length) return { ok: false, reason: "a signer carries no authentication key" };
  return { ok: true, signers: keyed };
}
