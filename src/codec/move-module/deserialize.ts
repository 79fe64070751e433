// Bytes to CompiledModule: the header (magic, version, table directory), each table read by its own
// reader, and the self module handle index after the tables (deserialize_compiled_module, read_tables
// and check_tables of aptos-core's deserializer.rs: tables are contiguous from offset 0, none empty,
// none twice). Tables an ABI does not need are checked for position only.
import { ByteReader, LIMIT } from "./byte-reader.ts";
import { readFunctionDefinition, readStructDefinition } from "./definitions.ts";
import { MalformedModule, UnsupportedModule } from "./errors.ts";
import { APTOS_BYTECODE_VERSION_MASK, MOVE_MAGIC, TABLE, VERSION_MAX, VERSION_MIN, type CompiledModule } from "./format.ts";
import { readFunctionHandle, readModuleHandle, readStructHandle } from "./handles.ts";
import { readAddress, readIdentifier, readMetadataEntry } from "./pools.ts";
import { readSignature } from "./signatures.ts";

export interface TableEntry {
  readonly kind: number;
  readonly offset: number;
  readonly count: number;
}

const KNOWN_TABLES = new Set<number>(Object.values(TABLE));
const ENUM_TABLES = new Set<number>([
  TABLE.VARIANT_FIELD_HANDLES,
  TABLE.VARIANT_FIELD_INST,
  TABLE.STRUCT_VARIANT_HANDLES,
  TABLE.STRUCT_VARIANT_INST,
]);

/** The bytecode version, read from the header without reading the rest (Aptos's version mask cleared). */
export function bytecodeVersion(bytes: Uint8Array): number {
  const reader = new ByteReader(bytes, "header");
  const magic = reader.take(MOVE_MAGIC.length);
  if (!magic.every((byte, i) => byte === MOVE_MAGIC[i])) reader.fail("not the Move magic 0xa11ceb0b");
  return (reader.u32() & ~APTOS_BYTECODE_VERSION_MASK) >>> 0;
}

export function readDirectory(reader: ByteReader, version: number): TableEntry[] {
  const count = reader.uleb(LIMIT.TABLE_COUNT);
  const tables = Array.from({ length: count }, () => ({
    kind: reader.u8(),
    offset: reader.uleb(LIMIT.TABLE_OFFSET),
    count: reader.uleb(LIMIT.TABLE_OFFSET),
  }));
  const seen = new Set<number>();
  let end = 0;
  for (const table of [...tables].sort((a, b) => a.offset - b.offset)) {
    if (!KNOWN_TABLES.has(table.kind)) {
      if (version > 7) throw new UnsupportedModule(`table kind 0x${table.kind.toString(16)} (version ${version}) is beyond this reader`);
      reader.fail(`unknown table kind 0x${table.kind.toString(16)}`);
    }
    if (ENUM_TABLES.has(table.kind) && version < 7) reader.fail(`enum table 0x${table.kind.toString(16)} needs version 7`);
    if (table.offset !== end || table.count === 0) reader.fail(`table 0x${table.kind.toString(16)} does not follow the one before it`);
    if (seen.has(table.kind)) reader.fail(`table 0x${table.kind.toString(16)} twice`);
    seen.add(table.kind);
    end += table.count;
  }
  return tables;
}

export function readTable<T>(contents: Uint8Array, tables: readonly TableEntry[], kind: number, read: (reader: ByteReader) => T): T[] {
  const table = tables.find((t) => t.kind === kind);
  if (table === undefined) return [];
  const reader = new ByteReader(contents.subarray(table.offset, table.offset + table.count), `table 0x${kind.toString(16)}`);
  const items: T[] = [];
  while (!reader.done) items.push(read(reader));
  return items;
}

/**
 * Reads a module's bytecode. Throws MalformedModule when the bytes are not a module of a version this
 * reader knows whole, UnsupportedModule when they use a newer version or construct than it knows.
 */
export function deserializeModule(bytes: Uint8Array): CompiledModule {
  const version = bytecodeVersion(bytes);
  if (version < VERSION_MIN) throw new MalformedModule(`bytecode version ${version} is below ${VERSION_MIN}, the oldest aptos-core reads`);
  if (version > VERSION_MAX)
    throw new UnsupportedModule(`bytecode version ${version} is newer than this reader knows (up to ${VERSION_MAX})`);
  const header = new ByteReader(bytes, "header");
  header.skip(MOVE_MAGIC.length + 4);
  const tables = readDirectory(header, version);
  const length = tables.reduce((sum, t) => sum + t.count, 0);
  const contents = header.take(length);
  const selfHandle = header.uleb(LIMIT.TABLE_INDEX);
  if (!header.done) header.fail("bytes after the self module handle");
  const module: CompiledModule = {
    version,
    selfHandle,
    moduleHandles: readTable(contents, tables, TABLE.MODULE_HANDLES, readModuleHandle),
    structHandles: readTable(contents, tables, TABLE.STRUCT_HANDLES, readStructHandle),
    functionHandles: readTable(contents, tables, TABLE.FUNCTION_HANDLES, (r) => readFunctionHandle(r, version)),
    signatures: readTable(contents, tables, TABLE.SIGNATURES, (r) => readSignature(r, version)),
    identifiers: readTable(contents, tables, TABLE.IDENTIFIERS, readIdentifier),
    addresses: readTable(contents, tables, TABLE.ADDRESS_IDENTIFIERS, readAddress),
    structDefs: readTable(contents, tables, TABLE.STRUCT_DEFS, (r) => readStructDefinition(r, version)),
    functionDefs: readTable(contents, tables, TABLE.FUNCTION_DEFS, (r) => readFunctionDefinition(r, version)),
    friends: readTable(contents, tables, TABLE.FRIEND_DECLS, readModuleHandle),
    metadata: readTable(contents, tables, TABLE.METADATA, readMetadataEntry),
  };
  checkBounds(module);
  return module;
}

/** What a module index is out of bounds of, as check_bounds.rs names it. */
export function outOfBounds(what: string): never {
  throw new MalformedModule(`index out of bounds: ${what}`);
}

/** The handle tables a module and a script share. */
type HandleTables = Pick<
  CompiledModule,
  "moduleHandles" | "structHandles" | "functionHandles" | "signatures" | "identifiers" | "addresses"
>;

/** The struct and function handles point into their tables (check_bounds.rs, for modules and scripts alike). */
export function checkHandleBounds(m: HandleTables): void {
  m.structHandles.forEach((h, i) => {
    if (h.module >= m.moduleHandles.length || h.name >= m.identifiers.length) outOfBounds(`struct handle ${i}`);
  });
  m.functionHandles.forEach((h, i) => {
    if (
      h.module >= m.moduleHandles.length ||
      h.name >= m.identifiers.length ||
      h.parameters >= m.signatures.length ||
      h.returns >= m.signatures.length
    )
      outOfBounds(`function handle ${i}`);
  });
}

/** The indexes the ABI follows point into their tables (a part of aptos-core's check_bounds.rs). */
function checkBounds(m: CompiledModule): void {
  const fail = outOfBounds;
  const moduleHandle = (h: { address: number; name: number }, what: string) => {
    if (h.address >= m.addresses.length || h.name >= m.identifiers.length) fail(what);
  };
  if (m.selfHandle >= m.moduleHandles.length) fail("self module handle");
  m.moduleHandles.forEach((h, i) => moduleHandle(h, `module handle ${i}`));
  m.friends.forEach((h, i) => moduleHandle(h, `friend ${i}`));
  checkHandleBounds(m);
  m.structDefs.forEach((d, i) => {
    if (d.handle >= m.structHandles.length) fail(`struct definition ${i}`);
  });
  m.functionDefs.forEach((d, i) => {
    if (d.handle >= m.functionHandles.length) fail(`function definition ${i}`);
  });
}
