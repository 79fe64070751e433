// Building blocks shared by the BCS schemas: copied byte strings, bigint integers, identifiers,
// length-checked byte strings, and "opaque" values kept as their raw BCS bytes.
import { bcs, BcsReader, BcsType } from "@mysten/bcs";
import { asCodecError, CodecError } from "./errors.ts";

/** Bytes out of a decoder are copied, so they never alias the caller's input buffer. */
const copy = (bytes: Uint8Array): Uint8Array => new Uint8Array(bytes);

export const AccountAddress = bcs.bytes(32).transform({ name: "address", output: copy });

/** The largest u64: the bound of every ledger version, sequence number and u64 header. */
export const U64_MAX = (1n << 64n) - 1n;

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

/** Byte-wise order of two byte strings, a proper prefix first (Rust's Ord on Vec<u8>). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/** BcsReader keeps its cursor and buffer private; these are the only ways to see them. */
interface ReaderInternals {
  readonly bytePosition: number;
  readonly dataView: DataView;
}
const readerPosition = (reader: BcsReader): number => (reader as unknown as ReaderInternals).bytePosition;
const readerRemaining = (reader: BcsReader): number => (reader as unknown as ReaderInternals).dataView.byteLength - readerPosition(reader);
/** A copy of the bytes read since `start`. */
function readSince(reader: BcsReader, start: number): Uint8Array {
  const view = (reader as unknown as ReaderInternals).dataView;
  return new Uint8Array(view.buffer.slice(view.byteOffset + start, view.byteOffset + readerPosition(reader)));
}

/**
 * The bytes up to the end of the input, with no length prefix: a body that is one value's raw bytes, as
 * aptos-core sends a module's bytecode (api/src/state.rs `module`, BCS arm `try_from_encoded(bytes)`).
 */
export const RawBytes = new BcsType<Uint8Array, Uint8Array>({
  name: "raw bytes",
  read: (reader) => copy(reader.readBytes(readerRemaining(reader))),
  write: (value, writer) => {
    writer.writeBytes(value);
  },
  serializedSize: (value) => value.length,
  validate: (value) => {
    if (!(value instanceof Uint8Array)) throw new CodecError("raw bytes: expected bytes");
  },
});

export interface MapEntry<K, V> {
  readonly key: K;
  readonly value: V;
}

/**
 * A BCS map (a Rust BTreeMap or HashMap under serde): a ULEB128 count, then key, value pairs in ascending
 * order of the keys' BCS bytes, each key once. The bcs crate sorts the serialized entries by key bytes
 * and drops duplicates when it writes a map (aptos-labs/bcs src/ser.rs `MapSerializer::end`), so that is
 * the only canonical order: decoding rejects any other, encoding sorts.
 */
export function canonicalMap<K, V, KI, VI>(name: string, key: BcsType<K, KI>, value: BcsType<V, VI>) {
  const keyBytes = (k: KI) => key.serialize(k).toBytes();
  return new BcsType<MapEntry<K, V>[], readonly MapEntry<KI, VI>[]>({
    name,
    read: (reader) => {
      const count = reader.readULEB();
      const entries: MapEntry<K, V>[] = [];
      let previous: Uint8Array | undefined;
      for (let i = 0; i < count; i++) {
        const start = readerPosition(reader);
        const k = key.read(reader);
        const bytes = readSince(reader, start);
        if (previous !== undefined && compareBytes(previous, bytes) >= 0)
          throw new CodecError(
            `${name}: entry ${i} is not after entry ${i - 1} in the order of their keys' BCS bytes (a BCS map is sorted by key bytes, each key once)`,
          );
        previous = bytes;
        entries.push({ key: k, value: value.read(reader) });
      }
      return entries;
    },
    write: (entries, writer) => {
      const sorted = entries.map((e) => ({ bytes: keyBytes(e.key), value: e.value })).sort((a, b) => compareBytes(a.bytes, b.bytes));
      sorted.forEach((e, i) => {
        if (i > 0 && compareBytes((sorted[i - 1] as { bytes: Uint8Array }).bytes, e.bytes) === 0)
          throw new CodecError(`${name}: a key appears twice`);
      });
      writer.writeULEB(sorted.length);
      for (const e of sorted) {
        writer.writeBytes(e.bytes);
        value.write(e.value, writer);
      }
    },
    validate: (entries) => {
      if (!Array.isArray(entries)) throw new CodecError(`${name}: expected an array of {key, value} entries`);
    },
  });
}

/** Reads `schema` from the start of `bytes` and rejects trailing bytes. Throws CodecError. */
export function decodeExact<T, I>(schema: BcsType<T, I>, bytes: Uint8Array, what: string): T {
  if (!(bytes instanceof Uint8Array)) throw new CodecError(`${what}: expected bytes`);
  return asCodecError(what, () => {
    // A fresh, exactly sized buffer: @mysten/bcs bounds some reads by the underlying ArrayBuffer only.
    const own = new Uint8Array(bytes);
    const reader = new BcsReader(own);
    const value = schema.read(reader);
    const consumed = readerPosition(reader);
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
