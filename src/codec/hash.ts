// Hashes and signing messages (the family's convention). The domain prefix ("APTOS" in the family's nodes) is a
// parameter so a node of another family can be tested.
import { sha3_256 as nobleSha3 } from "@noble/hashes/sha3.js";
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

export function sha3_256(bytes: Uint8Array): Uint8Array {
  return nobleSha3(bytes);
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
export function signingMessageWithData(
  rawWithData: RawTransactionWithDataInput,
  domain: string = DEFAULT_DOMAIN,
): Uint8Array {
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
