import { bytesToHex } from "@noble/hashes/utils.js";
import { CodecError } from "./errors.ts";

const HEX_BODY = /^[0-9a-fA-F]*$/;

/** Lowercase hex with a 0x prefix; every byte as two digits (zeros are never trimmed). */
export function toHex(bytes: Uint8Array): string {
  return `0x${bytesToHex(bytes)}`;
}

/** Strict HexEncodedBytes (§2.1): a 0x prefix, then an even number of hex digits ("0x" is empty). */
export function fromHex(text: string): Uint8Array {
  if (typeof text !== "string") throw new CodecError("hex: expected a string");
  if (!text.startsWith("0x")) throw new CodecError(`hex: missing 0x prefix in ${quote(text)}`);
  const body = text.slice(2);
  if (!HEX_BODY.test(body)) throw new CodecError(`hex: non-hex digit in ${quote(text)}`);
  if (body.length % 2 !== 0) throw new CodecError(`hex: odd number of digits in ${quote(text)}`);
  const bytes = new Uint8Array(body.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(body.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** For error messages: the value cut to a readable length. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}
