// A single-key ed25519 account, for tests, the conformance harness and the node's genesis: derives
// its key, authentication key and address, and signs transactions of every ed25519 shape.
import * as ed from "@noble/ed25519";
import type { AccountAuthenticatorInput } from "./bcs-auth.ts";
import {
  decodeSignedTransaction,
  encodeSignedTransaction,
  type RawTransactionInput,
  type SignedTransaction,
  type SignedTransactionInput,
} from "./bcs.ts";
import { CodecError } from "./errors.ts";
import { DEFAULT_DOMAIN, signingMessage, signingMessageWithData } from "./hash.ts";
import { fromHex } from "./hex.ts";
import { ed25519PublicKey, ed25519Sign } from "./ed25519.ts";
import { ed25519AuthenticationKey } from "./keys.ts";

/** AIP-80 private key prefix, accepted by fromHex. */
const AIP80_PREFIX = "ed25519-priv-";

export class Ed25519Account {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly authenticationKey: Uint8Array;
  /** A fresh account's address is its authentication key. */
  readonly address: Uint8Array;

  constructor(privateKey: Uint8Array) {
    this.privateKey = new Uint8Array(privateKey);
    this.publicKey = ed25519PublicKey(this.privateKey);
    this.authenticationKey = ed25519AuthenticationKey(this.publicKey);
    this.address = this.authenticationKey;
  }

  /** From "0x" + 64 hex digits, optionally behind the AIP-80 "ed25519-priv-" prefix. */
  static fromHex(text: string): Ed25519Account {
    const bytes = fromHex(text.startsWith(AIP80_PREFIX) ? text.slice(AIP80_PREFIX.length) : text);
    if (bytes.length !== 32) throw new CodecError(`ed25519 private key: expected 32 bytes, got ${bytes.length}`);
    return new Ed25519Account(bytes);
  }

  static generate(): Ed25519Account {
    return new Ed25519Account(ed.utils.randomSecretKey());
  }

  sign(message: Uint8Array): Uint8Array {
    return ed25519Sign(message, this.privateKey);
  }

  /** An Ed25519 account authenticator over `message`. */
  authenticator(message: Uint8Array): AccountAuthenticatorInput {
    return { Ed25519: { public_key: this.publicKey, signature: this.sign(message) } };
  }

  /** A single-signer transaction with the Ed25519 transaction authenticator. */
  signTransaction(raw: RawTransactionInput, domain: string = DEFAULT_DOMAIN): SignedTransaction {
    const signature = this.sign(signingMessage(raw, domain));
    return normalize({ raw_txn: raw, authenticator: { Ed25519: { public_key: this.publicKey, signature } } });
  }

  /** The same signature wrapped as SingleSender(SingleKey(ed25519)), the SDK's "single key" account form. */
  signTransactionAsSingleKey(raw: RawTransactionInput, domain: string = DEFAULT_DOMAIN): SignedTransaction {
    const signature = this.sign(signingMessage(raw, domain));
    return normalize({
      raw_txn: raw,
      authenticator: {
        SingleSender: { sender: { SingleKey: { public_key: { Ed25519: this.publicKey }, signature: { Ed25519: signature } } } },
      },
    });
  }
}

/** A multi-agent transaction: everyone signs RawTransactionWithData::MultiAgent. */
export function signMultiAgentTransaction(
  raw: RawTransactionInput,
  sender: Ed25519Account,
  secondaries: readonly Ed25519Account[],
  domain: string = DEFAULT_DOMAIN,
): SignedTransaction {
  const addresses = secondaries.map((s) => s.address);
  const message = signingMessageWithData({ MultiAgent: { raw_txn: raw, secondary_signer_addresses: addresses } }, domain);
  return normalize({
    raw_txn: raw,
    authenticator: {
      MultiAgent: {
        sender: sender.authenticator(message),
        secondary_signer_addresses: addresses,
        secondary_signers: secondaries.map((s) => s.authenticator(message)),
      },
    },
  });
}

/** A fee-payer transaction: everyone signs RawTransactionWithData::MultiAgentWithFeePayer with the fee payer's address set. */
export function signFeePayerTransaction(
  raw: RawTransactionInput,
  sender: Ed25519Account,
  secondaries: readonly Ed25519Account[],
  feePayer: Ed25519Account,
  domain: string = DEFAULT_DOMAIN,
): SignedTransaction {
  const addresses = secondaries.map((s) => s.address);
  const message = signingMessageWithData(
    { MultiAgentWithFeePayer: { raw_txn: raw, secondary_signer_addresses: addresses, fee_payer_address: feePayer.address } },
    domain,
  );
  return normalize({
    raw_txn: raw,
    authenticator: {
      FeePayer: {
        sender: sender.authenticator(message),
        secondary_signer_addresses: addresses,
        secondary_signers: secondaries.map((s) => s.authenticator(message)),
        fee_payer_address: feePayer.address,
        fee_payer_signer: feePayer.authenticator(message),
      },
    },
  });
}

/** Input form to decoded form (with `$kind` tags and bigint integers), checking it encodes. */
function normalize(signed: SignedTransactionInput): SignedTransaction {
  return decodeSignedTransaction(encodeSignedTransaction(signed));
}
