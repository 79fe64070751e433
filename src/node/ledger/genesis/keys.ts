// Genesis accounts and their keys, all derived from the seed: SHA3-256 of "<seed>/<label>" is each
// private key (or address, for accounts nobody signs for). The same seed always gives the same chain.

import { createECDH } from "node:crypto";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import {
  Ed25519Account,
  multiEd25519AuthenticationKey,
  multiKeyAuthenticationKey,
  sha3_256,
  singleKeyAuthenticationKey,
} from "../../../codec/index.ts";

export const FUNDED_ACCOUNTS = 5;
export const RECIPIENTS = 16;

export function derive(seed: string, label: string): Uint8Array {
  return sha3_256(utf8ToBytes(`${seed}/${label}`));
}

/** An account whose authentication key is not the legacy Ed25519 one, with the keys that sign for it. */
export interface SingleKeyEd25519Signer {
  readonly address: Uint8Array;
  readonly key: Ed25519Account;
}
export interface Secp256k1Signer {
  readonly address: Uint8Array;
  readonly privateKey: Uint8Array;
  /** Uncompressed, 65 bytes. */
  readonly publicKey: Uint8Array;
}
export interface MultiEd25519Signer {
  readonly address: Uint8Array;
  readonly keys: readonly Ed25519Account[];
  readonly threshold: number;
}
export interface MultiKeySigner {
  readonly address: Uint8Array;
  /** Ed25519 keys, in the order of the multi-key's public keys. */
  readonly keys: readonly Ed25519Account[];
  readonly signaturesRequired: number;
}

export interface GenesisKeys {
  /** Legacy Ed25519 accounts (address = authentication key), funded, never used by genesis: free to submit. */
  readonly funded: readonly Ed25519Account[];
  /** The account with the committed history. */
  readonly transactions: Ed25519Account;
  readonly singleKeyEd25519: SingleKeyEd25519Signer;
  readonly singleKeySecp256k1: Secp256k1Signer;
  readonly multiEd25519: MultiEd25519Signer;
  readonly multiKey: MultiKeySigner;
  /** Where the transactions account sends its transfers: the funded accounts and fresh addresses. */
  readonly recipients: readonly Uint8Array[];
}

export function genesisKeys(seed: string): GenesisKeys {
  const ed = (label: string) => new Ed25519Account(derive(seed, label));
  const funded = Array.from({ length: FUNDED_ACCOUNTS }, (_, i) => ed(`funded/${i}`));

  const singleKey = ed("single-key/ed25519");
  const secpPrivate = derive(seed, "single-key/secp256k1");
  // Derived by OpenSSL: noble's first secp256k1 use builds its precomputed tables, ~40 ms of every genesis
  // (on the embedded node's way to its first answer). The node verifies with noble: signatures.test.ts
  // signs for this account and has the node accept it.
  const secp = createECDH("secp256k1");
  secp.setPrivateKey(secpPrivate);
  const secpPublic = new Uint8Array(secp.getPublicKey());
  const multiEdKeys = [0, 1, 2].map((i) => ed(`multi-ed25519/${i}`));
  const multiKeyKeys = [0, 1, 2].map((i) => ed(`multi-key/${i}`));

  return {
    funded,
    transactions: ed("transactions"),
    singleKeyEd25519: { key: singleKey, address: singleKeyAuthenticationKey({ Ed25519: singleKey.publicKey }) },
    singleKeySecp256k1: {
      privateKey: secpPrivate,
      publicKey: secpPublic,
      address: singleKeyAuthenticationKey({ Secp256k1Ecdsa: secpPublic }),
    },
    multiEd25519: {
      keys: multiEdKeys,
      threshold: 2,
      address: multiEd25519AuthenticationKey({ public_keys: multiEdKeys.map((k) => k.publicKey), threshold: 2 }),
    },
    multiKey: {
      keys: multiKeyKeys,
      signaturesRequired: 2,
      address: multiKeyAuthenticationKey({
        public_keys: multiKeyKeys.map((k) => ({ Ed25519: k.publicKey })),
        signatures_required: 2,
      }),
    },
    recipients: [
      ...funded.map((a) => a.address),
      ...Array.from({ length: RECIPIENTS - FUNDED_ACCOUNTS }, (_, i) => derive(seed, `recipient/${i}`)),
    ],
  };
}
