// Strict BCS decoding (the family's convention): malformed, truncated or trailing bytes are CodecErrors; the
// deprecated ModuleBundle payload still decodes (so a node can reject it); read-response layouts.
import * as sdk from "@aptos-labs/ts-sdk";
import { describe, expect, it } from "vitest";
import {
  CodecError,
  decodeBcs,
  decodeSignedTransaction,
  encodeBcs,
  encodeSignedTransaction,
  GasEstimationBcs,
  HealthBcs,
  ModuleBytecodeBcs,
  moduleIdString,
  ModuleMapBcs,
  parseAddress,
  toHex,
  TransactionSummaryBcs,
  TransactionSummaryListBcs,
} from "../../src/codec/index.ts";
import { SDK_AUTHENTICATORS, SDK_PAYLOADS } from "./sdk-builders.ts";

const ed25519Signed = SDK_AUTHENTICATORS.ed25519!(SDK_PAYLOADS.entry_function!()).bytes;

/** Offsets in an ed25519 entry-function transaction: sender 0..32, sequence 32..40, payload tag at 40. */
const PAYLOAD_TAG = 40;
const MODULE_NAME_LENGTH = 40 + 1 + 32;

function expectCodecError(fn: () => unknown, message?: RegExp) {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(CodecError);
  if (message) expect((error as Error).message).toMatch(message);
}

describe("decodeSignedTransaction rejects", () => {
  it("a trailing byte", () => expectCodecError(() => decodeSignedTransaction(Uint8Array.from([...ed25519Signed, 0])), /trailing/));

  it("every truncation", () => {
    for (let length = 0; length < ed25519Signed.length; length++)
      expectCodecError(() => decodeSignedTransaction(ed25519Signed.slice(0, length)));
  });

  it("an unknown payload variant", () => {
    const bytes = ed25519Signed.slice();
    bytes[PAYLOAD_TAG] = 6;
    expectCodecError(() => decodeSignedTransaction(bytes));
  });

  it("an invalid module identifier", () => {
    const bytes = ed25519Signed.slice();
    expect(bytes[MODULE_NAME_LENGTH]).toBe(4); // "coin"
    bytes[MODULE_NAME_LENGTH + 1] = "1".charCodeAt(0);
    expectCodecError(() => decodeSignedTransaction(bytes), /identifier/);
  });

  it("an ed25519 public key that is not 32 bytes", () => {
    const signed = decodeSignedTransaction(ed25519Signed);
    const bytes = encodeSignedTransaction(signed);
    const keyAt = bytes.length - (1 + 64) - 32 - 1; // length prefix of the public key
    expect(bytes[keyAt]).toBe(32);
    bytes[keyAt] = 31;
    expectCodecError(() => decodeSignedTransaction(bytes));
  });

  it("an unknown authenticator or key variant", () => {
    const bytes = ed25519Signed.slice();
    bytes[bytes.length - 1 - 64 - 1 - 32 - 1] = 9;
    expectCodecError(() => decodeSignedTransaction(bytes));
  });

  it("a ULEB length far beyond the input, quickly", () => {
    const bytes = Uint8Array.from([...ed25519Signed.slice(0, MODULE_NAME_LENGTH), 0xff, 0xff, 0xff, 0xff, 0x0f]);
    expectCodecError(() => decodeSignedTransaction(bytes));
  });

  it("multi-ed25519 keys with a zero threshold and signatures whose bitmap disagrees", () => {
    const made = SDK_AUTHENTICATORS.multi_ed25519!(SDK_PAYLOADS.entry_function!()).bytes;
    const signed = decodeSignedTransaction(made);
    if (signed.authenticator.$kind !== "MultiEd25519") throw new Error("expected multi-ed25519");
    // ... threshold | ULEB(132) = 0x84 0x01 | two 64-byte signatures | 4-byte bitmap
    const thresholdAt = made.length - 4 - 2 * 64 - 2 - 1;
    expect(made[thresholdAt]).toBe(2);
    const zeroThreshold = made.slice();
    zeroThreshold[thresholdAt] = 0;
    expectCodecError(() => decodeSignedTransaction(zeroThreshold), /threshold/);
    const badBitmap = made.slice();
    badBitmap[made.length - 4] = 0xe0; // three bits for two signatures
    expectCodecError(() => decodeSignedTransaction(badBitmap), /bitmap/);
  });

  it("anything that is not bytes", () => {
    expectCodecError(() => decodeSignedTransaction("0x00" as unknown as Uint8Array));
  });
});

describe("decoding", () => {
  it("decodes the deprecated ModuleBundle payload so a node can reject it by kind", () => {
    const serializer = new sdk.Serializer();
    sdk.AccountAddress.ONE.serialize(serializer);
    serializer.serializeU64(0n);
    serializer.serializeU32AsUleb128(1); // ModuleBundle
    serializer.serializeU64(0n); // DeprecatedPayload { dummy_value }
    for (const v of [1n, 1n, 1n]) serializer.serializeU64(v);
    serializer.serializeU8(4);
    const tail = ed25519Signed.slice(ed25519Signed.length - (1 + 1 + 32 + 1 + 64));
    const bytes = Uint8Array.from([...serializer.toUint8Array(), ...tail]);
    const signed = decodeSignedTransaction(bytes);
    expect(signed.raw_txn.payload.$kind).toBe("ModuleBundle");
    expect(toHex(encodeSignedTransaction(signed))).toBe(toHex(bytes));
  });

  it("copies decoded bytes out of a pooled Node Buffer", () => {
    const pooled = Buffer.concat([Buffer.from([9, 9, 9]), Buffer.from(ed25519Signed)]).subarray(3);
    const signed = decodeSignedTransaction(pooled);
    const sender = signed.raw_txn.sender;
    pooled.fill(0);
    expect(toHex(sender)).toBe(toHex(ed25519Signed.slice(0, 32)));
  });

  it("wraps encoding errors as CodecError", () => {
    const signed = decodeSignedTransaction(ed25519Signed);
    expectCodecError(() => encodeSignedTransaction({ ...signed, raw_txn: { ...signed.raw_txn, sequence_number: -1n } }));
    expectCodecError(() => encodeSignedTransaction({ ...signed, raw_txn: { ...signed.raw_txn, chain_id: 256 } }));
  });
});

describe("read-response layouts (Accept: application/x-bcs)", () => {
  it("TransactionSummaryBcs: enum {V1 0 {sender, version u64, HashValue (ULEB 32 + 32 bytes), replay protector enum {Nonce 0, SequenceNumber 1}}}", () => {
    const summary = {
      sender: parseAddress("0xab"),
      version: 7n,
      transaction_hash: new Uint8Array(32).fill(3),
      replay_protector: { SequenceNumber: 5n },
    };
    // Written field by field as aptos-core's serde derive and bcs crate write them.
    const serializer = new sdk.Serializer();
    serializer.serializeU32AsUleb128(0); // IndexedTransactionSummary::V1
    sdk.AccountAddress.from("0xab", { maxMissingChars: 63 }).serialize(serializer);
    serializer.serializeU64(7n);
    serializer.serializeBytes(new Uint8Array(32).fill(3)); // HashValue: serde_bytes, length-prefixed
    serializer.serializeU32AsUleb128(1); // ReplayProtector::SequenceNumber
    serializer.serializeU64(5n);
    const expected = serializer.toUint8Array();
    expect(toHex(encodeBcs(TransactionSummaryBcs, { V1: summary }))).toBe(toHex(expected));
    const list = encodeBcs(TransactionSummaryListBcs, [{ V1: summary }, { V1: { ...summary, replay_protector: { Nonce: 9n } } }]);
    expect(decodeBcs(TransactionSummaryListBcs, list)[1]).toMatchObject({
      $kind: "V1",
      V1: { replay_protector: { $kind: "Nonce", Nonce: 9n } },
    });
  });

  it("TransactionSummaryBcs rejects the unversioned layout, an unknown version and a hash of another length", () => {
    const unversioned = new sdk.Serializer();
    sdk.AccountAddress.from("0xab", { maxMissingChars: 63 }).serialize(unversioned);
    unversioned.serializeU64(7n);
    unversioned.serializeFixedBytes(new Uint8Array(32).fill(3));
    unversioned.serializeU32AsUleb128(1);
    unversioned.serializeU64(5n);
    expectCodecError(() => decodeBcs(TransactionSummaryBcs, unversioned.toUint8Array()));
    const v1 = encodeBcs(TransactionSummaryBcs, {
      V1: { sender: new Uint8Array(32), version: 1n, transaction_hash: new Uint8Array(32), replay_protector: { Nonce: 1n } },
    });
    expectCodecError(() => decodeBcs(TransactionSummaryBcs, Uint8Array.from([1, ...v1.subarray(1)])));
    const shortHash = Uint8Array.from([...v1.subarray(0, 41), 31, ...v1.subarray(42, 73), ...v1.subarray(74)]);
    expectCodecError(() => decodeBcs(TransactionSummaryBcs, shortHash), /HashValue/);
  });

  it("ModuleBytecodeBcs: the bytes as they are, no length prefix", () => {
    const bytecode = Uint8Array.from([0xa1, 0x1c, 0xeb, 0x0b, 7, 0, 0, 0]);
    expect(toHex(encodeBcs(ModuleBytecodeBcs, bytecode))).toBe(toHex(bytecode));
    expect(decodeBcs(ModuleBytecodeBcs, bytecode)).toEqual(bytecode);
    expect(decodeBcs(ModuleBytecodeBcs, new Uint8Array())).toEqual(new Uint8Array());
  });

  it("moduleIdString: 0x, the address's hex without leading zeros, ::, the name (aptos-core Address Display)", () => {
    expect(moduleIdString(parseAddress("0x1"), "coin")).toBe("0x1::coin");
    expect(moduleIdString(new Uint8Array(32), "m")).toBe("0x0::m");
    // Not AIP-40's long form: the leading zero goes even from a 64-digit address.
    expect(moduleIdString(parseAddress(`0x0f${"00".repeat(31)}`), "x")).toBe(`0xf${"00".repeat(31)}::x`);
  });

  it("ModuleMapBcs: a BCS map of module id strings to bytecode, sorted by the keys' BCS bytes (length first)", () => {
    const coin = Uint8Array.from([0xa1, 0x1c, 0xeb, 0x0b, 1]);
    const account = Uint8Array.from([0xa1, 0x1c, 0xeb, 0x0b, 2]);
    const code = Uint8Array.from([0xa1, 0x1c, 0xeb, 0x0b, 3]);
    // Given in name order; the map orders by key bytes: a ULEB128 length, then UTF-8, so shorter first.
    const bytes = encodeBcs(ModuleMapBcs, [
      { key: "0x1::account", value: account },
      { key: "0x1::code", value: code },
      { key: "0x1::coin", value: coin },
    ]);
    const serializer = new sdk.Serializer();
    serializer.serializeU32AsUleb128(3);
    for (const [key, value] of [
      ["0x1::code", code],
      ["0x1::coin", coin],
      ["0x1::account", account],
    ] as const) {
      serializer.serializeStr(key);
      serializer.serializeBytes(value);
    }
    expect(toHex(bytes)).toBe(toHex(serializer.toUint8Array()));
    expect(decodeBcs(ModuleMapBcs, bytes).map((e) => e.key)).toEqual(["0x1::code", "0x1::coin", "0x1::account"]);
  });

  it("ModuleMapBcs rejects entries out of key order, a repeated key, and the old vector-of-bytecodes layout", () => {
    const entry = (key: string, value: number[]) => {
      const s = new sdk.Serializer();
      s.serializeStr(key);
      s.serializeBytes(Uint8Array.from(value));
      return s.toUint8Array();
    };
    const unsorted = Uint8Array.from([2, ...entry("0x1::account", [1]), ...entry("0x1::coin", [2])]);
    expectCodecError(() => decodeBcs(ModuleMapBcs, unsorted), /order/);
    const repeated = Uint8Array.from([2, ...entry("0x1::coin", [1]), ...entry("0x1::coin", [2])]);
    expectCodecError(() => decodeBcs(ModuleMapBcs, repeated), /order/);
    expectCodecError(
      () =>
        encodeBcs(ModuleMapBcs, [
          { key: "a", value: new Uint8Array() },
          { key: "a", value: new Uint8Array(1) },
        ]),
      /twice/,
    );
    const vectorLayout = new sdk.MoveVector([
      sdk.MoveVector.U8(Uint8Array.from([0xa1, 0x1c, 0xeb, 0x0b])),
      sdk.MoveVector.U8(Uint8Array.from([0xa1, 0x1c, 0xeb, 0x0b, 9])),
    ]).bcsToBytes();
    expectCodecError(() => decodeBcs(ModuleMapBcs, vectorLayout));
  });

  it("GasEstimationBcs: Option<u64>, u64, Option<u64>", () => {
    const serializer = new sdk.Serializer();
    serializer.serializeOption(new sdk.U64(1n));
    serializer.serializeU64(2n);
    serializer.serializeOption<sdk.U64>(undefined);
    const bytes = encodeBcs(GasEstimationBcs, { deprioritized_gas_estimate: 1n, gas_estimate: 2n, prioritized_gas_estimate: null });
    expect(toHex(bytes)).toBe(toHex(serializer.toUint8Array()));
    expect(decodeBcs(GasEstimationBcs, bytes)).toEqual({
      deprioritized_gas_estimate: 1n,
      gas_estimate: 2n,
      prioritized_gas_estimate: null,
    });
  });

  it("HealthBcs", () => {
    expect(toHex(encodeBcs(HealthBcs, { message: "ok" }))).toBe(toHex(new sdk.MoveString("ok").bcsToBytes()));
  });
});
