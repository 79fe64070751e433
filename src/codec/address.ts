import { bytesToHex } from "@noble/hashes/utils.js";
import { CodecError } from "./errors.ts";
import { quote } from "./hex.ts";

export const ADDRESS_LENGTH = 32;

const HEX_DIGITS = /^[0-9a-fA-F]+$/;

/**
 * An Address (§2.1): up to 64 hex digits, leading zeros optional, with a 0x prefix (optional only where
 * `prefixOptional`, as in path parameters). Returns the 32 bytes.
 */
export function parseAddress(text: string, options: { prefixOptional?: boolean } = {}): Uint8Array {
  if (typeof text !== "string") throw new CodecError("address: expected a string");
  let digits = text;
  if (text.startsWith("0x")) digits = text.slice(2);
  else if (!options.prefixOptional) throw new CodecError(`address: missing 0x prefix in ${quote(text)}`);
  if (digits.length === 0) throw new CodecError(`address: no hex digits in ${quote(text)}`);
  if (digits.length > 2 * ADDRESS_LENGTH) throw new CodecError(`address: over 64 hex digits in ${quote(text)}`);
  if (!HEX_DIGITS.test(digits)) throw new CodecError(`address: non-hex digit in ${quote(text)}`);
  const padded = digits.padStart(2 * ADDRESS_LENGTH, "0");
  const bytes = new Uint8Array(ADDRESS_LENGTH);
  for (let i = 0; i < ADDRESS_LENGTH; i++) bytes[i] = Number.parseInt(padded.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** AIP-40: the special addresses 0x0..0xf in short form (0x1), every other one as 0x + 64 digits. */
export function formatAddress(bytes: Uint8Array): string {
  if (bytes.length !== ADDRESS_LENGTH) throw new CodecError(`address: expected 32 bytes, got ${bytes.length}`);
  const last = bytes[ADDRESS_LENGTH - 1] ?? 0;
  if (last < 0x10 && bytes.subarray(0, ADDRESS_LENGTH - 1).every((b) => b === 0)) return `0x${last.toString(16)}`;
  return `0x${bytesToHex(bytes)}`;
}

/** Byte-wise equality, for addresses, keys and hashes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
