// The framework's modules as declarations: what a Move source says about each function (visibility,
// entry, #[view], type parameters, parameter and return types) and each struct (abilities, #[event],
// type parameters, fields). compile.ts turns a declaration into the tables of a binary-format module;
// the ABI the node serves is then derived from that bytecode, never from these declarations.
// Small builders keep the framework readable as data: one line per function or struct.

import type { Ability, Visibility } from "../../../codec/index.ts";

/** The constraints of each generic type parameter, e.g. [["copy", "drop"], []]. */
type Generics = readonly (readonly Ability[])[];

export interface FunctionDeclaration {
  readonly name: string;
  readonly visibility: Visibility;
  readonly isEntry: boolean;
  /** `#[view]` */
  readonly isView: boolean;
  readonly typeParameters: Generics;
  /** Types in MoveType text form; `T0`, `T1`, … name the type parameters. */
  readonly params: readonly string[];
  readonly returns: readonly string[];
}

export interface StructDeclaration {
  readonly name: string;
  readonly abilities: readonly Ability[];
  /** `#[event]` */
  readonly isEvent: boolean;
  readonly typeParameters: Generics;
  readonly fields: readonly { readonly name: string; readonly type: string }[];
}

export interface ModuleDeclaration {
  readonly address: string;
  readonly name: string;
  /** Module ids, `0x1::genesis`. */
  readonly friends: readonly string[];
  readonly functions: readonly FunctionDeclaration[];
  readonly structs: readonly StructDeclaration[];
}

interface FunctionOptions {
  readonly generics?: Generics;
  readonly returns?: readonly string[];
}

function makeFunction(
  name: string,
  visibility: Visibility,
  flags: { isEntry: boolean; isView: boolean },
  params: readonly string[],
  options: FunctionOptions,
): FunctionDeclaration {
  return { name, visibility, ...flags, typeParameters: options.generics ?? [], params, returns: options.returns ?? [] };
}

/** `public entry fun` */
export const entry = (name: string, params: readonly string[], options: FunctionOptions = {}) =>
  makeFunction(name, "public", { isEntry: true, isView: false }, params, options);

/** `entry fun` (private, yet callable in a transaction) */
export const privateEntry = (name: string, params: readonly string[], options: FunctionOptions = {}) =>
  makeFunction(name, "private", { isEntry: true, isView: false }, params, options);

/** `fun` (private: not in the ABI) */
export const privateFun = (name: string, params: readonly string[], returns: readonly string[] = [], options: FunctionOptions = {}) =>
  makeFunction(name, "private", { isEntry: false, isView: false }, params, { ...options, returns });

/** `#[view] public fun` */
export const view = (name: string, params: readonly string[], returns: readonly string[], options: FunctionOptions = {}) =>
  makeFunction(name, "public", { isEntry: false, isView: true }, params, { ...options, returns });

/** `public fun` */
export const pub = (name: string, params: readonly string[], returns: readonly string[] = [], options: FunctionOptions = {}) =>
  makeFunction(name, "public", { isEntry: false, isView: false }, params, { ...options, returns });

/** `public(friend) fun` */
export const friend = (name: string, params: readonly string[], returns: readonly string[] = [], options: FunctionOptions = {}) =>
  makeFunction(name, "friend", { isEntry: false, isView: false }, params, { ...options, returns });

type Fields = readonly (readonly [name: string, type: string])[];

function makeStruct(name: string, abilities: readonly Ability[], fields: Fields, isEvent: boolean, generics: Generics): StructDeclaration {
  return { name, abilities, isEvent, typeParameters: generics, fields: fields.map(([fieldName, type]) => ({ name: fieldName, type })) };
}

export const struct = (name: string, abilities: readonly Ability[], fields: Fields, generics: Generics = []) =>
  makeStruct(name, abilities, fields, false, generics);

/** A `#[event]` struct: drop and store, as the framework declares them. */
export const event = (name: string, fields: Fields) => makeStruct(name, ["drop", "store"], fields, true, []);

export function moduleDeclaration(
  name: string,
  parts: { friends?: readonly string[]; functions: readonly FunctionDeclaration[]; structs?: readonly StructDeclaration[] },
  address = "0x1",
): ModuleDeclaration {
  return { address, name, friends: parts.friends ?? [], functions: parts.functions, structs: parts.structs ?? [] };
}
