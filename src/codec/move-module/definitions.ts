// The definition tables: STRUCT_DEFS (native, declared fields, or version 7 enum variants) and
// FUNCTION_DEFS (visibility, entry and native flags, acquires, code), as load_struct_def and
// load_function_def of aptos-core's deserializer.rs read them from version 5 on.
import { type ByteReader, LIMIT } from "./byte-reader.ts";
import { skipCodeUnit } from "./code.ts";
import {
  FUNCTION_FLAG,
  STRUCT_KIND,
  VISIBILITY,
  type FieldDefinition,
  type FunctionDefinition,
  type StructDefinition,
  type Visibility,
} from "./format.ts";
import { readSignatureToken, writeSignatureToken, writeUleb } from "./signatures.ts";

function readFields(reader: ByteReader, version: number): FieldDefinition[] {
  const count = reader.uleb(LIMIT.FIELD_COUNT);
  return Array.from({ length: count }, () => ({ name: reader.uleb(LIMIT.TABLE_INDEX), type: readSignatureToken(reader, version) }));
}

function writeFields(out: number[], fields: readonly FieldDefinition[]): void {
  writeUleb(out, fields.length);
  for (const field of fields) {
    writeUleb(out, field.name);
    writeSignatureToken(out, field.type);
  }
}

export function readStructDefinition(reader: ByteReader, version: number): StructDefinition {
  const handle = reader.uleb(LIMIT.TABLE_INDEX);
  const kind = reader.u8();
  if (kind === STRUCT_KIND.NATIVE) return { handle, fields: { kind: "native" } };
  if (kind === STRUCT_KIND.DECLARED) return { handle, fields: { kind: "declared", fields: readFields(reader, version) } };
  if (kind === STRUCT_KIND.DECLARED_VARIANTS && version >= 7) {
    const count = reader.uleb(LIMIT.VARIANT_COUNT);
    const variants = Array.from({ length: count }, () => ({ name: reader.uleb(LIMIT.TABLE_INDEX), fields: readFields(reader, version) }));
    return { handle, fields: { kind: "variants", variants } };
  }
  return reader.fail(`struct kind 0x${kind.toString(16)} in version ${version}`);
}

export function writeStructDefinition(out: number[], definition: StructDefinition): void {
  writeUleb(out, definition.handle);
  const { fields } = definition;
  if (fields.kind === "native") out.push(STRUCT_KIND.NATIVE);
  else if (fields.kind === "declared") {
    out.push(STRUCT_KIND.DECLARED);
    writeFields(out, fields.fields);
  } else {
    out.push(STRUCT_KIND.DECLARED_VARIANTS);
    writeUleb(out, fields.variants.length);
    for (const variant of fields.variants) {
      writeUleb(out, variant.name);
      writeFields(out, variant.fields);
    }
  }
}

const VISIBILITY_OF_BYTE = new Map<number, Visibility>(Object.entries(VISIBILITY).map(([name, byte]) => [byte, name as Visibility]));

export function readFunctionDefinition(reader: ByteReader, version: number): FunctionDefinition {
  const handle = reader.uleb(LIMIT.TABLE_INDEX);
  const visibility = VISIBILITY_OF_BYTE.get(reader.u8()) ?? reader.fail("invalid visibility byte");
  let flags = reader.u8();
  const isEntry = (flags & FUNCTION_FLAG.ENTRY) !== 0;
  const isNative = (flags & FUNCTION_FLAG.NATIVE) !== 0;
  flags &= ~(FUNCTION_FLAG.ENTRY | FUNCTION_FLAG.NATIVE);
  const acquires = reader.uleb(LIMIT.ACQUIRES_COUNT);
  for (let i = 0; i < acquires; i++) reader.uleb(LIMIT.TABLE_INDEX);
  if (!isNative) skipCodeUnit(reader, version);
  // Unused flag bits are an error in aptos-core (INVALID_FLAG_BITS), checked after the code.
  if (flags !== 0) reader.fail(`unknown function flag bits 0x${flags.toString(16)}`);
  return { handle, visibility, isEntry, isNative };
}

/** A definition without code: the serializer writes native functions only. */
export function writeFunctionDefinition(out: number[], definition: FunctionDefinition): void {
  if (!definition.isNative) throw new RangeError("the serializer writes native function definitions only");
  writeUleb(out, definition.handle);
  out.push(VISIBILITY[definition.visibility]);
  out.push(FUNCTION_FLAG.NATIVE | (definition.isEntry ? FUNCTION_FLAG.ENTRY : 0));
  writeUleb(out, 0); // acquires
}
