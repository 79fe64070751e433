// Parsing of path and query values (the family's convention): a malformed value is 400 web_framework_error, before
// the engine is asked anything.

import { isIdentifier, parseAddress, U64_MAX } from "../../codec/index.ts";
import type { AddressBytes } from "../ledger/api.ts";
import { badRequest } from "./errors.ts";
import type { AddressForms } from "./profile.ts";

const DECIMAL = /^[0-9]+$/;

/** A value as an error message shows it: quoted, and cut short so a huge input does not come back whole. */
function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/** The query object fastify hands over: a repeated parameter arrives as an array. */
export type Query = Readonly<Record<string, string | string[] | undefined>>;

/** The single value of a query parameter; a repeated parameter is ambiguous and refused. */
function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw badRequest(`Query parameter ${name} is given more than once`);
  return value;
}

const ADDRESS_DIGITS = 64;

/** Address or table handle in a path, in the forms the profile takes (src/node/http/profile.ts AddressForms). */
export function addressParam(name: string, value: string, forms: AddressForms): AddressBytes {
  try {
    if (forms === "spec") return parseAddress(value, { prefixOptional: true });
    // aptos-core: 0x and up to 64 digits, "0x" alone being 0x0; without 0x, exactly 64 digits.
    if (value.startsWith("0x")) return parseAddress(`0x${value.slice(2).padStart(ADDRESS_DIGITS, "0")}`);
    if (value.length !== ADDRESS_DIGITS) throw new Error(`without 0x an address is exactly ${ADDRESS_DIGITS} hex digits, got ${shown(value)}`);
    return parseAddress(value, { prefixOptional: true });
  } catch (error) {
    throw badRequest(`Invalid ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function moduleNameParam(value: string): string {
  if (!isIdentifier(value)) throw badRequest(`Invalid module_name ${shown(value)}: not a Move identifier`);
  return value;
}

export function parseU64(name: string, value: string): bigint {
  if (!DECIMAL.test(value)) throw badRequest(`Invalid ${name} ${shown(value)}: not a u64 decimal integer`);
  const parsed = BigInt(value);
  if (parsed > U64_MAX) throw badRequest(`Invalid ${name} ${shown(value)}: above the u64 range`);
  return parsed;
}

export function optionalU64(query: Query, name: string): bigint | undefined {
  const value = single(query, name);
  return value === undefined ? undefined : parseU64(name, value);
}

export function optionalString(query: Query, name: string): string | undefined {
  return single(query, name);
}

/**
 * `limit` is a uint16 (§8) that must be at least 1 (the family's convention: limit=0 is 400) unless `zero` is
 * "empty" (an empty page); the endpoint's maximum clamps it, and omitting it gives that maximum, which
 * is also the default page size.
 */
export function limitParam(query: Query, maximum: number, zero: "rejected" | "empty" = "rejected"): number {
  const value = single(query, "limit");
  if (value === undefined) return maximum;
  if (!DECIMAL.test(value)) throw badRequest(`Invalid limit ${shown(value)}: not an integer`);
  const parsed = Number(value);
  const least = zero === "empty" ? 0 : 1;
  if (parsed < least || parsed > 0xffff) throw badRequest(`Invalid limit ${shown(value)}: outside ${least}..65535`);
  return Math.min(parsed, maximum);
}
