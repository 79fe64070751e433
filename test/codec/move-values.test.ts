// Move values between their JSON form (docs/architecture.md) and BCS, against the Aptos SDK's
// serializers for each type; integer ranges and malformed JSON are rejected with CodecError.
import * as sdk from "@aptos-labs/ts-sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CodecError, decodeMoveValue, encodeMoveValue, parseTypeTag, toHex, type StructResolver } from "../../src/codec/index.ts";

const ADDRESS = `0x${"1f".repeat(32)}`;

/** [type, JSON form, the SDK's value of that type]. */
const CASES: [string, unknown, sdk.Serializable][] = [
  ["bool", true, new sdk.Bool(true)],
  ["bool", false, new sdk.Bool(false)],
  ["u8", 255, new sdk.U8(255)],
  ["u16", 65535, new sdk.U16(65535)],
  ["u32", 4294967295, new sdk.U32(4294967295)],
  ["u64", "18446744073709551615", new sdk.U64(2n ** 64n - 1n)],
  ["u64", "0", new sdk.U64(0n)],
  ["u128", "340282366920938463463374607431768211455", new sdk.U128(2n ** 128n - 1n)],
  ["u256", (2n ** 256n - 1n).toString(), new sdk.U256(2n ** 256n - 1n)],
  ["address", "0x1", sdk.AccountAddress.ONE],
  ["address", ADDRESS, sdk.AccountAddress.from(ADDRESS)],
  ["vector<u8>", "0x00ff10", sdk.MoveVector.U8([0, 255, 16])],
  ["vector<u8>", "0x", sdk.MoveVector.U8([])],
  ["vector<u64>", ["1", "2"], sdk.MoveVector.U64([1n, 2n])],
  ["vector<bool>", [true, false], sdk.MoveVector.Bool([true, false])],
  ["vector<address>", ["0x1", ADDRESS], new sdk.MoveVector([sdk.AccountAddress.ONE, sdk.AccountAddress.from(ADDRESS)])],
  ["vector<vector<u8>>", ["0x01", "0x"], new sdk.MoveVector([sdk.MoveVector.U8([1]), sdk.MoveVector.U8([])])],
  ["0x1::string::String", "héllo ✓", new sdk.MoveString("héllo ✓")],
  ["vector<0x1::string::String>", ["a", ""], sdk.MoveVector.MoveString(["a", ""])],
  ["0x1::option::Option<u64>", { vec: ["5"] }, new sdk.MoveOption(new sdk.U64(5n))],
  ["0x1::option::Option<u64>", { vec: [] }, new sdk.MoveOption<sdk.U64>()],
  ["0x1::option::Option<0x1::string::String>", { vec: ["x"] }, new sdk.MoveOption(new sdk.MoveString("x"))],
  ["0x1::object::Object<0x1::fungible_asset::Metadata>", { inner: "0xa" }, sdk.AccountAddress.from("0xa")],
];

describe("encodeMoveValue / decodeMoveValue", () => {
  it.each(CASES)("%s %j encodes as the SDK's value and decodes back", (type, json, theirs) => {
    const tag = parseTypeTag(type);
    const bytes = encodeMoveValue(tag, json);
    expect(toHex(bytes)).toBe(toHex(theirs.bcsToBytes()));
    expect(decodeMoveValue(tag, bytes)).toEqual(json);
  });

  it("accepts a bare address for Object<T> and writes it back as {inner}", () => {
    const tag = parseTypeTag("0x1::object::Object<0x1::a::B>");
    expect(decodeMoveValue(tag, encodeMoveValue(tag, "0xa"))).toEqual({ inner: "0xa" });
  });

  it("round-trips every u64 and agrees with the SDK", () => {
    const tag = parseTypeTag("u64");
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (n) => {
        const bytes = encodeMoveValue(tag, n.toString());
        expect(toHex(bytes)).toBe(toHex(new sdk.U64(n).bcsToBytes()));
        expect(decodeMoveValue(tag, bytes)).toBe(n.toString());
      }),
    );
  });

  it("encodes structs field by field in the order the resolver gives, with generic fields bound", () => {
    const resolve: StructResolver = (tag) =>
      tag.name === "Pair"
        ? [
            { name: "left", type: "T0" },
            { name: "right", type: "vector<T1>" },
            { name: "label", type: "0x1::string::String" },
          ]
        : undefined;
    const tag = parseTypeTag("0xab::pairs::Pair<u8, address>");
    const json = { left: 7, right: ["0x1"], label: "p" };
    const serializer = new sdk.Serializer();
    new sdk.U8(7).serialize(serializer);
    new sdk.MoveVector([sdk.AccountAddress.ONE]).serialize(serializer);
    new sdk.MoveString("p").serialize(serializer);
    const bytes = encodeMoveValue(tag, json, resolve);
    expect(toHex(bytes)).toBe(toHex(serializer.toUint8Array()));
    expect(decodeMoveValue(tag, bytes, resolve)).toEqual(json);
    expect(() => encodeMoveValue(tag, { ...json, extra: 1 }, resolve)).toThrow(/unknown field/);
    expect(() => encodeMoveValue(tag, { left: 7, right: [] }, resolve)).toThrow(/missing field/);
    expect(() => encodeMoveValue(parseTypeTag("0xab::pairs::Other"), {}, resolve)).toThrow(/unknown struct/);
  });

  it.each([
    ["u8", 256],
    ["u8", -1],
    ["u8", 1.5],
    ["u8", "1"],
    ["u16", 65536],
    ["u32", 2 ** 32],
    ["u64", "18446744073709551616"],
    ["u64", "-1"],
    ["u64", "1.5"],
    ["u64", "1e3"],
    ["u64", " 1"],
    ["u64", "+1"],
    ["u64", ""],
    ["u64", 5],
    ["u128", (2n ** 128n).toString()],
    ["u256", (2n ** 256n).toString()],
    ["bool", "true"],
    ["bool", 1],
    ["address", "1"],
    ["address", "0xzz"],
    ["address", 1],
    ["vector<u8>", [1, 2]],
    ["vector<u8>", "0x1"],
    ["vector<u64>", "1"],
    ["vector<u64>", ["1", 2]],
    ["0x1::string::String", 5],
    ["0x1::option::Option<u64>", { vec: ["1", "2"] }],
    ["0x1::option::Option<u64>", ["1"]],
    ["0x1::option::Option<u64>", null],
    ["0x1::object::Object<0x1::a::B>", { inner: 5 }],
    ["signer", "0x1"],
  ])("rejects %s %j with CodecError", (type, json) => {
    expect(() => encodeMoveValue(parseTypeTag(type), json)).toThrow(CodecError);
  });

  it("rejects malformed BCS: truncated, trailing bytes, bad bool, invalid UTF-8, oversized option", () => {
    expect(() => decodeMoveValue(parseTypeTag("u64"), new Uint8Array(7))).toThrow(CodecError);
    expect(() => decodeMoveValue(parseTypeTag("u8"), new Uint8Array(2))).toThrow(CodecError);
    expect(() => decodeMoveValue(parseTypeTag("bool"), new Uint8Array([2]))).toThrow(CodecError);
    expect(() => decodeMoveValue(parseTypeTag("0x1::string::String"), new Uint8Array([1, 0xff]))).toThrow(CodecError);
    expect(() => decodeMoveValue(parseTypeTag("0x1::option::Option<u8>"), new Uint8Array([2, 1, 2]))).toThrow(CodecError);
    expect(() => decodeMoveValue(parseTypeTag("vector<u8>"), new Uint8Array([5, 1]))).toThrow(CodecError);
  });
});
