// Aptos's metadata in a module's METADATA table: under the key "aptos::metadata_v1" the BCS of
// RuntimeModuleMetadataV1 {error_map, struct_attributes, fun_attributes}, where an attribute is
// {kind: u8, args: vector<string>}; view functions are kind 1 (or the legacy 0), events kind 4. The
// older key "aptos::metadata_v0" holds only the error map. As aptos-core's get_metadata_from_compiled_code
// (types/src/vm/module_metadata.rs) does: metadata that does not decode counts as none, and the
// attributes of a version 5 module are cleared.
import { bcs } from "@mysten/bcs";
import type { CompiledModule, MetadataEntry } from "./format.ts";

const ENCODER = new TextEncoder();
export const METADATA_KEY_V1 = ENCODER.encode("aptos::metadata_v1");

/** KnownAttributeKind values aptos-core gives meaning to here. */
export const ATTRIBUTE = { LEGACY_VIEW_FUNCTION: 0, VIEW_FUNCTION: 1, EVENT: 4 } as const;

const KnownAttribute = bcs.struct("KnownAttribute", { kind: bcs.u8(), args: bcs.vector(bcs.string()) });
const Attributes = bcs.map(bcs.string(), bcs.vector(KnownAttribute));
const RuntimeModuleMetadataV1 = bcs.struct("RuntimeModuleMetadataV1", {
  error_map: bcs.map(bcs.u64(), bcs.struct("ErrorDescription", { code_name: bcs.string(), code_description: bcs.string() })),
  struct_attributes: Attributes,
  fun_attributes: Attributes,
});

/** The names aptos-core would mark: functions with a view attribute, structs with an event attribute. */
export interface MarkedNames {
  readonly viewFunctions: ReadonlySet<string>;
  readonly eventStructs: ReadonlySet<string>;
}

const NONE: MarkedNames = { viewFunctions: new Set(), eventStructs: new Set() };

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

function namesWith(attributes: Map<string, { kind: number }[]>, kinds: readonly number[]): Set<string> {
  return new Set([...attributes].filter(([, list]) => list.some((a) => kinds.includes(a.kind))).map(([name]) => name));
}

export function markedNames(module: CompiledModule): MarkedNames {
  const entry = module.metadata.find((m) => sameBytes(m.key, METADATA_KEY_V1));
  if (entry === undefined || module.version === 5) return NONE;
  let decoded;
  try {
    decoded = RuntimeModuleMetadataV1.parse(entry.value);
  } catch {
    return NONE;
  }
  // bcs::from_bytes refuses bytes after the value; the parser here stops at its end, so compare lengths.
  if (RuntimeModuleMetadataV1.serialize(decoded).toBytes().length !== entry.value.length) return NONE;
  return {
    viewFunctions: namesWith(decoded.fun_attributes, [ATTRIBUTE.LEGACY_VIEW_FUNCTION, ATTRIBUTE.VIEW_FUNCTION]),
    eventStructs: namesWith(decoded.struct_attributes, [ATTRIBUTE.EVENT]),
  };
}

/** The metadata entry marking the given view functions and event structs (no error map). */
export function metadataEntry(marked: { viewFunctions: readonly string[]; eventStructs: readonly string[] }): MetadataEntry {
  const attributes = (names: readonly string[], kind: number) => new Map(names.map((name) => [name, [{ kind, args: [] as string[] }]]));
  const value = RuntimeModuleMetadataV1.serialize({
    error_map: new Map(),
    struct_attributes: attributes(marked.eventStructs, ATTRIBUTE.EVENT),
    fun_attributes: attributes(marked.viewFunctions, ATTRIBUTE.VIEW_FUNCTION),
  }).toBytes();
  return { key: METADATA_KEY_V1, value };
}
