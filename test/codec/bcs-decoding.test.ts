// Strict BCS decoding (design §5): malformed, truncated or trailing bytes are CodecErrors; the
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
  ModuleListBcs,
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
    for (let length = 0; length < ed25519Signed.length; length++) expectCodecError(() => decodeSignedTransaction(ed25519Signed.slice(0, length)));
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
  it("TransactionSummaryBcs: sender, version u64, hash[32], replay protector enum {Nonce 0, SequenceNumber 1}", () => {
    const summary = {
      sender: parseAddress("0xab"),
      version: 7n,
      transaction_hash: new Uint8Array(32).fill(3),
      replay_protector: { SequenceNumber: 5n },
    };
    const serializer = new sdk.Serializer();
    sdk.AccountAddress.from("0xab", { maxMissingChars: 63 }).serialize(serializer);
    serializer.serializeU64(7n);
    serializer.serializeFixedBytes(new Uint8Array(32).fill(3));
    serializer.serializeU32AsUleb128(1);
    serializer.serializeU64(5n);
    expect(toHex(encodeBcs(TransactionSummaryBcs, summary))).toBe(toHex(serializer.toUint8Array()));
    const list = encodeBcs(TransactionSummaryListBcs, [summary, { ...summary, replay_protector: { Nonce: 9n } }]);
    expect(decodeBcs(TransactionSummaryListBcs, list)[1]).toMatchObject({ replay_protector: { $kind: "Nonce", Nonce: 9n } });
  });

  it("GasEstimationBcs: Option<u64>, u64, Option<u64>", () => {
    const serializer = new sdk.Serializer();
    serializer.serializeOption(new sdk.U64(1n));
    serializer.serializeU64(2n);
    serializer.serializeOption<sdk.U64>(undefined);
    const bytes = encodeBcs(GasEstimationBcs, { deprioritized_gas_estimate: 1n, gas_estimate: 2n, prioritized_gas_estimate: null });
    expect(toHex(bytes)).toBe(toHex(serializer.toUint8Array()));
    expect(decodeBcs(GasEstimationBcs, bytes)).toEqual({ deprioritized_gas_estimate: 1n, gas_estimate: 2n, prioritized_gas_estimate: null });
  });

  it("HealthBcs and ModuleListBcs", () => {
    expect(toHex(encodeBcs(HealthBcs, { message: "ok" }))).toBe(toHex(new sdk.MoveString("ok").bcsToBytes()));
    const modules = [Uint8Array.from([0xa1, 0x1c, 0xeb, 0x0b]), new Uint8Array()];
    const bytes = encodeBcs(ModuleListBcs, modules);
    expect(toHex(bytes)).toBe(toHex(new sdk.MoveVector(modules.map((m) => sdk.MoveVector.U8(m))).bcsToBytes()));
    expect(decodeBcs(ModuleListBcs, bytes)).toEqual(modules);
  });
});
