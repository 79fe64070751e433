// Building blocks shared by the BCS schemas: copied byte strings, bigint integers, identifiers,
// length-checked byte strings, and "opaque" values kept as their raw BCS bytes.
import { bcs, BcsReader, BcsType } from "@mysten/bcs";
import { asCodecError, CodecError } from "./errors.ts";

/** Bytes out of a decoder are copied, so they never alias the caller's input buffer. */
const copy = (bytes: Uint8Array): Uint8Array => new Uint8Array(bytes);

export const AccountAddress = bcs.bytes(32).transform({ name: "address", output: copy });

/** Integers wider than 53 bits come out as bigint; they go in as bigint, number or decimal string. */
export const U64 = bcs.u64().transform({ output: (v: string) => BigInt(v) });
export const U128 = bcs.u128().transform({ output: (v: string) => BigInt(v) });
export const U256 = bcs.u256().transform({ output: (v: string) => BigInt(v) });

/** vector<u8>: a ULEB128 length, then the bytes. */
export const Bytes = bcs.byteVector().transform({ output: copy });

/** vector<u8> whose length must satisfy `accepts` (decoding rejects any other length, as Aptos does). */
export function sizedBytes(name: string, accepts: (length: number) => boolean, expected: string) {
  const check = (length: number) => {
    if (!accepts(length)) throw new CodecError(`${name}: expected ${expected}, got ${length} bytes`);
  };
  return bcs.byteVector().transform({
    name,
    output: (bytes) => {
      check(bytes.length);
      return copy(bytes);
    },
    validate: (bytes) => check(Array.from(bytes).length),
  });
}

const IDENTIFIER = /^(?:[A-Za-z][A-Za-z0-9_]*|_[A-Za-z0-9_]+)$/;

/** True for a Move identifier (module, function and struct names). */
export function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text);
}

function checkIdentifier(text: string): string {
  if (!isIdentifier(text)) throw new CodecError(`invalid Move identifier ${JSON.stringify(text)}`);
  return text;
}

/** A Move identifier; decoding and encoding both reject anything else. */
export const Identifier = bcs.string().transform({ name: "Identifier", output: checkIdentifier, validate: checkIdentifier });

/** Reads `schema` from the start of `bytes` and rejects trailing bytes. Throws CodecError. */
export function decodeExact<T, I>(schema: BcsType<T, I>, bytes: Uint8Array, what: string): T {
  if (!(bytes instanceof Uint8Array)) throw new CodecError(`${what}: expected bytes`);
  return asCodecError(what, () => {
    // A fresh, exactly sized buffer: @mysten/bcs bounds some reads by the underlying ArrayBuffer only.
    const own = new Uint8Array(bytes);
    const reader = new BcsReader(own);
    const value = schema.read(reader);
    // BcsReader keeps its cursor private; it is the only way to see unread bytes.
    const consumed = (reader as unknown as { bytePosition: number }).bytePosition;
    if (consumed !== own.length) throw new CodecError(`${own.length - consumed} trailing bytes`);
    return value;
  });
}

/** Serializes `value` with `schema`. Throws CodecError when the value does not fit the schema. */
export function encodeWith<I>(schema: BcsType<unknown, I>, value: I, what: string): Uint8Array {
  return asCodecError(what, () => schema.serialize(value).toBytes());
}

/**
 * A value we carry but do not interpret (keyless keys and signatures, WebAuthn assertions): `schema`
 * says where it ends, the parsed value is its raw BCS bytes, and encoding writes those bytes back
 * (after checking they parse). BCS is canonical, so re-serializing what was read gives the same bytes.
 */
export function opaque<T, I>(name: string, schema: BcsType<T, I>): BcsType<Uint8Array, Uint8Array> {
  return new BcsType<Uint8Array, Uint8Array>({
    name,
    // A decoded value is always a valid input of its own schema.
    read: (reader) => schema.serialize(schema.read(reader) as unknown as I).toBytes(),
    write: (value, writer) => {
      writer.writeBytes(value);
    },
    serializedSize: (value) => value.length,
    validate: (value) => {
      if (!(value instanceof Uint8Array)) throw new CodecError(`${name}: expected bytes`);
      decodeExact(schema, value, name);
    },
  });
}
