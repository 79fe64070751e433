// Module bytecode for the framework's ABIs: the Move binary magic 0xa11ceb0b, the bytecode version
// (u32, little-endian), then a deterministic BCS encoding of the module's ABI. Not executable Move, but
// a stable, per-module byte string that begins as Move modules do.

import { bcs } from "@mysten/bcs";
import { parseAddress } from "../../../codec/index.ts";
import type { MoveModuleAbi, ModuleRecord } from "../api.ts";

export const MOVE_MAGIC = new Uint8Array([0xa1, 0x1c, 0xeb, 0x0b]);
export const BYTECODE_VERSION = 7;

const Strings = bcs.vector(bcs.string());
const GenericParams = bcs.vector(Strings);

const ModuleBody = bcs.struct("ModuleBody", {
  address: bcs.bytes(32),
  name: bcs.string(),
  friends: Strings,
  functions: bcs.vector(
    bcs.struct("Function", {
      name: bcs.string(),
      visibility: bcs.u8(),
      is_entry: bcs.bool(),
      is_view: bcs.bool(),
      generic_type_params: GenericParams,
      params: Strings,
      return: Strings,
    }),
  ),
  structs: bcs.vector(
    bcs.struct("Struct", {
      name: bcs.string(),
      is_native: bcs.bool(),
      is_event: bcs.bool(),
      abilities: Strings,
      generic_type_params: GenericParams,
      fields: bcs.vector(bcs.struct("Field", { name: bcs.string(), type: bcs.string() })),
    }),
  ),
});

const VISIBILITY = { private: 0, public: 1, friend: 2 } as const;

export function moduleBytecode(abi: MoveModuleAbi): Uint8Array {
  const body = ModuleBody.serialize({
    address: parseAddress(abi.address),
    name: abi.name,
    friends: [...abi.friends],
    functions: abi.exposed_functions.map((f) => ({
      name: f.name,
      visibility: VISIBILITY[f.visibility],
      is_entry: f.is_entry,
      is_view: f.is_view,
      generic_type_params: f.generic_type_params.map((g) => [...g.constraints]),
      params: [...f.params],
      return: [...f.return],
    })),
    structs: abi.structs.map((s) => ({
      name: s.name,
      is_native: s.is_native,
      is_event: s.is_event,
      abilities: [...s.abilities],
      generic_type_params: s.generic_type_params.map((g) => [...g.constraints]),
      fields: s.fields.map((field) => ({ name: field.name, type: field.type })),
    })),
  }).toBytes();
  const bytes = new Uint8Array(MOVE_MAGIC.length + 4 + body.length);
  bytes.set(MOVE_MAGIC, 0);
  new DataView(bytes.buffer).setUint32(MOVE_MAGIC.length, BYTECODE_VERSION, true);
  bytes.set(body, MOVE_MAGIC.length + 4);
  return bytes;
}

export function moduleRecord(abi: MoveModuleAbi): ModuleRecord {
  return { bytecode: moduleBytecode(abi), abi };
}
