// CompiledModule to bytes: the writer of the same tables the reader reads, in the layout of aptos-core's
// serializer.rs (header: magic, version u32 with Aptos's mask from version 7, table count and a
// directory of kind/offset/size; then the
// tables; then the self module handle index). Empty tables are left out, as check_tables forbids them.
// Function definitions are written native (without code): see writeFunctionDefinition.
import { writeFunctionDefinition, writeStructDefinition } from "./definitions.ts";
import { APTOS_BYTECODE_VERSION_MASK, MOVE_MAGIC, TABLE, VERSION_MIN, VERSION_WRITTEN_MAX, type CompiledModule } from "./format.ts";
import { writeFunctionHandle, writeModuleHandle, writeStructHandle } from "./handles.ts";
import { writeAddress, writeIdentifier, writeMetadataEntry } from "./pools.ts";
import { writeSignature, writeUleb } from "./signatures.ts";

function table<T>(items: readonly T[], write: (out: number[], item: T) => void): number[] {
  const out: number[] = [];
  for (const item of items) write(out, item);
  return out;
}

export function serializeModule(m: CompiledModule): Uint8Array {
  if (m.version < VERSION_MIN || m.version > VERSION_WRITTEN_MAX)
    throw new RangeError(`the serializer writes versions ${VERSION_MIN} to ${VERSION_WRITTEN_MAX}`);
  const tables: [number, number[]][] = [
    [TABLE.MODULE_HANDLES, table(m.moduleHandles, writeModuleHandle)],
    [TABLE.STRUCT_HANDLES, table(m.structHandles, writeStructHandle)],
    [TABLE.FUNCTION_HANDLES, table(m.functionHandles, (out, h) => writeFunctionHandle(out, h, m.version))],
    [TABLE.SIGNATURES, table(m.signatures, writeSignature)],
    [TABLE.IDENTIFIERS, table(m.identifiers, writeIdentifier)],
    [TABLE.ADDRESS_IDENTIFIERS, table(m.addresses, writeAddress)],
    [TABLE.METADATA, table(m.metadata, writeMetadataEntry)],
    [TABLE.STRUCT_DEFS, table(m.structDefs, writeStructDefinition)],
    [TABLE.FUNCTION_DEFS, table(m.functionDefs, writeFunctionDefinition)],
    [TABLE.FRIEND_DECLS, table(m.friends, writeModuleHandle)],
  ];
  const present = tables.filter(([, bytes]) => bytes.length > 0);
  const header: number[] = [...MOVE_MAGIC];
  const version = new Uint8Array(4);
  new DataView(version.buffer).setUint32(0, m.version >= 7 ? (APTOS_BYTECODE_VERSION_MASK | m.version) >>> 0 : m.version, true);
  header.push(...version);
  writeUleb(header, present.length);
  let offset = 0;
  for (const [kind, bytes] of present) {
    header.push(kind);
    writeUleb(header, offset);
    writeUleb(header, bytes.length);
    offset += bytes.length;
  }
  const tail: number[] = [];
  writeUleb(tail, m.selfHandle);
  const out = new Uint8Array(header.length + offset + tail.length);
  out.set(header, 0);
  let at = header.length;
  for (const [, bytes] of present) {
    out.set(bytes, at);
    at += bytes.length;
  }
  out.set(tail, at);
  return out;
}
