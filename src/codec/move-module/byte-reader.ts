// A cursor over one table of a module: little-endian integers and ULEB128 as aptos-core reads them
// (read_uleb128_as_u64 in file_format_common.rs rejects non-canonical encodings), with every overrun a
// MalformedModule.
import { MalformedModule } from "./errors.ts";

export class ByteReader {
  private at = 0;
  constructor(
    private readonly bytes: Uint8Array,
    /** What is being read, for messages ("table 0x3"). */
    private readonly what: string,
  ) {}

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  get position(): number {
    return this.at;
  }

  fail(message: string): never {
    throw new MalformedModule(`${this.what} at byte ${this.at}: ${message}`);
  }

  u8(): number {
    const byte = this.bytes[this.at];
    if (byte === undefined) this.fail("unexpected end");
    this.at++;
    return byte;
  }

  u32(): number {
    const view = this.take(4);
    return new DataView(view.buffer, view.byteOffset, 4).getUint32(0, true);
  }

  /** A ULEB128 integer no larger than `max` (the table index and size limits of file_format_common.rs). */
  uleb(max: number): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = this.u8();
      const digit = byte & 0x7f;
      if (shift > 0 && digit === 0 && (byte & 0x80) === 0) this.fail("non-canonical ULEB128");
      value += digit * 2 ** shift;
      if (value > max) this.fail(`ULEB128 value above ${max}`);
      if ((byte & 0x80) === 0) return value;
      shift += 7;
    }
  }

  /** Reads past a ULEB128 u64 whose value is not needed (at most 10 bytes, canonical). */
  skipUleb64(): void {
    for (let i = 0; i < 10; i++) {
      const byte = this.u8();
      if ((byte & 0x80) === 0) {
        if (i > 0 && byte === 0) this.fail("non-canonical ULEB128");
        if (i === 9 && byte > 1) this.fail("ULEB128 value above u64");
        return;
      }
    }
    this.fail("ULEB128 longer than a u64");
  }

  take(count: number): Uint8Array {
    if (this.at + count > this.bytes.length) this.fail(`${count} bytes wanted, ${this.bytes.length - this.at} left`);
    const slice = this.bytes.subarray(this.at, this.at + count);
    this.at += count;
    return slice;
  }

  skip(count: number): void {
    this.take(count);
  }
}

/** Limits of file_format_common.rs the reader enforces. */
export const LIMIT = {
  TABLE_INDEX: 65535,
  TABLE_OFFSET: 0xffffffff,
  TABLE_COUNT: 255,
  IDENTIFIER_SIZE: 65535,
  SIGNATURE_SIZE: 255,
  TYPE_PARAMETER_COUNT: 255,
  TYPE_PARAMETER_INDEX: 65536,
  FIELD_COUNT: 255,
  VARIANT_COUNT: 255,
  ACQUIRES_COUNT: 255,
  BYTECODE_COUNT: 65535,
  LOCAL_INDEX: 255,
  CONSTANT_SIZE: 65535,
  METADATA_KEY_SIZE: 1023,
  METADATA_VALUE_SIZE: 65535,
  ACCESS_SPECIFIER_COUNT: 65535,
  ATTRIBUTE_COUNT: 255,
  SIGNATURE_TOKEN_DEPTH: 256,
} as const;
