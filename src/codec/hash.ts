// Hashes and signing messages (the family's convention). The domain prefix ("APTOS" in the family's nodes) is a
// parameter so a node of another family can be tested.
import { createHash } from "node:crypto";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import {
  encodeBcs,
  RawTransaction,
  RawTransactionWithData,
  type RawTransactionInput,
  type RawTransactionWithDataInput,
  type SignedTransactionInput,
  encodeSignedTransaction,
} from "./bcs.ts";

export const DEFAULT_DOMAIN = "APTOS";

/**
 * SHA3-256 (FIPS 202) through node:crypto (OpenSSL), as ed25519 is (ed25519.ts): several times faster than
 * a JavaScript Keccak for the short inputs here, and genesis hashes thousands of them.
 */
export function sha3_256(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha3-256").update(bytes).digest());
}

/** SHA3-256 of `${domain}::${typeName}`: the salt before a BCS body. */
export function domainPrefix(typeName: string, domain: string = DEFAULT_DOMAIN): Uint8Array {
  return sha3_256(utf8ToBytes(`${domain}::${typeName}`));
}

/** What a single signer signs: SHA3-256("APTOS::RawTransaction") ++ bcs(raw). */
export function signingMessage(raw: RawTransactionInput, domain: string = DEFAULT_DOMAIN): Uint8Array {
  return concatBytes(domainPrefix("RawTransaction", domain), encodeBcs(RawTransaction, raw));
}

/** What multi-agent and fee-payer signers sign: SHA3-256("APTOS::RawTransactionWithData") ++ bcs(variant). */
export function signingMessageWithData(rawWithData: RawTransactionWithDataInput, domain: string = DEFAULT_DOMAIN): Uint8Array {
  return concatBytes(domainPrefix("RawTransactionWithData", domain), encodeBcs(RawTransactionWithData, rawWithData));
}

/**
 * SHA3-256(SHA3-256("APTOS::Transaction") ++ 0x00 ++ bcs(signed)): 0x00 is the UserTransaction variant
 * of aptos-core's Transaction enum. Takes the signed transaction's BCS bytes or its decoded form.
 */
export function transactionHash(signed: Uint8Array | SignedTransactionInput, domain: string = DEFAULT_DOMAIN): Uint8Array {
  const bytes = signed instanceof Uint8Array ? signed : encodeSignedTransaction(signed);
  return sha3_256(concatBytes(domainPrefix("Transaction", domain), new Uint8Array([0]), bytes));
}
