// Parsing of path and query values (the family's convention): a malformed value is 400 web_framework_error, before
// the engine is asked anything.

import { isIdentifier, parseAddress, U64_MAX } from "../../codec/index.ts";
import type { AddressBytes } from "../ledger/api.ts";
import { LedgerError } from "../ledger/api.ts";
import { badRequest } from "./errors.ts";
import type { AddressForms, IntegerForms, LimitZero } from "./profile.ts";

const DECIMAL = /^[0-9]+$/;
/** Rust's integer `FromStr` (core::num `from_str_radix`): digits after an optional leading '+'. */
const RUST_DECIMAL = /^\+?[0-9]+$/;
const U32_MAX = 0xffff_ffffn;

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
    if (value.length !== ADDRESS_DIGITS)
      throw new Error(`without 0x an address is exactly ${ADDRESS_DIGITS} hex digits, got ${shown(value)}`);
    return parseAddress(value, { prefixOptional: true });
  } catch (error) {
    throw badRequest(`Invalid ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function moduleNameParam(value: string): string {
  if (!isIdentifier(value)) throw badRequest(`Invalid module_name ${shown(value)}: not a Move identifier`);
  return value;
}

function decimalPattern(forms: IntegerForms): RegExp {
  return forms === "rust" ? RUST_DECIMAL : DECIMAL;
}

/** A u64 (or, with `max`, a narrower unsigned) query value, written as the profile's integer forms allow. */
export function parseU64(name: string, value: string, forms: IntegerForms, max: bigint = U64_MAX): bigint {
  const type = max === U32_MAX ? "u32" : "u64";
  if (!decimalPattern(forms).test(value)) throw badRequest(`Invalid ${name} ${shown(value)}: not a ${type} decimal integer`);
  const parsed = BigInt(value);
  if (parsed > max) throw badRequest(`Invalid ${name} ${shown(value)}: above the ${type} range`);
  return parsed;
}

export function optionalU64(query: Query, name: string, forms: IntegerForms): bigint | undefined {
  const value = single(query, name);
  return value === undefined ? undefined : parseU64(name, value, forms);
}

/** A u32 query value (aptos-core's `duration_secs: Query<Option<u32>>`, api/src/basic.rs). */
export function optionalU32(query: Query, name: string, forms: IntegerForms): bigint | undefined {
  const value = single(query, name);
  return value === undefined ? undefined : parseU64(name, value, forms, U32_MAX);
}

export function optionalString(query: Query, name: string): string | undefined {
  return single(query, name);
}

/**
 * `limit` is a uint16 (§8) that must be at least 1 (the family's convention: limit=0 is 400
 * web_framework_error) unless `zero` says otherwise: "invalid_input" (400 invalid_input, aptos-core's
 * api/src/page.rs `determine_limit`) or "empty" (an empty page); the endpoint's maximum clamps it, and
 * omitting it gives that maximum, which is also the default page size.
 */
export function limitParam(query: Query, maximum: number, forms: IntegerForms, zero: LimitZero = "rejected"): number {
  const value = single(query, "limit");
  if (value === undefined) return maximum;
  if (!decimalPattern(forms).test(value)) throw badRequest(`Invalid limit ${shown(value)}: not an integer`);
  const parsed = Number(value);
  if (parsed > 0xffff) throw badRequest(`Invalid limit ${shown(value)}: outside 0..65535`);
  if (parsed === 0 && zero === "invalid_input") throw new LedgerError(400, "invalid_input", "Given limit value (0) must not be zero");
  if (parsed === 0 && zero === "rejected") throw badRequest(`Invalid limit ${shown(value)}: outside 1..65535`);
  return Math.min(parsed, maximum);
}
