// Faults in the signature forms (§2.8.2): a form the node refuses as if it did not exist, a signature it
// leaves unchecked (it takes the transaction into its mempool and answers 202, as the submission
// faults do, and the transaction never commits), and a malformed proof it answers as its own failure.

import {
  ed25519Verify,
  signingMessageWithData,
  verifyTransactionAuthenticator,
  type AccountAuthenticator,
  type AnyPublicKey,
  type AnySignature,
  type SignedTransaction,
} from "../../codec/index.ts";
import { LedgerError } from "../ledger/api.ts";
import { VmStatus } from "../ledger/vm-status.ts";
import type { Fault, FaultContext } from "./fault.ts";
import { overlookingWhere, refusing } from "./submission.ts";

/** The account authenticators a transaction carries (none for the top-level ed25519 and multi-ed25519 forms). */
function accountAuthenticators(signed: SignedTransaction): AccountAuthenticator[] {
  const auth = signed.authenticator;
  switch (auth.$kind) {
    case "Ed25519":
    case "MultiEd25519":
      return [];
    case "SingleSender":
      return [auth.SingleSender.sender];
    case "MultiAgent":
      return [auth.MultiAgent.sender, ...auth.MultiAgent.secondary_signers];
    case "FeePayer":
      return [auth.FeePayer.sender, ...auth.FeePayer.secondary_signers, auth.FeePayer.fee_payer_signer];
  }
}

function publicKeys(auth: AccountAuthenticator): AnyPublicKey[] {
  if (auth.$kind === "SingleKey") return [auth.SingleKey.public_key];
  if (auth.$kind === "MultiKey") return auth.MultiKey.public_keys.public_keys;
  return [];
}

function signatures(auth: AccountAuthenticator): AnySignature[] {
  if (auth.$kind === "SingleKey") return [auth.SingleKey.signature];
  if (auth.$kind === "MultiKey") return auth.MultiKey.signatures;
  return [];
}

const keysOf = (signed: SignedTransaction) => accountAuthenticators(signed).flatMap(publicKeys);

/** A submit that answers 202 where the engine refuses the signature and `overlooks` holds. */
const overlookingSignatures = (overlooks: (signed: SignedTransaction, ctx: FaultContext) => boolean) =>
  overlookingWhere((status, signed, ctx) => status === VmStatus.INVALID_SIGNATURE && overlooks(signed, ctx));

const multiAgentRefused: Fault = {
  name: "multi-agent-refused",
  area: "signatures",
  description: "refuses multi-agent transactions (400 invalid_input) as a variant it does not take",
  breaks: ["2.8.2/signature-variants-accepted"],
  engine: refusing(
    (signed) => signed.authenticator.$kind === "MultiAgent",
    () => new LedgerError(400, "invalid_input", "Multi-agent transactions are not supported"),
  ),
};

const secp256k1Refused: Fault = {
  name: "secp256k1-refused",
  area: "signatures",
  description: "refuses transactions signed with a secp256k1_ecdsa key (single key or in a multi key)",
  breaks: ["2.8.2/signature-variants-accepted"],
  engine: refusing(
    (signed) => keysOf(signed).some((key) => key.$kind === "Secp256k1Ecdsa"),
    () => new LedgerError(400, "invalid_input", "Unsupported public key scheme: secp256k1_ecdsa"),
  ),
};

/** Whether the fee payer's own signature verifies (the only one this node checks of a fee-payer transaction). */
function feePayerSignatureVerifies(signed: SignedTransaction, { domain }: FaultContext): boolean {
  if (signed.authenticator.$kind !== "FeePayer") return false;
  const { secondary_signer_addresses, fee_payer_address, fee_payer_signer } = signed.authenticator.FeePayer;
  if (fee_payer_signer.$kind !== "Ed25519") return false;
  const message = signingMessageWithData(
    { MultiAgentWithFeePayer: { raw_txn: signed.raw_txn, secondary_signer_addresses, fee_payer_address } },
    domain,
  );
  return ed25519Verify(fee_payer_signer.Ed25519.signature, message, fee_payer_signer.Ed25519.public_key);
}

const feePayerSecondaryUnverified: Fault = {
  name: "fee-payer-secondary-unverified",
  area: "signatures",
  description: "of a fee-payer transaction verifies the fee payer's signature only, not the sender's or the secondary signers'",
  breaks: ["2.8.2/tampered-variants-refused"],
  engine: overlookingSignatures(feePayerSignatureVerifies),
};

/** The transaction with each multi key cut down to its first signature and a threshold of 1. */
function firstSignatureOnly(signed: SignedTransaction): SignedTransaction | undefined {
  if (signed.authenticator.$kind !== "SingleSender" || signed.authenticator.SingleSender.sender.$kind !== "MultiKey") return undefined;
  const multiKey = signed.authenticator.SingleSender.sender.MultiKey;
  const first = multiKey.signatures[0];
  const index = multiKey.signatures_bitmap.findIndex((byte) => byte !== 0);
  if (first === undefined || index < 0) return undefined;
  const bitmap = new Uint8Array(multiKey.signatures_bitmap.length);
  bitmap[index] = highestBit(multiKey.signatures_bitmap[index] as number);
  const sender: AccountAuthenticator = {
    $kind: "MultiKey",
    MultiKey: {
      public_keys: { ...multiKey.public_keys, signatures_required: 1 },
      signatures: [first],
      signatures_bitmap: bitmap,
    },
  };
  return { ...signed, authenticator: { $kind: "SingleSender", SingleSender: { sender } } };
}

/** The most significant set bit of a byte (bitmaps are MSB-first: the first index set). */
function highestBit(byte: number): number {
  for (let mask = 0x80; mask > 0; mask >>= 1) if (byte & mask) return mask;
  return 0;
}

const multiKeyThresholdIgnored: Fault = {
  name: "multi-key-threshold-ignored",
  area: "signatures",
  description: "takes a multi-key signature when its first signature verifies, ignoring the threshold and the others",
  breaks: ["2.8.2/tampered-variants-refused"],
  engine: overlookingSignatures((signed, { domain }) => {
    const cut = firstSignatureOnly(signed);
    return cut !== undefined && verifyTransactionAuthenticator(cut, domain).ok;
  }),
};

const webAuthnUnverified: Fault = {
  name: "web-authn-unverified",
  area: "signatures",
  description: "takes a web_authn signature without verifying its assertion",
  breaks: ["2.8.2/tampered-variants-refused", "2.8.2/unverifiable-signatures-refused"],
  engine: overlookingSignatures((signed) =>
    accountAuthenticators(signed)
      .flatMap(signatures)
      .some((signature) => signature.$kind === "WebAuthn"),
  ),
};

const keyless500: Fault = {
  name: "keyless-500",
  area: "signatures",
  description: "answers a keyless or federated keyless signature it cannot verify with 500 internal_error",
  breaks: ["2.8.2/unverifiable-signatures-refused"],
  engine: refusing(
    (signed) => keysOf(signed).some((key) => key.$kind === "Keyless" || key.$kind === "FederatedKeyless"),
    () => new LedgerError(500, "internal_error", "Keyless verification failed: no JWK for the issuer"),
  ),
};

const noAccountSignatureAccepted: Fault = {
  name: "no-account-signature-accepted",
  area: "signatures",
  description: "takes a no_account_signature as nothing to verify, as a simulation would, and admits the transaction",
  breaks: ["2.8.2/unverifiable-signatures-refused"],
  engine: overlookingSignatures((signed) => accountAuthenticators(signed).some((auth) => auth.$kind === "NoAccountAuthenticator")),
};

export const SIGNATURE_FAULTS: readonly Fault[] = [
  noAccountSignatureAccepted,
  multiAgentRefused,
  secp256k1Refused,
  feePayerSecondaryUnverified,
  multiKeyThresholdIgnored,
  webAuthnUnverified,
  keyless500,
];
