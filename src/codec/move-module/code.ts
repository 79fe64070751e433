// Function bodies, read past: an ABI needs none of the code, but a function definition's length is only
// known by reading its instructions (load_code of aptos-core's deserializer.rs; opcodes of
// file_format_common.rs; serializer.rs for the closure instructions of version 8: PACK_CLOSURE and its
// generic form take a function index and a ULEB128 closure mask, CALL_CLOSURE a signature index).
// Each opcode is listed with the operands that follow it, with the version that introduced it.
import { type ByteReader, LIMIT } from "./byte-reader.ts";
import { UnsupportedModule } from "./errors.ts";

type Operands = "none" | "index" | "index-u64" | "index-mask" | { readonly bytes: number };

/** The version an opcode needs (0x48..0x4d: u16/u32/u256; 0x4e..0x57: enums; 0x58..0x5a: closures; 0x5b..0x67: signed integers; 0x68: abort with message). */
function versionOf(opcode: number): number {
  if (opcode >= 0x48 && opcode <= 0x4d) return 6;
  if (opcode >= 0x4e && opcode <= 0x57) return 7;
  if (opcode >= 0x58 && opcode <= 0x5a) return 8;
  if (opcode >= 0x5b && opcode <= 0x67) return 9;
  if (opcode === 0x68) return 10;
  return 5;
}

/** Opcodes 0x01..0x4d (versions 5 and 6; 0x48..0x4d need version 6). */
function operandsOf(opcode: number): Operands | undefined {
  if (opcode === 0x06) return { bytes: 8 }; // LD_U64
  if (opcode === 0x31) return { bytes: 1 }; // LD_U8
  if (opcode === 0x32) return { bytes: 16 }; // LD_U128
  if (opcode === 0x48) return { bytes: 2 }; // LD_U16
  if (opcode === 0x49) return { bytes: 4 }; // LD_U32
  if (opcode === 0x4a) return { bytes: 32 }; // LD_U256
  if (opcode === 0x40 || opcode === 0x46) return "index-u64"; // VEC_PACK, VEC_UNPACK
  // POP, RET, LD_TRUE, LD_FALSE, READ_REF .. GE, ABORT, NOP, FREEZE_REF, SHL, SHR, CAST_U8/U64/U128, CAST_U16/U32/U256
  if (opcode === 0x01 || opcode === 0x02 || opcode === 0x08 || opcode === 0x09) return "none";
  if ((opcode >= 0x14 && opcode <= 0x28) || (opcode >= 0x2e && opcode <= 0x30) || (opcode >= 0x33 && opcode <= 0x35)) return "none";
  if (opcode >= 0x4b && opcode <= 0x4d) return "none";
  // Branches, LD_CONST, locals, fields, CALL, PACK/UNPACK, globals, their generic forms, vector ops
  if ((opcode >= 0x03 && opcode <= 0x05) || opcode === 0x07 || (opcode >= 0x0a && opcode <= 0x13)) return "index";
  if ((opcode >= 0x29 && opcode <= 0x2d) || (opcode >= 0x36 && opcode <= 0x3f) || (opcode >= 0x41 && opcode <= 0x47)) return "index";
  // Version 7: variant fields, PACK/UNPACK/TEST_VARIANT and their generic forms
  if (opcode >= 0x4e && opcode <= 0x57) return "index";
  // Version 8: PACK_CLOSURE, PACK_CLOSURE_GENERIC (index and mask), CALL_CLOSURE (signature index)
  if (opcode === 0x58 || opcode === 0x59) return "index-mask";
  if (opcode === 0x5a) return "index";
  // Version 9: LD_I8 .. LD_I256, then casts and negation without operands; version 10: abort with message
  const signedLoad = [1, 2, 4, 8, 16, 32][opcode - 0x5b];
  if (signedLoad !== undefined) return { bytes: signedLoad };
  if (opcode >= 0x61 && opcode <= 0x68) return "none";
  return undefined;
}

export function skipCodeUnit(reader: ByteReader, version: number): void {
  reader.uleb(LIMIT.TABLE_INDEX); // locals signature
  const count = reader.uleb(LIMIT.BYTECODE_COUNT);
  for (let i = 0; i < count; i++) skipInstruction(reader, version, reader.u8());
}

/** Reads past the operands of one instruction whose opcode was just read. */
export function skipInstruction(reader: ByteReader, version: number, opcode: number): void {
  const operands = operandsOf(opcode);
  if (operands === undefined) {
    if (version > 7) throw new UnsupportedModule(`opcode 0x${opcode.toString(16)} (version ${version}) is beyond this reader`);
    reader.fail(`unknown opcode 0x${opcode.toString(16)}`);
  }
  if (version < versionOf(opcode)) reader.fail(`opcode 0x${opcode.toString(16)} needs version ${versionOf(opcode)}`);
  if (operands === "index") reader.uleb(LIMIT.TABLE_OFFSET);
  else if (operands === "index-u64") {
    reader.uleb(LIMIT.TABLE_INDEX);
    reader.skip(8);
  } else if (operands === "index-mask") {
    reader.uleb(LIMIT.TABLE_INDEX);
    reader.skipUleb64(); // the closure mask, a u64
  } else if (operands !== "none") reader.skip(operands.bytes);
}
