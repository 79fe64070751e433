// Module records of the framework: each declaration compiled to a binary-format module (compile.ts,
// written by the codec's serializer), and its ABI derived from those bytes by the codec, the same code
// path the conformance suite uses to check a node's ABIs.

import { abiOfBytecode, formatAddress, parseAddress, serializeModule } from "../../../codec/index.ts";
import type { ModuleRecord } from "../api.ts";
import { compileModule, type StructLookup } from "./compile.ts";
import type { ModuleDeclaration, StructDeclaration } from "./declarations.ts";

type NamedStruct = Pick<StructDeclaration, "abilities" | "typeParameters">;

/**
 * Structs the framework's modules name but genesis does not publish, with the abilities and type
 * parameters the Aptos framework declares them with (aptos-move/framework: aptos-stdlib and
 * aptos-framework sources).
 */
const NAMED_ONLY: Readonly<Record<string, NamedStruct>> = {
  "0x1::copyable_any::Any": { abilities: ["copy", "drop", "store"], typeParameters: [] },
  "0x1::optional_aggregator::OptionalAggregator": { abilities: ["store"], typeParameters: [] },
  "0x1::fixed_point64::FixedPoint64": { abilities: ["copy", "drop", "store"], typeParameters: [] },
  "0x1::pool_u64_unbound::Pool": { abilities: ["store"], typeParameters: [] },
  "0x1::storage_gas::StorageGasConfig": { abilities: ["copy", "drop", "key"], typeParameters: [] },
};

/** Looks a named struct up in the given modules' declarations, then in NAMED_ONLY. */
export function structLookup(modules: readonly ModuleDeclaration[]): StructLookup {
  const declared = new Map<string, NamedStruct>();
  for (const m of modules) for (const s of m.structs) declared.set(`${formatAddress(parseAddress(m.address))}::${m.name}::${s.name}`, s);
  return (moduleId, name) => declared.get(`${moduleId}::${name}`) ?? NAMED_ONLY[`${moduleId}::${name}`];
}

export function moduleRecord(decl: ModuleDeclaration, lookup: StructLookup): ModuleRecord {
  const bytecode = serializeModule(compileModule(decl, lookup));
  return { bytecode, abi: abiOfBytecode(bytecode) };
}
