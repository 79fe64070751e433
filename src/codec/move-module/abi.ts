// The ABI of a compiled module, derived as aptos-core derives the one its API serves
// (api/types/src/move_types.rs: MoveModule from CompiledModule; api/types/src/bytecode.rs: the
// functions, structs and type names): the exposed functions are the public, friend and entry ones
// (a private entry function is callable in a transaction, so it is listed); is_view and is_event come
// from the Aptos metadata; an enum's fields are left empty, as aptos-core does; types are written in
// MoveType's text form (`&mut 0x1::coin::Coin<T0>`, `vector<u8>`, `T0`).
import { formatAddress } from "../address.ts";
import { MalformedModule } from "./errors.ts";
import type { Ability, CompiledModule, FunctionDefinition, ModuleHandle, SignatureToken, StructDefinition, Visibility } from "./format.ts";
import { markedNames, type MarkedNames } from "./metadata.ts";
import type { CompiledScript } from "./script.ts";

export interface MoveFunctionGenericTypeParam {
  readonly constraints: readonly string[];
}
export interface MoveFunctionAbi {
  readonly name: string;
  readonly visibility: Visibility;
  readonly is_entry: boolean;
  readonly is_view: boolean;
  readonly generic_type_params: readonly MoveFunctionGenericTypeParam[];
  readonly params: readonly string[];
  readonly return: readonly string[];
}
export interface MoveStructAbi {
  readonly name: string;
  readonly is_native: boolean;
  readonly is_event: boolean;
  readonly abilities: readonly string[];
  readonly generic_type_params: readonly MoveFunctionGenericTypeParam[];
  readonly fields: readonly { readonly name: string; readonly type: string }[];
}
/** A variant of an enum, as aptos-core's API writes it (api/doc/spec.yaml MoveStructVariant: name, fields). */
export interface MoveStructVariantAbi {
  readonly name: string;
  readonly fields: readonly { readonly name: string; readonly type: string }[];
}
/**
 * The two members aptos-core's MoveStruct has beside MoveStructAbi's (api/types/src/move_types.rs
 * MoveStruct, api/doc/spec.yaml: is_enum and variants, both required, variants empty unless is_enum):
 * kept apart so that moduleAbi stays what it is.
 */
export interface MoveStructEnumAbi {
  readonly is_enum: boolean;
  readonly variants: readonly MoveStructVariantAbi[];
}
/** The module ABI with the member names the family's nodes use. */
export interface MoveModuleAbi {
  readonly address: string;
  readonly name: string;
  readonly friends: readonly string[];
  readonly exposed_functions: readonly MoveFunctionAbi[];
  readonly structs: readonly MoveStructAbi[];
}

class AbiWriter {
  constructor(
    private readonly m: CompiledModule,
    private readonly marked: MarkedNames,
  ) {}

  private at<T>(table: readonly T[], index: number, what: string): T {
    const item = table[index];
    if (item === undefined) throw new MalformedModule(`index out of bounds: ${what} ${index}`);
    return item;
  }

  identifier(index: number): string {
    return this.at(this.m.identifiers, index, "identifier");
  }

  address(index: number): string {
    return formatAddress(this.at(this.m.addresses, index, "address"));
  }

  moduleId(handle: ModuleHandle): string {
    return `${this.address(handle.address)}::${this.identifier(handle.name)}`;
  }

  type(token: SignatureToken): string {
    switch (token.kind) {
      case "vector":
        return `vector<${this.type(token.element)}>`;
      case "reference":
        return `&${this.type(token.to)}`;
      case "mutable_reference":
        return `&mut ${this.type(token.to)}`;
      case "type_parameter":
        return `T${token.index}`;
      case "struct": {
        const handle = this.at(this.m.structHandles, token.handle, "struct handle");
        const module = this.at(this.m.moduleHandles, handle.module, "module handle");
        const args = token.typeArguments.length ? `<${token.typeArguments.map((t) => this.type(t)).join(", ")}>` : "";
        return `${this.moduleId(module)}::${this.identifier(handle.name)}${args}`;
      }
      default:
        return token.kind;
    }
  }

  signature(index: number): string[] {
    return this.at(this.m.signatures, index, "signature").map((t) => this.type(t));
  }

  function(def: FunctionDefinition): MoveFunctionAbi {
    const handle = this.at(this.m.functionHandles, def.handle, "function handle");
    const name = this.identifier(handle.name);
    return {
      name,
      visibility: def.visibility,
      is_entry: def.isEntry,
      is_view: this.marked.viewFunctions.has(name),
      generic_type_params: handle.typeParameters.map((constraints) => ({ constraints: [...constraints] })),
      params: this.signature(handle.parameters),
      return: this.signature(handle.returns),
    };
  }

  enumAbi(def: StructDefinition): MoveStructEnumAbi {
    if (def.fields.kind !== "variants") return { is_enum: false, variants: [] };
    return {
      is_enum: true,
      variants: def.fields.variants.map((v) => ({
        name: this.identifier(v.name),
        fields: v.fields.map((f) => ({ name: this.identifier(f.name), type: this.type(f.type) })),
      })),
    };
  }

  struct(def: StructDefinition): MoveStructAbi {
    const handle = this.at(this.m.structHandles, def.handle, "struct handle");
    const name = this.identifier(handle.name);
    const fields =
      def.fields.kind === "declared" ? def.fields.fields.map((f) => ({ name: this.identifier(f.name), type: this.type(f.type) })) : [];
    return {
      name,
      is_native: def.fields.kind === "native",
      is_event: this.marked.eventStructs.has(name),
      abilities: [...handle.abilities] satisfies Ability[],
      generic_type_params: handle.typeParameters.map((p) => ({ constraints: [...p.constraints] })),
      fields,
    };
  }
}

/** Whether aptos-core lists a function among exposed_functions. */
export function isExposed(def: FunctionDefinition): boolean {
  return def.isEntry || def.visibility === "public" || def.visibility === "friend";
}

export function moduleAbi(m: CompiledModule): MoveModuleAbi {
  const writer = new AbiWriter(m, markedNames(m));
  const self = m.moduleHandles[m.selfHandle];
  if (self === undefined) throw new MalformedModule("index out of bounds: self module handle");
  return {
    address: writer.address(self.address),
    name: writer.identifier(self.name),
    friends: m.friends.map((f) => writer.moduleId(f)),
    exposed_functions: m.functionDefs.filter(isExposed).map((d) => writer.function(d)),
    structs: m.structDefs.map((d) => writer.struct(d)),
  };
}

/** is_enum and variants of each struct, in the order of moduleAbi(m).structs. */
export function structEnumAbis(m: CompiledModule): readonly MoveStructEnumAbi[] {
  const writer = new AbiWriter(m, markedNames(m));
  return m.structDefs.map((d) => writer.enumAbi(d));
}

/**
 * The ABI aptos-core gives a script's main function (api/types/src/bytecode.rs `Bytecode::new_move_function`
 * over the script's main, as MoveScriptBytecode::try_parse_abi does): named main, public, an entry,
 * not a view; its parameters' types in MoveType's text form, no return values.
 */
export function scriptAbi(s: CompiledScript): MoveFunctionAbi {
  const tables = { ...s, selfHandle: 0, structDefs: [], functionDefs: [], friends: [] } satisfies CompiledModule;
  const writer = new AbiWriter(tables, { viewFunctions: new Set(), eventStructs: new Set() });
  return {
    name: "main",
    visibility: "public",
    is_entry: true,
    is_view: false,
    generic_type_params: s.typeParameters.map((constraints) => ({ constraints: [...constraints] })),
    params: writer.signature(s.parameters),
    return: [],
  };
}
