// Struct layouts for Move values (table keys and values, entry function arguments), read from the ABIs
// of the modules published at a version.

import type { StructResolver } from "../../codec/index.ts";
import type { LedgerState } from "./state.ts";

export function structResolver(state: LedgerState, version: bigint): StructResolver {
  return (tag) => {
    const struct = state.module(tag.address, tag.module, version)?.abi.structs.find((s) => s.name === tag.name);
    if (struct === undefined || struct.generic_type_params.length !== tag.type_args.length) return undefined;
    return struct.fields.map((field) => ({ name: field.name, type: field.type }));
  };
}
