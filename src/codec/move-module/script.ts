// Move scripts in the binary format (CompiledScript): read (deserializeScript) and written
// (serializeScript), in the layout of aptos-core's third_party/move/move-binary-format/src/serializer.rs
// (`CompiledScript::serialize_for_version`, `ScriptSerializer::serialize_main`) and deserializer.rs
// (`deserialize_compiled_script`): the header and table directory of a module, only the tables a
// script may have (module, struct and function handles, function instantiations, signatures,
// identifiers, addresses, constants, metadata), then the main function with no self handle before it:
// its type parameters (a count and an ability set each), the index of its parameters' signature, and
// its code unit (the index of its locals' signature, an instruction count, the instructions).
//
// Instructions are decoded for the few opcodes a script that only passes its parameters on uses (the
// moves and copies of locals, loads of constants, branches, calls, pop and return; file_format_common.rs
// `Opcodes`); any other is read past by its operands (code.ts), as "other".
import { ByteReader, LIMIT } from "./byte-reader.ts";
import { skipInstruction } from "./code.ts";
import { checkHandleBounds, outOfBounds, readDirectory, readTable } from "./deserialize.ts";
import { MalformedModule, UnsupportedModule } from "./errors.ts";
import {
  APTOS_BYTECODE_VERSION_MASK,
  MOVE_MAGIC,
  TABLE,
  VERSION_MAX,
  VERSION_MIN,
  VERSION_WRITTEN_MAX,
  type Ability,
  type FunctionHandle,
  type MetadataEntry,
  type ModuleHandle,
  type SignatureToken,
  type StructHandle,
} from "./format.ts";
import {
  readAbilities,
  readFunctionHandle,
  readModuleHandle,
  readStructHandle,
  writeAbilities,
  writeFunctionHandle,
  writeModuleHandle,
  writeStructHandle,
} from "./handles.ts";
import { readAddress, readIdentifier, readMetadataEntry, writeAddress, writeIdentifier, writeMetadataEntry } from "./pools.ts";
import { readSignature, writeSignature, writeUleb } from "./signatures.ts";

/** The opcodes this codec reads and writes (file_format_common.rs `Opcodes`). */
export const OPCODE = {
  POP: 0x01,
  RET: 0x02,
  BR_TRUE: 0x03,
  BR_FALSE: 0x04,
  BRANCH: 0x05,
  LD_U64: 0x06,
  LD_CONST: 0x07,
  LD_TRUE: 0x08,
  LD_FALSE: 0x09,
  COPY_LOC: 0x0a,
  MOVE_LOC: 0x0b,
  ST_LOC: 0x0c,
  CALL: 0x11,
} as const;

export type Instruction =
  | { readonly op: "pop" | "ret" | "ld_true" | "ld_false" }
  | { readonly op: "br_true" | "br_false" | "branch"; readonly offset: number }
  | { readonly op: "ld_u64"; readonly value: bigint }
  | { readonly op: "ld_const"; readonly index: number }
  | { readonly op: "copy_loc" | "move_loc" | "st_loc"; readonly local: number }
  | { readonly op: "call"; readonly handle: number }
  /** Any other instruction, read past (its operands are not kept): a script with one is not a pass-through. */
  | { readonly op: "other"; readonly opcode: number };

export interface CompiledScript {
  readonly version: number;
  readonly moduleHandles: readonly ModuleHandle[];
  readonly structHandles: readonly StructHandle[];
  readonly functionHandles: readonly FunctionHandle[];
  readonly signatures: readonly (readonly SignatureToken[])[];
  readonly identifiers: readonly string[];
  readonly addresses: readonly Uint8Array[];
  readonly metadata: readonly MetadataEntry[];
  /** The main function's type parameters, each its constraints. */
  readonly typeParameters: readonly (readonly Ability[])[];
  /** Index of the main function's parameter signature. */
  readonly parameters: number;
  /** Index of the main function's locals signature (beyond its parameters). */
  readonly locals: number;
  readonly code: readonly Instruction[];
}

/** Tables only a module has (deserializer.rs: a script with one is malformed). */
const MODULE_ONLY = new Set<number>([
  TABLE.STRUCT_DEFS,
  TABLE.STRUCT_DEF_INST,
  TABLE.FUNCTION_DEFS,
  TABLE.FIELD_HANDLES,
  TABLE.FIELD_INST,
  TABLE.FRIEND_DECLS,
  TABLE.VARIANT_FIELD_HANDLES,
  TABLE.VARIANT_FIELD_INST,
  TABLE.STRUCT_VARIANT_HANDLES,
  TABLE.STRUCT_VARIANT_INST,
]);

function readInstruction(reader: ByteReader, version: number): Instruction {
  const opcode = reader.u8();
  switch (opcode) {
    case OPCODE.POP:
      return { op: "pop" };
    case OPCODE.RET:
      return { op: "ret" };
    case OPCODE.LD_TRUE:
      return { op: "ld_true" };
    case OPCODE.LD_FALSE:
      return { op: "ld_false" };
    case OPCODE.BR_TRUE:
      return { op: "br_true", offset: reader.uleb(LIMIT.BYTECODE_COUNT) };
    case OPCODE.BR_FALSE:
      return { op: "br_false", offset: reader.uleb(LIMIT.BYTECODE_COUNT) };
    case OPCODE.BRANCH:
      return { op: "branch", offset: reader.uleb(LIMIT.BYTECODE_COUNT) };
    case OPCODE.LD_U64: {
      const bytes = reader.take(8);
      return { op: "ld_u64", value: new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true) };
    }
    case OPCODE.LD_CONST:
      return { op: "ld_const", index: reader.uleb(LIMIT.TABLE_INDEX) };
    case OPCODE.COPY_LOC:
      return { op: "copy_loc", local: reader.uleb(LIMIT.LOCAL_INDEX) };
    case OPCODE.MOVE_LOC:
      return { op: "move_loc", local: reader.uleb(LIMIT.LOCAL_INDEX) };
    case OPCODE.ST_LOC:
      return { op: "st_loc", local: reader.uleb(LIMIT.LOCAL_INDEX) };
    case OPCODE.CALL:
      return { op: "call", handle: reader.uleb(LIMIT.TABLE_INDEX) };
    default:
      skipInstruction(reader, version, opcode);
      return { op: "other", opcode };
  }
}

function writeInstruction(out: number[], instruction: Instruction): void {
  switch (instruction.op) {
    case "pop":
      out.push(OPCODE.POP);
      return;
    case "ret":
      out.push(OPCODE.RET);
      return;
    case "ld_true":
      out.push(OPCODE.LD_TRUE);
      return;
    case "ld_false":
      out.push(OPCODE.LD_FALSE);
      return;
    case "br_true":
    case "br_false":
    case "branch":
      out.push(instruction.op === "br_true" ? OPCODE.BR_TRUE : instruction.op === "br_false" ? OPCODE.BR_FALSE : OPCODE.BRANCH);
      writeUleb(out, instruction.offset);
      return;
    case "ld_u64": {
      out.push(OPCODE.LD_U64);
      const bytes = new Uint8Array(8);
      new DataView(bytes.buffer).setBigUint64(0, instruction.value, true);
      out.push(...bytes);
      return;
    }
    case "ld_const":
      out.push(OPCODE.LD_CONST);
      writeUleb(out, instruction.index);
      return;
    case "copy_loc":
    case "move_loc":
    case "st_loc":
      out.push(instruction.op === "copy_loc" ? OPCODE.COPY_LOC : instruction.op === "move_loc" ? OPCODE.MOVE_LOC : OPCODE.ST_LOC);
      writeUleb(out, instruction.local);
      return;
    case "call":
      out.push(OPCODE.CALL);
      writeUleb(out, instruction.handle);
      return;
    case "other":
      throw new RangeError(`the script writer does not write opcode 0x${instruction.opcode.toString(16)}`);
  }
}

function table<T>(items: readonly T[], write: (out: number[], item: T) => void): number[] {
  const out: number[] = [];
  for (const item of items) write(out, item);
  return out;
}

/** A script's bytes, as serialize_for_version writes them (tables in its order, empty ones left out). */
export function serializeScript(s: CompiledScript): Uint8Array {
  if (s.version < VERSION_MIN || s.version > VERSION_WRITTEN_MAX)
    throw new RangeError(`the serializer writes versions ${VERSION_MIN} to ${VERSION_WRITTEN_MAX}`);
  const tables: [number, number[]][] = [
    [TABLE.MODULE_HANDLES, table(s.moduleHandles, writeModuleHandle)],
    [TABLE.STRUCT_HANDLES, table(s.structHandles, writeStructHandle)],
    [TABLE.FUNCTION_HANDLES, table(s.functionHandles, (out, h) => writeFunctionHandle(out, h, s.version))],
    [TABLE.SIGNATURES, table(s.signatures, writeSignature)],
    [TABLE.IDENTIFIERS, table(s.identifiers, writeIdentifier)],
    [TABLE.ADDRESS_IDENTIFIERS, table(s.addresses, writeAddress)],
    [TABLE.METADATA, table(s.metadata, writeMetadataEntry)],
  ];
  const present = tables.filter(([, bytes]) => bytes.length > 0);
  const out: number[] = [...MOVE_MAGIC];
  const version = new Uint8Array(4);
  new DataView(version.buffer).setUint32(0, s.version >= 7 ? (APTOS_BYTECODE_VERSION_MASK | s.version) >>> 0 : s.version, true);
  out.push(...version);
  writeUleb(out, present.length);
  let offset = 0;
  for (const [kind, bytes] of present) {
    out.push(kind);
    writeUleb(out, offset);
    writeUleb(out, bytes.length);
    offset += bytes.length;
  }
  for (const [, bytes] of present) out.push(...bytes);
  writeUleb(out, s.typeParameters.length);
  for (const constraints of s.typeParameters) writeAbilities(out, constraints);
  writeUleb(out, s.parameters);
  writeUleb(out, s.locals);
  writeUleb(out, s.code.length);
  for (const instruction of s.code) writeInstruction(out, instruction);
  return new Uint8Array(out);
}

/**
 * Reads a script's bytecode. Throws MalformedModule when the bytes are not a script (a module's tables,
 * indexes out of bounds, bytes after the code), UnsupportedModule for a version or opcode beyond this reader.
 */
export function deserializeScript(bytes: Uint8Array): CompiledScript {
  const header = new ByteReader(bytes, "script header");
  const magic = header.take(MOVE_MAGIC.length);
  if (!magic.every((byte, i) => byte === MOVE_MAGIC[i])) header.fail("not the Move magic 0xa11ceb0b");
  const version = (header.u32() & ~APTOS_BYTECODE_VERSION_MASK) >>> 0;
  if (version < VERSION_MIN) throw new MalformedModule(`bytecode version ${version} is below ${VERSION_MIN}, the oldest aptos-core reads`);
  if (version > VERSION_MAX)
    throw new UnsupportedModule(`bytecode version ${version} is newer than this reader knows (up to ${VERSION_MAX})`);
  const tables = readDirectory(header, version);
  const moduleOnly = tables.find((t) => MODULE_ONLY.has(t.kind));
  if (moduleOnly !== undefined) header.fail(`a script has no table 0x${moduleOnly.kind.toString(16)}`);
  const contents = header.take(tables.reduce((sum, t) => sum + t.count, 0));
  const typeParameters = Array.from({ length: header.uleb(LIMIT.TYPE_PARAMETER_COUNT) }, () => readAbilities(header));
  const parameters = header.uleb(LIMIT.TABLE_INDEX);
  const locals = header.uleb(LIMIT.TABLE_INDEX);
  const code = Array.from({ length: header.uleb(LIMIT.BYTECODE_COUNT) }, () => readInstruction(header, version));
  if (!header.done) header.fail("bytes after the script's code");
  const script: CompiledScript = {
    version,
    moduleHandles: readTable(contents, tables, TABLE.MODULE_HANDLES, readModuleHandle),
    structHandles: readTable(contents, tables, TABLE.STRUCT_HANDLES, readStructHandle),
    functionHandles: readTable(contents, tables, TABLE.FUNCTION_HANDLES, (r) => readFunctionHandle(r, version)),
    signatures: readTable(contents, tables, TABLE.SIGNATURES, (r) => readSignature(r, version)),
    identifiers: readTable(contents, tables, TABLE.IDENTIFIERS, readIdentifier),
    addresses: readTable(contents, tables, TABLE.ADDRESS_IDENTIFIERS, readAddress),
    metadata: readTable(contents, tables, TABLE.METADATA, readMetadataEntry),
    typeParameters,
    parameters,
    locals,
    code,
  };
  checkScriptBounds(script);
  return script;
}

/** The indexes a script follows point into their tables (a part of check_bounds.rs for scripts). */
function checkScriptBounds(s: CompiledScript): void {
  const fail = outOfBounds;
  s.moduleHandles.forEach((h, i) => {
    if (h.address >= s.addresses.length || h.name >= s.identifiers.length) fail(`module handle ${i}`);
  });
  checkHandleBounds(s);
  if (s.parameters >= s.signatures.length) fail("main's parameters");
  if (s.locals >= s.signatures.length) fail("main's locals");
  if (s.code.length === 0) fail("main has no code");
  const localCount = (s.signatures[s.parameters]?.length ?? 0) + (s.signatures[s.locals]?.length ?? 0);
  s.code.forEach((instruction, i) => {
    if ("handle" in instruction && instruction.handle >= s.functionHandles.length) fail(`instruction ${i}: function handle`);
    if ("local" in instruction && instruction.local >= localCount) fail(`instruction ${i}: local`);
    if ("offset" in instruction && instruction.offset >= s.code.length) fail(`instruction ${i}: branch offset`);
  });
}

/** The function a script calls, with its module, as names. */
export interface ScriptCallTarget {
  readonly address: Uint8Array;
  readonly module: string;
  readonly function: string;
}

/** `signer` or `&signer`. */
const isSigner = (t: SignatureToken): boolean => t.kind === "signer" || (t.kind === "reference" && t.to.kind === "signer");

/**
 * When the script's code only passes its parameters, in order, to one function and returns (moves or
 * copies of locals 0..n-1, one call, return: what the compiler makes of `fun main(a, b, c) { m::f(a, b, c) }`),
 * the function it calls; else undefined. A signer it leaves unused (the second signer of a multi-agent
 * script, `fun main(s1: &signer, _s2: &signer, to: address, amount: u64) { m::f(s1, to, amount) }`,
 * which the compiler moves and pops, or leaves alone) is dropped: the call takes the others, in order,
 * and so the script's arguments.
 */
export function passThroughCall(s: CompiledScript): ScriptCallTarget | undefined {
  const params = s.signatures[s.parameters] ?? [];
  const code = s.code;
  const passed: SignatureToken[] = [];
  let next = 0;
  const skipsOnlySigners = (from: number, to: number) => params.slice(from, to).every(isSigner);
  for (let pc = 0; pc < code.length - 2; pc++) {
    const instruction = code[pc];
    if (instruction === undefined || (instruction.op !== "move_loc" && instruction.op !== "copy_loc") || instruction.local < next)
      return undefined;
    const param = params[instruction.local];
    if (param === undefined || !skipsOnlySigners(next, instruction.local)) return undefined;
    next = instruction.local + 1;
    if (code[pc + 1]?.op === "pop") {
      if (!isSigner(param)) return undefined;
      pc += 1;
      continue;
    }
    passed.push(param);
  }
  if (!skipsOnlySigners(next, params.length)) return undefined;
  const call = code[code.length - 2];
  if (call?.op !== "call" || code[code.length - 1]?.op !== "ret") return undefined;
  const handle = s.functionHandles[call.handle];
  if (handle === undefined || (s.signatures[handle.returns]?.length ?? 0) !== 0) return undefined;
  const callee = s.signatures[handle.parameters] ?? [];
  if (callee.length !== passed.length || !callee.every((t, i) => JSON.stringify(t) === JSON.stringify(passed[i]))) return undefined;
  const module = s.moduleHandles[handle.module];
  const address = module === undefined ? undefined : s.addresses[module.address];
  const moduleName = module === undefined ? undefined : s.identifiers[module.name];
  const functionName = s.identifiers[handle.name];
  if (address === undefined || moduleName === undefined || functionName === undefined) return undefined;
  return { address, module: moduleName, function: functionName };
}

/**
 * The script `fun main(params) { address::module::function(params) }` calls, as the Move compiler
 * writes it: one module handle, one function handle taking the same parameters and returning nothing,
 * signatures [] (returns and locals) and the parameters, and the code move_loc 0..n-1, call, ret.
 */
export function passThroughScript(
  target: ScriptCallTarget,
  params: readonly SignatureToken[],
  version: number = VERSION_WRITTEN_MAX - 1,
): CompiledScript {
  return {
    version,
    moduleHandles: [{ address: 0, name: 0 }],
    structHandles: [],
    functionHandles: [{ module: 0, name: 1, parameters: 1, returns: 0, typeParameters: [] }],
    signatures: [[], params],
    identifiers: [target.module, target.function],
    addresses: [target.address],
    metadata: [],
    typeParameters: [],
    parameters: 1,
    locals: 0,
    code: [...params.map((_, local): Instruction => ({ op: "move_loc", local })), { op: "call", handle: 0 }, { op: "ret" }],
  };
}
