// MoveType strings (§2.1) to type tags and back: blanks ignored, garbage rejected, BCS as the SDK's.
import * as sdk from "@aptos-labs/ts-sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CodecError, decodeBcs, encodeBcs, formatTypeTag, MAX_TYPE_DEPTH, parseTypeTag, toHex, TypeTag } from "../../src/codec/index.ts";

const identifier = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,6}$/);
const address = fc.oneof(
  fc.integer({ min: 0, max: 0x20 }).map((n) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n : 0))),
  fc.uint8Array({ minLength: 32, maxLength: 32 }),
);
const PRIMITIVES = ["Bool", "U8", "U16", "U32", "U64", "U128", "U256", "Address", "Signer"] as const;

const { typeTag } = fc.letrec<{ typeTag: TypeTag }>((tie) => ({
  typeTag: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...PRIMITIVES).map((kind) => ({ [kind]: true, $kind: kind }) as TypeTag),
    tie("typeTag").map((inner) => ({ Vector: inner, $kind: "Vector" }) as TypeTag),
    fc
      .record({ address, module: identifier, name: identifier, type_args: fc.array(tie("typeTag"), { maxLength: 3 }) })
      .map((struct) => ({ Struct: struct, $kind: "Struct" }) as TypeTag),
  ),
}));

/** Formats with arbitrary blanks between tokens. */
function formatWithBlanks(tag: TypeTag, blank: () => string): string {
  if (tag.$kind === "Vector") return `vector${blank()}<${blank()}${formatWithBlanks(tag.Vector, blank)}${blank()}>`;
  if (tag.$kind !== "Struct") return formatTypeTag(tag);
  const s = tag.Struct;
  const args = s.type_args.length ? `${blank()}<${s.type_args.map((t) => blank() + formatWithBlanks(t, blank) + blank()).join(",")}>` : "";
  const head = formatTypeTag({ Struct: { ...s, type_args: [] }, $kind: "Struct" }).split("::");
  return head.join(`${blank()}::${blank()}`) + args;
}

describe("parseTypeTag / formatTypeTag", () => {
  it.each([
    "bool",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "u256",
    "address",
    "signer",
    "vector<u8>",
    "vector<vector<address>>",
    "0x1::string::String",
    "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
    "0x1::option::Option<vector<0x1::string::String>>",
    `0x${"ab".repeat(32)}::pool::Pair<u64, 0x3::token::Token, vector<bool>>`,
  ])("%s formats back to itself and has the SDK's BCS", (text) => {
    const tag = parseTypeTag(text);
    expect(formatTypeTag(tag)).toBe(text);
    expect(formatTypeTag(tag)).toBe(sdk.parseTypeTag(text).toString());
    expect(toHex(encodeBcs(TypeTag, tag))).toBe(toHex(sdk.parseTypeTag(text).bcsToBytes()));
  });

  it("round-trips any type tag through its string and its BCS, agreeing with the SDK", () => {
    fc.assert(
      fc.property(typeTag, (tag) => {
        const text = formatTypeTag(tag);
        expect(parseTypeTag(text)).toEqual(tag);
        expect(decodeBcs(TypeTag, encodeBcs(TypeTag, tag))).toEqual(tag);
        expect(toHex(encodeBcs(TypeTag, tag))).toBe(toHex(sdk.parseTypeTag(text).bcsToBytes()));
      }),
      { numRuns: 300 },
    );
  });

  it("ignores blanks between tokens", () => {
    fc.assert(
      fc.property(typeTag, fc.infiniteStream(fc.constantFrom("", " ", "  ", "\t", "\n")), (tag, blanks) => {
        const text = formatWithBlanks(tag, () => blanks.next().value);
        expect(parseTypeTag(`  ${text} `)).toEqual(tag);
      }),
      { numRuns: 200 },
    );
  });

  it("accepts long-form and upper-case addresses in struct tags", () => {
    expect(formatTypeTag(parseTypeTag(`0x${"0".repeat(63)}1::coin::Coin<0X1::a::B>`.replace("0X", "0x")))).toBe(
      "0x1::coin::Coin<0x1::a::B>",
    );
    expect(formatTypeTag(parseTypeTag("0xAB::m::S"))).toBe(`0x${"0".repeat(62)}ab::m::S`);
  });

  it.each([
    "",
    "   ",
    "u9",
    "U8",
    "bool u8",
    "vector",
    "vector<u8",
    "vector<>",
    "vector<u8>>",
    "vector<u8,u8>",
    "0x1",
    "0x1::coin",
    "0x1::coin::",
    "0x1::coin::Coin<>",
    "0x1::coin::Coin<u8,>",
    "0x1::coin::Coin u8",
    "0xg::a::B",
    "1::coin::Coin",
    "0x1::1coin::Coin",
    "0x1::_::Coin",
    "0x1:coin:Coin",
    `0x1${"0".repeat(64)}::a::B`,
    "&u8",
    "T0",
    "constructor",
    "toString",
    "u8\u0000",
    "vector<u8>;drop",
  ])("rejects %j with CodecError", (text) => {
    expect(() => parseTypeTag(text)).toThrow(CodecError);
  });

  it("rejects nesting deeper than the limit instead of exhausting the stack", () => {
    const deep = (n: number) => `${"vector<".repeat(n)}u8${">".repeat(n)}`;
    expect(formatTypeTag(parseTypeTag(deep(MAX_TYPE_DEPTH)))).toBe(deep(MAX_TYPE_DEPTH));
    expect(() => parseTypeTag(deep(MAX_TYPE_DEPTH + 1))).toThrow(CodecError);
    expect(() => parseTypeTag(deep(100_000))).toThrow(CodecError);
  });

  it("binds T0, T1, … to the given type arguments", () => {
    const generics = [parseTypeTag("u8"), parseTypeTag("0x1::a::B")];
    expect(formatTypeTag(parseTypeTag("vector<T1>", { generics }))).toBe("vector<0x1::a::B>");
    expect(formatTypeTag(parseTypeTag("0x1::option::Option<T0>", { generics }))).toBe("0x1::option::Option<u8>");
    expect(() => parseTypeTag("T2", { generics })).toThrow(CodecError);
  });
});
