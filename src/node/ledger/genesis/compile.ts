// A module declaration to the tables of a binary-format module (version 7): pools of identifiers,
// addresses and signatures; a module handle for itself and each module it names; a struct handle for
// each struct it defines or names (a named struct's abilities and type parameters come from the module
// that declares it); a function handle and a native definition for each function; its friends; and
// the Aptos metadata marking #[view] functions and #[event] structs. The layout follows aptos-core's
// file_format.rs; the bytes are written by the codec's serializer.

import {
  formatAddress,
  metadataEntry,
  parseAddress,
  parseTypeTag,
  type CompiledModule,
  type FunctionDefinition,
  type FunctionHandle,
  type ModuleHandle,
  type SignatureToken,
  type StructDefinition,
  type StructHandle,
  type TypeTag,
} from "../../../codec/index.ts";
import type { FunctionDeclaration, ModuleDeclaration, StructDeclaration } from "./declarations.ts";

export const FRAMEWORK_BYTECODE_VERSION = 7;

/** Finds the declaration of a struct another module names (`0x1::string`, `String`). */
export type StructLookup = (moduleId: string, name: string) => Pick<StructDeclaration, "abilities" | "typeParameters"> | undefined;

/** A type parameter stands in the TypeTag parser's output as a struct at this address (no real module lives there). */
const PARAMETER_MARK = new Uint8Array(32).fill(0xff);
const PARAMETERS: readonly TypeTag[] = Array.from({ length: 16 }, (_, i) => ({
  Struct: { address: PARAMETER_MARK, module: "type_parameter", name: `T${i}`, type_args: [] },
  $kind: "Struct",
}));

class Pool<T> {
  readonly items: T[] = [];
  private readonly index = new Map<string, number>();
  constructor(private readonly keyOf: (item: T) => string) {}

  add(item: T): number {
    const key = this.keyOf(item);
    const found = this.index.get(key);
    if (found !== undefined) return found;
    this.items.push(item);
    this.index.set(key, this.items.length - 1);
    return this.items.length - 1;
  }
}

class ModuleCompiler {
  readonly identifiers = new Pool<string>((s) => s);
  readonly addresses = new Pool<Uint8Array>((a) => formatAddress(a));
  readonly moduleHandles = new Pool<ModuleHandle>((h) => `${h.address}:${h.name}`);
  readonly structHandles: StructHandle[] = [];
  private readonly structIndex = new Map<string, number>();
  readonly signatures = new Pool<readonly SignatureToken[]>((s) => JSON.stringify(s));

  constructor(
    private readonly decl: ModuleDeclaration,
    private readonly lookup: StructLookup,
  ) {
    this.moduleHandle(decl.address, decl.name); // handle 0: the module itself
    for (const s of decl.structs) this.structHandle(this.selfId, s.name, s); // its structs first, in order
  }

  get selfId(): string {
    return `${formatAddress(parseAddress(this.decl.address))}::${this.decl.name}`;
  }

  moduleHandle(address: string, name: string): number {
    return this.moduleHandles.add({ address: this.addresses.add(parseAddress(address)), name: this.identifiers.add(name) });
  }

  structHandle(moduleId: string, name: string, own?: StructDeclaration): number {
    const key = `${moduleId}::${name}`;
    const found = this.structIndex.get(key);
    if (found !== undefined) return found;
    const declared = own ?? this.lookup(moduleId, name);
    if (declared === undefined) throw new RangeError(`${this.selfId}: no declaration of the struct ${key} it names`);
    const [address = "", module = ""] = moduleId.split("::");
    this.structHandles.push({
      module: this.moduleHandle(address, module),
      name: this.identifiers.add(name),
      abilities: declared.abilities,
      typeParameters: declared.typeParameters.map((constraints) => ({ constraints, isPhantom: false })),
    });
    this.structIndex.set(key, this.structHandles.length - 1);
    return this.structHandles.length - 1;
  }

  token(tag: TypeTag): SignatureToken {
    switch (tag.$kind) {
      case "Vector":
        return { kind: "vector", element: this.token(tag.Vector) };
      case "Struct": {
        const s = tag.Struct;
        if (s.module === "type_parameter" && s.address.every((b) => b === 0xff))
          return { kind: "type_parameter", index: Number(s.name.slice(1)) };
        return {
          kind: "struct",
          handle: this.structHandle(`${formatAddress(s.address)}::${s.module}`, s.name),
          typeArguments: s.type_args.map((a) => this.token(a)),
        };
      }
      default:
        return { kind: tag.$kind.toLowerCase() } as SignatureToken;
    }
  }

  /** A MoveType string: `&mut ` or `&` before a type (references occur only at the top). */
  type(text: string): SignatureToken {
    const reference = /^&(mut\s+)?/.exec(text);
    const inner = this.token(parseTypeTag(text.slice(reference?.[0].length ?? 0), { generics: PARAMETERS }));
    if (reference === null) return inner;
    return { kind: reference[1] ? "mutable_reference" : "reference", to: inner };
  }

  signature(types: readonly string[]): number {
    return this.signatures.add(types.map((t) => this.type(t)));
  }

  function(f: FunctionDeclaration): { handle: FunctionHandle; definition: Omit<FunctionDefinition, "handle"> } {
    const handle = {
      module: 0,
      name: this.identifiers.add(f.name),
      parameters: this.signature(f.params),
      returns: this.signature(f.returns),
      typeParameters: f.typeParameters,
    };
    return { handle, definition: { visibility: f.visibility, isEntry: f.isEntry, isNative: true } };
  }

  struct(s: StructDeclaration, index: number): StructDefinition {
    return {
      handle: index,
      fields: { kind: "declared", fields: s.fields.map((f) => ({ name: this.identifiers.add(f.name), type: this.type(f.type) })) },
    };
  }
}

export function compileModule(decl: ModuleDeclaration, lookup: StructLookup): CompiledModule {
  const c = new ModuleCompiler(decl, lookup);
  const structDefs = decl.structs.map((s, i) => c.struct(s, i));
  const functions = decl.functions.map((f) => c.function(f));
  const friends = decl.friends.map((id) => {
    const [address = "", name = ""] = id.split("::");
    return { address: c.addresses.add(parseAddress(address)), name: c.identifiers.add(name) };
  });
  const viewFunctions = decl.functions.filter((f) => f.isView).map((f) => f.name);
  const eventStructs = decl.structs.filter((s) => s.isEvent).map((s) => s.name);
  return {
    version: FRAMEWORK_BYTECODE_VERSION,
    selfHandle: 0,
    moduleHandles: c.moduleHandles.items,
    structHandles: c.structHandles,
    functionHandles: functions.map((f) => f.handle),
    signatures: c.signatures.items,
    identifiers: c.identifiers.items,
    addresses: c.addresses.items,
    structDefs,
    functionDefs: functions.map((f, i) => ({ handle: i, ...f.definition })),
    friends,
    metadata: viewFunctions.length + eventStructs.length > 0 ? [metadataEntry({ viewFunctions, eventStructs })] : [],
  };
}
