// Move values between their JSON form (docs/architecture.md) and BCS. For each type tag we build a
// @mysten/bcs schema whose input and output are the JSON form, so encoding and decoding share one
// description. Integer ranges, hex, addresses and UTF-8 are checked; every rejection is a CodecError.
import { bcs, type BcsType } from "@mysten/bcs";
import { bytesEqual, formatAddress, parseAddress } from "./address.ts";
import { decodeExact, encodeWith } from "./bcs-primitives.ts";
import type { StructTag, TypeTag } from "./bcs.ts";
import { CodecError } from "./errors.ts";
import { fromHex, toHex } from "./hex.ts";
import { formatStructTag, MAX_TYPE_DEPTH, parseTypeTag } from "./type-tag.ts";

/** Field list of a struct (field types may use T0, T1, … for the struct's type arguments). */
export type StructResolver = (tag: StructTag) => readonly { name: string; type: TypeTag | string }[] | undefined;

type JsonSchema = BcsType<unknown, unknown>;

const FRAMEWORK = parseAddress("0x1");
const isFramework = (tag: StructTag, module: string, name: string) =>
  bytesEqual(tag.address, FRAMEWORK) && tag.module === module && tag.name === name;

function smallUint(name: string, bits: 8 | 16 | 32): JsonSchema {
  const base = bits === 8 ? bcs.u8() : bits === 16 ? bcs.u16() : bcs.u32();
  return base.transform({
    input: (value: unknown) => {
      if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value >= 2 ** bits)
        throw new CodecError(`${name}: expected an integer in 0..${2 ** bits - 1}, got ${JSON.stringify(value)}`);
      return value;
    },
    output: (value: number): unknown => value,
  });
}

function bigUint(name: string, bits: 64 | 128 | 256): JsonSchema {
  const base = bits === 64 ? bcs.u64() : bits === 128 ? bcs.u128() : bcs.u256();
  return base.transform({
    input: (value: unknown) => {
      if (typeof value !== "string" || !/^[0-9]+$/.test(value))
        throw new CodecError(`${name}: expected a decimal string, got ${JSON.stringify(value)}`);
      const n = BigInt(value);
      if (n >= 2n ** BigInt(bits)) throw new CodecError(`${name}: ${value} is above 2^${bits}-1`);
      return n;
    },
    output: (value: string): unknown => BigInt(value).toString(),
  });
}

// The integer schemas, built once like the others below: building a schema per value is costly, and
// genesis encodes thousands of u64s.
const u8Json = smallUint("u8", 8);
const u16Json = smallUint("u16", 16);
const u32Json = smallUint("u32", 32);
const u64Json = bigUint("u64", 64);
const u128Json = bigUint("u128", 128);
const u256Json = bigUint("u256", 256);

const boolJson: JsonSchema = bcs.bool().transform({
  input: (value: unknown) => {
    if (typeof value !== "boolean") throw new CodecError(`bool: expected true or false, got ${JSON.stringify(value)}`);
    return value;
  },
  output: (value: boolean): unknown => value,
});

const addressJson: JsonSchema = bcs.bytes(32).transform({
  input: (value: unknown) => {
    if (typeof value !== "string") throw new CodecError(`address: expected a string, got ${JSON.stringify(value)}`);
    return parseAddress(value);
  },
  output: (bytes: Uint8Array): unknown => formatAddress(new Uint8Array(bytes)),
});

const bytesJson: JsonSchema = bcs.byteVector().transform({
  input: (value: unknown) => {
    if (typeof value !== "string") throw new CodecError(`vector<u8>: expected a hex string, got ${JSON.stringify(value)}`);
    return fromHex(value);
  },
  output: (bytes: Uint8Array): unknown => toHex(bytes),
});

const stringJson: JsonSchema = bcs.string().transform({
  input: (value: unknown) => {
    if (typeof value !== "string") throw new CodecError(`0x1::string::String: expected a string, got ${JSON.stringify(value)}`);
    return value;
  },
  output: (value: string): unknown => value,
});

function vectorJson(element: JsonSchema, name: string): JsonSchema {
  return bcs.vector(element).transform({
    input: (value: unknown) => {
      if (!Array.isArray(value)) throw new CodecError(`${name}: expected an array, got ${JSON.stringify(value)}`);
      return value;
    },
    output: (values: unknown[]): unknown => values,
  });
}

function objectJson(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new CodecError(`${name}: expected an object, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

/** 0x1::option::Option<T> is a vector of at most one T; JSON `{vec: []}` or `{vec: [x]}`. */
function optionJson(element: JsonSchema, name: string): JsonSchema {
  return vectorJson(element, `${name}.vec`).transform({
    input: (value: unknown) => {
      const vec = objectJson(value, name).vec;
      if (!Array.isArray(vec) || vec.length > 1) throw new CodecError(`${name}: expected {vec: []} or {vec: [value]}`);
      return vec;
    },
    output: (vec: unknown): unknown => {
      if (!Array.isArray(vec) || vec.length > 1) throw new CodecError(`${name}: more than one element`);
      return { vec };
    },
  });
}

/** 0x1::object::Object<T> is an address; JSON `{inner: address}` (a bare address is accepted too). */
function objectRefJson(name: string): JsonSchema {
  return addressJson.transform({
    input: (value: unknown) => (typeof value === "string" ? value : objectJson(value, name).inner),
    output: (inner: unknown): unknown => ({ inner }),
  });
}

function structJson(tag: StructTag, resolve: StructResolver | undefined, depth: number): JsonSchema {
  const name = formatStructTag(tag);
  const fields = resolve?.(tag);
  if (!fields) throw new CodecError(`${name}: unknown struct`);
  const schemas: Record<string, JsonSchema> = {};
  for (const field of fields) {
    const fieldType = typeof field.type === "string" ? parseTypeTag(field.type, { generics: tag.type_args }) : field.type;
    schemas[field.name] = schemaFor(fieldType, resolve, depth + 1);
  }
  return bcs.struct(name, schemas).transform({
    input: (value: unknown) => {
      const object = objectJson(value, name);
      for (const key of Object.keys(object))
        if (!Object.hasOwn(schemas, key)) throw new CodecError(`${name}: unknown field ${JSON.stringify(key)}`);
      for (const key of Object.keys(schemas))
        if (!Object.hasOwn(object, key)) throw new CodecError(`${name}: missing field ${JSON.stringify(key)}`);
      return object;
    },
    output: (value: Record<string, unknown>): unknown => value,
  });
}

function schemaFor(tag: TypeTag, resolve: StructResolver | undefined, depth: number): JsonSchema {
  if (depth > MAX_TYPE_DEPTH) throw new CodecError(`type nested deeper than ${MAX_TYPE_DEPTH}`);
  switch (tag.$kind) {
    case "Bool":
      return boolJson;
    case "U8":
      return u8Json;
    case "U16":
      return u16Json;
    case "U32":
      return u32Json;
    case "U64":
      return u64Json;
    case "U128":
      return u128Json;
    case "U256":
      return u256Json;
    case "Address":
      return addressJson;
    case "Signer":
      throw new CodecError("signer values have no JSON or BCS argument form");
    case "Vector":
      return tag.Vector.$kind === "U8" ? bytesJson : vectorJson(schemaFor(tag.Vector, resolve, depth + 1), "vector");
    case "Struct": {
      const struct = tag.Struct;
      const [inner] = struct.type_args;
      if (isFramework(struct, "string", "String")) return stringJson;
      if (isFramework(struct, "option", "Option") && inner)
        return optionJson(schemaFor(inner, resolve, depth + 1), formatStructTag(struct));
      if (isFramework(struct, "object", "Object")) return objectRefJson(formatStructTag(struct));
      return structJson(struct, resolve, depth);
    }
  }
}

/** BCS bytes of the Move value whose JSON form is `json`. */
export function encodeMoveValue(tag: TypeTag, json: unknown, resolveStruct?: StructResolver): Uint8Array {
  return encodeWith(schemaFor(tag, resolveStruct, 0), json, "Move value");
}

/** JSON form of the Move value in `bytes` (exactly; trailing bytes are an error). */
export function decodeMoveValue(tag: TypeTag, bytes: Uint8Array, resolveStruct?: StructResolver): unknown {
  return decodeExact(schemaFor(tag, resolveStruct, 0), bytes, "Move value");
}
