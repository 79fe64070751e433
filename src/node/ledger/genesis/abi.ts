// Small builders so the framework's ABIs read as data: one line per function or struct, in the shape
// design §5 gives (and api.ts types).

import type { MoveFunctionAbi, MoveModuleAbi, MoveStructAbi } from "../api.ts";

/** The constraints of each generic type parameter, e.g. [["copy", "drop"], []]. */
type Generics = readonly (readonly string[])[];

interface FunctionOptions {
  readonly generics?: Generics;
  readonly returns?: readonly string[];
}

function makeFunction(
  name: string,
  visibility: MoveFunctionAbi["visibility"],
  flags: { is_entry: boolean; is_view: boolean },
  params: readonly string[],
  options: FunctionOptions,
): MoveFunctionAbi {
  return {
    name,
    visibility,
    ...flags,
    generic_type_params: (options.generics ?? []).map((constraints) => ({ constraints: [...constraints] })),
    params: [...params],
    return: [...(options.returns ?? [])],
  };
}

/** `public entry fun` */
export const entry = (name: string, params: readonly string[], options: FunctionOptions = {}) =>
  makeFunction(name, "public", { is_entry: true, is_view: false }, params, options);

/** `entry fun` (private, yet callable in a transaction) */
export const privateEntry = (name: string, params: readonly string[], options: FunctionOptions = {}) =>
  makeFunction(name, "private", { is_entry: true, is_view: false }, params, options);

/** `#[view] public fun` */
export const view = (name: string, params: readonly string[], returns: readonly string[], options: FunctionOptions = {}) =>
  makeFunction(name, "public", { is_entry: false, is_view: true }, params, { ...options, returns });

/** `public fun` */
export const pub = (name: string, params: readonly string[], returns: readonly string[] = [], options: FunctionOptions = {}) =>
  makeFunction(name, "public", { is_entry: false, is_view: false }, params, { ...options, returns });

/** `public(friend) fun` */
export const friend = (name: string, params: readonly string[], returns: readonly string[] = [], options: FunctionOptions = {}) =>
  makeFunction(name, "friend", { is_entry: false, is_view: false }, params, { ...options, returns });

type Fields = readonly (readonly [name: string, type: string])[];

function makeStruct(name: string, abilities: readonly string[], fields: Fields, isEvent: boolean, generics: Generics): MoveStructAbi {
  return {
    name,
    is_native: false,
    is_event: isEvent,
    abilities: [...abilities],
    generic_type_params: generics.map((constraints) => ({ constraints: [...constraints] })),
    fields: fields.map(([fieldName, type]) => ({ name: fieldName, type })),
  };
}

export const struct = (name: string, abilities: readonly string[], fields: Fields, generics: Generics = []) =>
  makeStruct(name, abilities, fields, false, generics);

/** A `#[event]` struct: drop and store, as the framework declares them. */
export const event = (name: string, fields: Fields) => makeStruct(name, ["drop", "store"], fields, true, []);

export function moduleAbi(
  name: string,
  parts: { friends?: readonly string[]; functions: readonly MoveFunctionAbi[]; structs?: readonly MoveStructAbi[] },
  address = "0x1",
): MoveModuleAbi {
  return {
    address,
    name,
    friends: [...(parts.friends ?? [])],
    exposed_functions: [...parts.functions],
    structs: [...(parts.structs ?? [])],
  };
}
