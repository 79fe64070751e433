// Readers for members of JSON request bodies. Each names the member (a path like
// "payload.arguments[2]") in the CodecError it throws.
import { parseAddress } from "./address.ts";
import { isIdentifier } from "./bcs-primitives.ts";
import { asCodecError, CodecError } from "./errors.ts";
import { fromHex } from "./hex.ts";

export type JsonObject = Record<string, unknown>;

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function readObject(value: unknown, path: string): JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new CodecError(`${path}: expected an object, got ${describe(value)}`);
  return value as JsonObject;
}

export function readArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new CodecError(`${path}: expected an array, got ${describe(value)}`);
  return value;
}

export function readString(value: unknown, path: string): string {
  if (typeof value !== "string") throw new CodecError(`${path}: expected a string, got ${describe(value)}`);
  return value;
}

/** A u64 carried as a decimal string (§2.1). */
export function readU64(value: unknown, path: string): bigint {
  if (typeof value !== "string" || !/^[0-9]+$/.test(value))
    throw new CodecError(`${path}: expected a u64 decimal string, got ${describe(value)}`);
  const n = BigInt(value);
  if (n > 0xffff_ffff_ffff_ffffn) throw new CodecError(`${path}: ${value} is above 2^64-1`);
  return n;
}

/** A u8 carried as a JSON number (thresholds, indexes). */
export function readU8(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 255)
    throw new CodecError(`${path}: expected an integer in 0..255, got ${describe(value)}`);
  return value;
}

/** HexEncodedBytes; with `lengths`, the byte length must be one of them. */
export function readHex(value: unknown, path: string, lengths?: readonly number[]): Uint8Array {
  const text = readString(value, path);
  const bytes = asCodecError(path, () => fromHex(text));
  if (lengths && !lengths.includes(bytes.length))
    throw new CodecError(`${path}: expected ${lengths.join(" or ")} bytes, got ${bytes.length}`);
  return bytes;
}

export function readAddress(value: unknown, path: string): Uint8Array {
  const text = readString(value, path);
  return asCodecError(path, () => parseAddress(text));
}

/** "0x1::module::name" (entry function ids, function infos) to its three parts. */
export function readQualifiedName(value: unknown, path: string): { address: Uint8Array; module: string; name: string } {
  const text = readString(value, path);
  const parts = text.split("::");
  if (parts.length !== 3) throw new CodecError(`${path}: expected address::module::name, got ${describe(text)}`);
  const [address = "", module = "", name = ""] = parts;
  if (!isIdentifier(module) || !isIdentifier(name)) throw new CodecError(`${path}: invalid module or function name in ${describe(text)}`);
  return { address: readAddress(address, path), module, name };
}
