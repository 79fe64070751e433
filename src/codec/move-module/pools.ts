// The pools: IDENTIFIERS (UTF-8 names), ADDRESS_IDENTIFIERS (32-byte addresses) and METADATA (key and
// value blobs), as load_identifier, load_address_identifier and load_metadata_entry of aptos-core's
// deserializer.rs read them.
import { ADDRESS_LENGTH } from "../address.ts";
import { type ByteReader, LIMIT } from "./byte-reader.ts";
import type { MetadataEntry } from "./format.ts";
import { writeUleb } from "./signatures.ts";

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const ENCODER = new TextEncoder();

export function readIdentifier(reader: ByteReader): string {
  const bytes = reader.take(reader.uleb(LIMIT.IDENTIFIER_SIZE));
  try {
    return UTF8.decode(bytes);
  } catch {
    return reader.fail("identifier is not UTF-8");
  }
}

export function writeIdentifier(out: number[], name: string): void {
  const bytes = ENCODER.encode(name);
  writeUleb(out, bytes.length);
  for (const byte of bytes) out.push(byte);
}

export function readAddress(reader: ByteReader): Uint8Array {
  return new Uint8Array(reader.take(ADDRESS_LENGTH));
}

export function writeAddress(out: number[], address: Uint8Array): void {
  for (const byte of address) out.push(byte);
}

export function readMetadataEntry(reader: ByteReader): MetadataEntry {
  const key = new Uint8Array(reader.take(reader.uleb(LIMIT.METADATA_KEY_SIZE)));
  const value = new Uint8Array(reader.take(reader.uleb(LIMIT.METADATA_VALUE_SIZE)));
  return { key, value };
}

export function writeMetadataEntry(out: number[], entry: MetadataEntry): void {
  writeUleb(out, entry.key.length);
  for (const byte of entry.key) out.push(byte);
  writeUleb(out, entry.value.length);
  for (const byte of entry.value) out.push(byte);
}
