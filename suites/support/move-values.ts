// JSON values of Move types (the forms of docs/architecture.md and the family's convention: u8/u16/u32 numbers,
// u64/u128/u256 decimal strings, addresses, vector<u8> as hex, other vectors as arrays,
// 0x1::string::String as a string) and values that are none of the type, as fast-check arbitraries.

import fc from "fast-check";
import { bytesEqual, formatAddress, parseTypeTag, toHex, type TypeTag } from "../../src/codec/index.ts";
import { FRAMEWORK } from "./table-values.ts";

const MAX_DEPTH = 3;

/** Values of the type, or undefined for a type without a generator here (structs other than String). */
export function valuesOf(typeText: string): fc.Arbitrary<unknown> | undefined {
  return values(parseTypeTag(typeText), 0);
}

/** Values that are not of the type in any JSON form a lenient node might also accept. */
export function wrongValuesOf(typeText: string): fc.Arbitrary<unknown> | undefined {
  return wrongValues(parseTypeTag(typeText));
}

function values(tag: TypeTag, depth: number): fc.Arbitrary<unknown> | undefined {
  switch (tag.$kind) {
    case "Bool":
      return fc.boolean();
    case "U8":
      return fc.integer({ min: 0, max: 0xff });
    case "U16":
      return fc.integer({ min: 0, max: 0xffff });
    case "U32":
      return fc.integer({ min: 0, max: 0xffff_ffff });
    case "U64":
      return decimalUpTo(64);
    case "U128":
      return decimalUpTo(128);
    case "U256":
      return decimalUpTo(256);
    case "Address":
      return fc.oneof(
        fc.integer({ min: 0, max: 15 }).map((n) => `0x${n.toString(16)}`),
        fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => formatAddress(b)),
      );
    case "Vector": {
      if (tag.Vector.$kind === "U8") return fc.uint8Array({ maxLength: 32 }).map((b) => toHex(b));
      if (depth >= MAX_DEPTH) return undefined;
      const element = values(tag.Vector, depth + 1);
      return element === undefined ? undefined : fc.array(element, { maxLength: 4 });
    }
    case "Struct": {
      const s = tag.Struct;
      return bytesEqual(s.address, FRAMEWORK) && s.module === "string" && s.name === "String" ? fc.string({ maxLength: 20 }) : undefined;
    }
    default:
      return undefined;
  }
}

/** Small values most of the time (where a table's keys are), any value of the width otherwise. */
function decimalUpTo(bits: number): fc.Arbitrary<string> {
  return fc.oneof(fc.bigInt({ min: 0n, max: 100n }), fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n })).map(String);
}

const letters = fc.string({ unit: fc.constantFrom(..."ghijklmnopqrstuvwxyz"), minLength: 1, maxLength: 8 });
const objects = fc.oneof(fc.constant({}), fc.record({ value: fc.integer() }));
const nulls = fc.constant(null);

function wrongValues(tag: TypeTag): fc.Arbitrary<unknown> | undefined {
  switch (tag.$kind) {
    case "Bool":
      return fc.oneof(fc.integer(), letters, objects, fc.array(fc.boolean(), { minLength: 1, maxLength: 2 }), nulls);
    case "U8":
    case "U16":
    case "U32": {
      const bits = tag.$kind === "U8" ? 8 : tag.$kind === "U16" ? 16 : 32;
      return fc.oneof(
        fc.integer({ min: 2 ** bits, max: 2 ** bits + 1000 }),
        fc.integer({ min: -1000, max: -1 }),
        fc.integer({ min: 0, max: 100 }).map((n) => n + 0.5),
        fc.boolean(),
        letters,
        objects,
        nulls,
      );
    }
    case "U64":
    case "U128":
    case "U256": {
      const bits = BigInt(tag.$kind.slice(1));
      return fc.oneof(
        fc.bigInt({ min: 1n << bits, max: (1n << bits) + 1000n }).map(String),
        fc.bigInt({ min: 1n, max: 1000n }).map((n) => `-${n}`),
        fc.integer({ min: 0, max: 100 }).map((n) => `${n}.5`),
        fc.boolean(),
        letters,
        objects,
        nulls,
      );
    }
    case "Address":
      return fc.oneof(
        letters.map((s) => `0x${s}`),
        fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 65, maxLength: 70 }).map((s) => `0x${s}`),
        fc.boolean(),
        objects,
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 3 }),
        nulls,
      );
    case "Vector":
      return tag.Vector.$kind === "U8"
        ? fc.oneof(
            letters.map((s) => `0x${s}`),
            fc.boolean(),
            objects,
            nulls,
          )
        : fc.oneof(fc.boolean(), objects, fc.integer(), nulls);
    case "Struct":
      return values(tag, 0) === undefined
        ? undefined
        : fc.oneof(fc.integer(), fc.boolean(), objects, fc.array(fc.integer(), { minLength: 1, maxLength: 2 }), nulls);
    default:
      return undefined;
  }
}
