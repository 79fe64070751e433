// HexEncodedBytes and Address forms (§2.1, AIP-40), cross-checked with the Aptos SDK.
import * as sdk from "@aptos-labs/ts-sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CodecError, formatAddress, fromHex, parseAddress, toHex } from "../../src/codec/index.ts";

describe("toHex / fromHex", () => {
  it("round-trip any bytes, zeros never trimmed", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(fromHex(toHex(bytes))).toEqual(bytes);
      }),
    );
    expect(toHex(new Uint8Array([0, 0, 1]))).toBe("0x000001");
    expect(toHex(new Uint8Array())).toBe("0x");
  });

  it("accept upper and lower case digits and the empty string of bytes", () => {
    expect(fromHex("0xABcd")).toEqual(new Uint8Array([0xab, 0xcd]));
    expect(fromHex("0x")).toEqual(new Uint8Array());
  });

  it.each([
    ["no prefix", "abcd"],
    ["upper-case prefix", "0XABCD"],
    ["odd length", "0xabc"],
    ["non-hex digit", "0xzz"],
    ["blank inside", "0xab cd"],
    ["empty", ""],
  ])("reject %s with CodecError", (_, text) => {
    expect(() => fromHex(text)).toThrow(CodecError);
  });
});

describe("parseAddress", () => {
  it("pads short forms to 32 bytes", () => {
    expect(toHex(parseAddress("0x1"))).toBe(`0x${"0".repeat(63)}1`);
    expect(toHex(parseAddress("0x0"))).toBe(`0x${"0".repeat(64)}`);
    expect(toHex(parseAddress(`0x${"f".repeat(64)}`))).toBe(`0x${"f".repeat(64)}`);
  });

  it("needs the 0x prefix unless told it is optional (path parameters)", () => {
    expect(() => parseAddress("1")).toThrow(CodecError);
    expect(toHex(parseAddress("1", { prefixOptional: true }))).toBe(toHex(parseAddress("0x1")));
    expect(toHex(parseAddress("0xAB", { prefixOptional: true }))).toBe(toHex(parseAddress("0xab")));
  });

  it.each([
    ["empty", ""],
    ["only the prefix", "0x"],
    ["65 digits", `0x1${"0".repeat(64)}`],
    ["non-hex digit", "0x12g4"],
    ["blank", "0x 1"],
    ["sign", "-0x1"],
  ])("rejects %s with CodecError", (_, text) => {
    expect(() => parseAddress(text, { prefixOptional: true })).toThrow(CodecError);
  });

  it("agrees with the SDK on every accepted long form", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const long = sdk.AccountAddress.from(bytes).toStringLong();
        expect(parseAddress(long)).toEqual(bytes);
      }),
    );
  });
});

describe("formatAddress (AIP-40)", () => {
  it("writes special addresses 0x0..0xf short and every other one in 64 digits, as the SDK does", () => {
    for (let last = 0; last < 0x20; last++) {
      const bytes = new Uint8Array(32);
      bytes[31] = last;
      expect(formatAddress(bytes)).toBe(sdk.AccountAddress.from(bytes).toString());
    }
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        expect(formatAddress(bytes)).toBe(sdk.AccountAddress.from(bytes).toString());
        expect(parseAddress(formatAddress(bytes))).toEqual(bytes);
      }),
    );
  });

  it("keeps leading zeros of non-special addresses", () => {
    expect(formatAddress(parseAddress("0x10"))).toBe(`0x${"0".repeat(62)}10`);
  });

  it("rejects anything but 32 bytes", () => {
    expect(() => formatAddress(new Uint8Array(31))).toThrow(CodecError);
  });
});
