// The Move binary format's constants and the tables of a compiled module this codec reads and writes:
// what an ABI is derived from. Table kinds, type tokens, ability bits and flags as aptos-core defines
// them in third_party/move/move-binary-format/src/file_format_common.rs (constants) and file_format.rs
// (the tables). Versions 5 to 10 are read, but for function types (version 8) and signed integers
// (version 9) in signatures, whose ABI text this reader does not write: a module using those, or a
// construct newer still, is beyond it.

export const MOVE_MAGIC = new Uint8Array([0xa1, 0x1c, 0xeb, 0x0b]);

/**
 * Aptos writes the version of a version 7 or later module with this mask (serializer.rs
 * serialize_header: APTOS_BYTECODE_VERSION_MASK | major_version); the reader clears it
 * (file_format_common.rs: `v & !APTOS_BYTECODE_VERSION_MASK`).
 */
export const APTOS_BYTECODE_VERSION_MASK = 0x0a000000;

/** The oldest version aptos-core still reads (VERSION_MIN), and the newest the serializer writes. */
export const VERSION_MIN = 5;
export const VERSION_WRITTEN_MAX = 8;
/** Versions this reader accepts: past version 7, a module reads only while it uses no construct the reader lacks. */
export const VERSION_MAX = 10;

/** Table kinds (TableType). */
export const TABLE = {
  MODULE_HANDLES: 0x1,
  STRUCT_HANDLES: 0x2,
  FUNCTION_HANDLES: 0x3,
  FUNCTION_INST: 0x4,
  SIGNATURES: 0x5,
  CONSTANT_POOL: 0x6,
  IDENTIFIERS: 0x7,
  ADDRESS_IDENTIFIERS: 0x8,
  STRUCT_DEFS: 0xa,
  STRUCT_DEF_INST: 0xb,
  FUNCTION_DEFS: 0xc,
  FIELD_HANDLES: 0xd,
  FIELD_INST: 0xe,
  FRIEND_DECLS: 0xf,
  METADATA: 0x10,
  VARIANT_FIELD_HANDLES: 0x11,
  VARIANT_FIELD_INST: 0x12,
  STRUCT_VARIANT_HANDLES: 0x13,
  STRUCT_VARIANT_INST: 0x14,
} as const;

/** Signature token tags (SerializedType). */
export const TOKEN = {
  BOOL: 0x1,
  U8: 0x2,
  U64: 0x3,
  U128: 0x4,
  ADDRESS: 0x5,
  REFERENCE: 0x6,
  MUTABLE_REFERENCE: 0x7,
  STRUCT: 0x8,
  TYPE_PARAMETER: 0x9,
  VECTOR: 0xa,
  STRUCT_INST: 0xb,
  SIGNER: 0xc,
  U16: 0xd,
  U32: 0xe,
  U256: 0xf,
} as const;

/** Ability bits of an AbilitySet, in the order aptos-core lists them (AbilitySet iteration). */
export const ABILITIES = [
  ["copy", 0x1],
  ["drop", 0x2],
  ["store", 0x4],
  ["key", 0x8],
] as const;
export type Ability = (typeof ABILITIES)[number][0];

/** Struct definition kinds (SerializedNativeStructFlag). */
export const STRUCT_KIND = { NATIVE: 0x1, DECLARED: 0x2, DECLARED_VARIANTS: 0x3 } as const;

/** Visibility bytes (Visibility) and function definition flags (FunctionDefinition::NATIVE, ENTRY). */
export const VISIBILITY = { private: 0x0, public: 0x1, friend: 0x3 } as const;
export type Visibility = keyof typeof VISIBILITY;
export const FUNCTION_FLAG = { NATIVE: 0x2, ENTRY: 0x4 } as const;

/** Function attributes of version 8 function handles (SerializedFunctionAttribute: Persistent, ModuleLock). */
export const FUNCTION_ATTRIBUTES: readonly number[] = [0x1, 0x2];

/** SerializedOption / SerializedBool (access specifiers of version 7 function handles). */
export const OPTION = { NONE: 0x1, SOME: 0x2 } as const;

/** A type in a signature (SignatureToken); struct tokens index the struct handles. */
export type SignatureToken =
  | { readonly kind: "bool" | "u8" | "u16" | "u32" | "u64" | "u128" | "u256" | "address" | "signer" }
  | { readonly kind: "vector"; readonly element: SignatureToken }
  | { readonly kind: "reference" | "mutable_reference"; readonly to: SignatureToken }
  | { readonly kind: "struct"; readonly handle: number; readonly typeArguments: readonly SignatureToken[] }
  | { readonly kind: "type_parameter"; readonly index: number };

export interface ModuleHandle {
  readonly address: number;
  readonly name: number;
}

export interface StructTypeParameter {
  readonly constraints: readonly Ability[];
  readonly isPhantom: boolean;
}

export interface StructHandle {
  readonly module: number;
  readonly name: number;
  readonly abilities: readonly Ability[];
  readonly typeParameters: readonly StructTypeParameter[];
}

export interface FunctionHandle {
  readonly module: number;
  readonly name: number;
  readonly parameters: number;
  readonly returns: number;
  readonly typeParameters: readonly (readonly Ability[])[];
  /** Version 8 function attributes, as their bytes. */
  readonly attributes?: readonly number[];
}

export interface FieldDefinition {
  readonly name: number;
  readonly type: SignatureToken;
}

export type StructFields =
  | { readonly kind: "native" }
  | { readonly kind: "declared"; readonly fields: readonly FieldDefinition[] }
  | { readonly kind: "variants"; readonly variants: readonly { readonly name: number; readonly fields: readonly FieldDefinition[] }[] };

export interface StructDefinition {
  readonly handle: number;
  readonly fields: StructFields;
}

export interface FunctionDefinition {
  readonly handle: number;
  readonly visibility: Visibility;
  readonly isEntry: boolean;
  readonly isNative: boolean;
}

export interface MetadataEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/** The tables of a compiled module an ABI is derived from (the rest is read past, not kept). */
export interface CompiledModule {
  readonly version: number;
  readonly selfHandle: number;
  readonly moduleHandles: readonly ModuleHandle[];
  readonly structHandles: readonly StructHandle[];
  readonly functionHandles: readonly FunctionHandle[];
  readonly signatures: readonly (readonly SignatureToken[])[];
  readonly identifiers: readonly string[];
  readonly addresses: readonly Uint8Array[];
  readonly structDefs: readonly StructDefinition[];
  readonly functionDefs: readonly FunctionDefinition[];
  readonly friends: readonly ModuleHandle[];
  readonly metadata: readonly MetadataEntry[];
}
