// The handle tables: MODULE_HANDLES (and FRIEND_DECLS, which holds module handles), STRUCT_HANDLES and
// FUNCTION_HANDLES, as load_module_handle, load_struct_handle and load_function_handle of aptos-core's
// deserializer.rs read them (serializer.rs writes the same). From version 7 a function handle has its
// access specifiers, read past; from version 8 its attributes (Persistent, ModuleLock: one byte each).
import { type ByteReader, LIMIT } from "./byte-reader.ts";
import { UnsupportedModule } from "./errors.ts";
import {
  ABILITIES,
  FUNCTION_ATTRIBUTES,
  OPTION,
  type Ability,
  type FunctionHandle,
  type ModuleHandle,
  type StructHandle,
  type StructTypeParameter,
} from "./format.ts";
import { writeUleb } from "./signatures.ts";

export function readAbilities(reader: ByteReader): Ability[] {
  const bits = reader.uleb(0xf);
  return ABILITIES.filter(([, bit]) => (bits & bit) !== 0).map(([name]) => name);
}

export function writeAbilities(out: number[], abilities: readonly Ability[]): void {
  writeUleb(
    out,
    ABILITIES.reduce((bits, [name, bit]) => (abilities.includes(name) ? bits | bit : bits), 0),
  );
}

export function readModuleHandle(reader: ByteReader): ModuleHandle {
  return { address: reader.uleb(LIMIT.TABLE_INDEX), name: reader.uleb(LIMIT.TABLE_INDEX) };
}

export function writeModuleHandle(out: number[], handle: ModuleHandle): void {
  writeUleb(out, handle.address);
  writeUleb(out, handle.name);
}

export function readStructHandle(reader: ByteReader): StructHandle {
  const module = reader.uleb(LIMIT.TABLE_INDEX);
  const name = reader.uleb(LIMIT.TABLE_INDEX);
  const abilities = readAbilities(reader);
  const count = reader.uleb(LIMIT.TYPE_PARAMETER_COUNT);
  const typeParameters = Array.from(
    { length: count },
    (): StructTypeParameter => ({
      constraints: readAbilities(reader),
      isPhantom: reader.uleb(1) !== 0,
    }),
  );
  return { module, name, abilities, typeParameters };
}

export function writeStructHandle(out: number[], handle: StructHandle): void {
  writeUleb(out, handle.module);
  writeUleb(out, handle.name);
  writeAbilities(out, handle.abilities);
  writeUleb(out, handle.typeParameters.length);
  for (const parameter of handle.typeParameters) {
    writeAbilities(out, parameter.constraints);
    writeUleb(out, parameter.isPhantom ? 1 : 0);
  }
}

export function readFunctionHandle(reader: ByteReader, version: number): FunctionHandle {
  const module = reader.uleb(LIMIT.TABLE_INDEX);
  const name = reader.uleb(LIMIT.TABLE_INDEX);
  const parameters = reader.uleb(LIMIT.TABLE_INDEX);
  const returns = reader.uleb(LIMIT.TABLE_INDEX);
  const count = reader.uleb(LIMIT.TYPE_PARAMETER_COUNT);
  const typeParameters = Array.from({ length: count }, () => readAbilities(reader));
  if (version >= 7) skipAccessSpecifiers(reader);
  if (version < 8) return { module, name, parameters, returns, typeParameters };
  const attributes = Array.from({ length: reader.uleb(LIMIT.ATTRIBUTE_COUNT) }, () => reader.u8());
  const unknown = attributes.find((a) => !FUNCTION_ATTRIBUTES.includes(a));
  if (unknown !== undefined)
    throw new UnsupportedModule(`function attribute 0x${unknown.toString(16)} (version ${version}) is beyond this reader`);
  return { module, name, parameters, returns, typeParameters, ...(attributes.length > 0 ? { attributes } : {}) };
}

export function writeFunctionHandle(out: number[], handle: FunctionHandle, version: number): void {
  writeUleb(out, handle.module);
  writeUleb(out, handle.name);
  writeUleb(out, handle.parameters);
  writeUleb(out, handle.returns);
  writeUleb(out, handle.typeParameters.length);
  for (const constraints of handle.typeParameters) writeAbilities(out, constraints);
  if (version >= 7) out.push(OPTION.NONE);
  if (version >= 8) {
    writeUleb(out, handle.attributes?.length ?? 0);
    for (const attribute of handle.attributes ?? []) out.push(attribute);
  }
}

/** load_access_specifiers: an option of a list of {kind, negated, resource, address}. */
function skipAccessSpecifiers(reader: ByteReader): void {
  const present = reader.u8();
  if (present === OPTION.NONE) return;
  if (present !== OPTION.SOME) reader.fail("malformed option");
  const count = reader.uleb(LIMIT.ACCESS_SPECIFIER_COUNT);
  for (let i = 0; i < count; i++) {
    const kind = reader.u8();
    if (kind < 1 || kind > 3) reader.fail("malformed access kind");
    const negated = reader.u8();
    if (negated !== 1 && negated !== 2) reader.fail("malformed boolean");
    skipResourceSpecifier(reader);
    skipAddressSpecifier(reader);
  }
}

function skipResourceSpecifier(reader: ByteReader): void {
  const kind = reader.u8();
  if (kind === 1) return; // any
  if (kind === 2 || kind === 3 || kind === 4) return void reader.uleb(LIMIT.TABLE_INDEX); // at address, in module, resource
  if (kind === 5) {
    reader.uleb(LIMIT.TABLE_INDEX); // resource instantiation: struct handle, signature
    reader.uleb(LIMIT.TABLE_INDEX);
    return;
  }
  reader.fail("malformed resource specifier");
}

function skipAddressSpecifier(reader: ByteReader): void {
  const kind = reader.u8();
  if (kind === 1) return; // any
  if (kind === 2) return void reader.uleb(LIMIT.TABLE_INDEX); // literal
  if (kind === 3) {
    reader.uleb(LIMIT.LOCAL_INDEX); // parameter, then an optional function instantiation
    const present = reader.u8();
    if (present === OPTION.SOME) reader.uleb(LIMIT.TABLE_INDEX);
    else if (present !== OPTION.NONE) reader.fail("malformed option");
    return;
  }
  reader.fail("malformed address specifier");
}
