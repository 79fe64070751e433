// The Move binary format reader and writer (src/codec/move-module/) on modules built table by table:
// what is written reads back the same, the ABI follows aptos-core's rules (exposed functions, metadata
// attributes, enums, version 5 attributes cleared), and a bytecode that cannot be read says why:
// MalformedModule for a broken module, UnsupportedModule for one newer than the reader knows.

import { describe, expect, it } from "vitest";
import { ByteReader } from "../../src/codec/move-module/byte-reader.ts";
import { skipCodeUnit } from "../../src/codec/move-module/code.ts";
import {
  abiOfBytecode,
  deserializeModule,
  metadataEntry,
  moduleAbi,
  parseAddress,
  serializeModule,
  structEnumAbis,
  MalformedModule,
  UnsupportedModule,
  type CompiledModule,
} from "../../src/codec/index.ts";

/** module 0x1::demo { struct Box<T: copy> has store { v: T } ; enum E has drop { A, B{x: u8} } ; functions below } */
function demo(version: number, overrides: Partial<CompiledModule> = {}): CompiledModule {
  return {
    version,
    selfHandle: 0,
    moduleHandles: [
      { address: 0, name: 0 },
      { address: 0, name: 1 },
    ],
    structHandles: [
      { module: 0, name: 2, abilities: ["store"], typeParameters: [{ constraints: ["copy"], isPhantom: false }] },
      { module: 0, name: 3, abilities: ["drop"], typeParameters: [] },
      { module: 1, name: 4, abilities: ["copy", "drop", "store"], typeParameters: [] },
    ],
    functionHandles: [
      { module: 0, name: 5, parameters: 1, returns: 0, typeParameters: [["copy", "drop"]] },
      { module: 0, name: 6, parameters: 2, returns: 3, typeParameters: [] },
      { module: 0, name: 7, parameters: 0, returns: 0, typeParameters: [] },
      { module: 0, name: 8, parameters: 0, returns: 3, typeParameters: [] },
    ],
    signatures: [
      [],
      [{ kind: "mutable_reference", to: { kind: "struct", handle: 0, typeArguments: [{ kind: "type_parameter", index: 0 }] } }],
      [
        { kind: "reference", to: { kind: "signer" } },
        { kind: "vector", element: { kind: "struct", handle: 2, typeArguments: [] } },
      ],
      [{ kind: "u256" }],
    ],
    identifiers: ["demo", "string", "Box", "E", "String", "put", "run", "hidden", "peek", "v", "A", "B", "x"],
    addresses: [parseAddress("0x1")],
    structDefs:
      version >= 7
        ? [
            { handle: 0, fields: { kind: "declared", fields: [{ name: 9, type: { kind: "type_parameter", index: 0 } }] } },
            {
              handle: 1,
              fields: {
                kind: "variants",
                variants: [
                  { name: 10, fields: [] },
                  { name: 11, fields: [{ name: 12, type: { kind: "u8" } }] },
                ],
              },
            },
          ]
        : [{ handle: 0, fields: { kind: "declared", fields: [{ name: 9, type: { kind: "type_parameter", index: 0 } }] } }],
    functionDefs: [
      { handle: 0, visibility: "public", isEntry: false, isNative: true },
      { handle: 1, visibility: "private", isEntry: true, isNative: true },
      { handle: 2, visibility: "private", isEntry: false, isNative: true },
      { handle: 3, visibility: "friend", isEntry: false, isNative: true },
    ],
    friends: [{ address: 0, name: 1 }],
    metadata: [metadataEntry({ viewFunctions: ["peek"], eventStructs: ["Box"] })],
    ...overrides,
  };
}

describe("a module written by the serializer", () => {
  for (const version of [6, 7, 8]) {
    it(`reads back table for table (version ${version})`, () => {
      const module = demo(version);
      const bytes = serializeModule(module);
      // From version 7 Aptos writes the version with its mask 0x0a000000 (serializer.rs).
      expect([...bytes.subarray(0, 8)]).toEqual([0xa1, 0x1c, 0xeb, 0x0b, version, 0, 0, version >= 7 ? 0x0a : 0]);
      expect(deserializeModule(bytes)).toEqual(module);
    });
  }

  it("reads a version 8 function handle's attributes (Persistent, ModuleLock) past", () => {
    const handles = demo(8).functionHandles.map((h, i) => (i === 0 ? { ...h, attributes: [0x1, 0x2] } : h));
    const module = demo(8, { functionHandles: handles });
    expect(deserializeModule(serializeModule(module))).toEqual(module);
    expect(abiOfBytecode(serializeModule(module)).exposed_functions.map((f) => f.name)).toEqual(["put", "run", "peek"]);
  });

  it("has the ABI aptos-core derives: public, friend and entry functions; attributes from the metadata; MoveType text", () => {
    const abi = abiOfBytecode(serializeModule(demo(7)));
    expect(abi.address).toBe("0x1");
    expect(abi.name).toBe("demo");
    expect(abi.friends).toEqual(["0x1::string"]);
    expect(abi.exposed_functions.map((f) => f.name)).toEqual(["put", "run", "peek"]); // `hidden` is private, not entry
    expect(abi.exposed_functions[0]).toEqual({
      name: "put",
      visibility: "public",
      is_entry: false,
      is_view: false,
      generic_type_params: [{ constraints: ["copy", "drop"] }],
      params: ["&mut 0x1::demo::Box<T0>"],
      return: [],
    });
    expect(abi.exposed_functions[1]).toMatchObject({
      visibility: "private",
      is_entry: true,
      params: ["&signer", "vector<0x1::string::String>"],
      return: ["u256"],
    });
    expect(abi.exposed_functions[2]).toMatchObject({ visibility: "friend", is_view: true });
    expect(abi.structs[0]).toEqual({
      name: "Box",
      is_native: false,
      is_event: true,
      abilities: ["store"],
      generic_type_params: [{ constraints: ["copy"] }],
      fields: [{ name: "v", type: "T0" }],
    });
    // An enum: aptos-core lists it with no fields (api/types/src/bytecode.rs, TODO #13806).
    expect(abi.structs[1]).toMatchObject({ name: "E", is_native: false, abilities: ["drop"], fields: [] });
  });

  it("ignores the attributes of a version 5 module, as aptos-core clears them", () => {
    const v5 = demo(5, { signatures: demo(5).signatures.map((s) => s.map((t) => (t.kind === "u256" ? { kind: "u64" } : t))) });
    const abi = abiOfBytecode(serializeModule({ ...v5, version: 6 }));
    expect(abi.exposed_functions.find((f) => f.name === "peek")?.is_view).toBe(true);
    const bytes = serializeModule({ ...v5, version: 5 });
    const read = abiOfBytecode(bytes);
    expect(read.exposed_functions.find((f) => f.name === "peek")?.is_view).toBe(false);
    expect(read.structs[0]?.is_event).toBe(false);
  });
});

describe("function bodies", () => {
  // locals 0; 7 instructions: PACK_CLOSURE 3 mask 2^63 (10-byte ULEB), CALL_CLOSURE 1, LD_I8 -1, LD_I256, NEGATE, ABORT_MSG, RET
  const body = [
    0x00,
    0x07,
    0x58,
    0x03,
    ...[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
    0x5a,
    0x01,
    0x5b,
    0xff,
    0x60,
    ...new Array<number>(32).fill(7),
    0x61,
    0x68,
    0x02,
  ];
  const read = (version: number) => {
    const reader = new ByteReader(new Uint8Array(body), "code");
    skipCodeUnit(reader, version);
    return reader.done;
  };

  it("are read past instruction by instruction, closures and signed integers included, in the versions that have them", () => {
    expect(read(10)).toBe(true);
    expect(() => read(8)).toThrow(MalformedModule); // LD_I8 needs version 9
  });

  it("with an opcode no version knows are malformed up to version 7, beyond the reader after it", () => {
    const unknown = new Uint8Array([0x00, 0x01, 0x7f]);
    expect(() => skipCodeUnit(new ByteReader(unknown, "code"), 7)).toThrow(MalformedModule);
    expect(() => skipCodeUnit(new ByteReader(unknown, "code"), 10)).toThrow(UnsupportedModule);
  });
});

describe("a bytecode the reader cannot read", () => {
  const good = serializeModule(demo(7));
  const withByte = (at: number, value: number) => {
    const copy = new Uint8Array(good);
    copy[at] = value;
    return copy;
  };

  it("is unsupported when its version is newer than the reader knows", () => {
    expect(() => deserializeModule(withByte(4, 11))).toThrow(UnsupportedModule);
  });

  it("is unsupported when a later version uses a signature token the reader does not know (a function type)", () => {
    // Where the u256 token (0x0f) of signature 3 lies: the one byte that differs from the same module with u8 there.
    const tokenAt = (version: number) => {
      const bytes = serializeModule(demo(version));
      const withU8 = serializeModule(demo(version, { signatures: [...demo(version).signatures.slice(0, 3), [{ kind: "u8" }]] }));
      const at = bytes.findIndex((byte, i) => byte !== withU8[i]);
      expect([bytes[at], withU8[at]]).toEqual([0x0f, 0x02]);
      const changed = new Uint8Array(bytes);
      changed[at] = 0x10; // FUNCTION
      return changed;
    };
    expect(() => deserializeModule(tokenAt(8))).toThrow(UnsupportedModule);
    expect(() => deserializeModule(tokenAt(7))).toThrow(MalformedModule);
  });

  it("is unsupported when a version 8 function carries an attribute the reader does not know", () => {
    const handles = demo(8).functionHandles.map((h, i) => (i === 0 ? { ...h, attributes: [0x7] } : h));
    expect(() => deserializeModule(serializeModule(demo(8, { functionHandles: handles })))).toThrow(UnsupportedModule);
  });

  it("is malformed when the magic is wrong, a table is cut, or bytes follow the module", () => {
    expect(() => deserializeModule(withByte(0, 0x00))).toThrow(MalformedModule);
    expect(() => deserializeModule(good.subarray(0, good.length - 10))).toThrow(MalformedModule);
    expect(() => deserializeModule(new Uint8Array([...good, 0]))).toThrow(MalformedModule);
    expect(() => deserializeModule(withByte(4, 4))).toThrow(MalformedModule);
  });

  it("is malformed when an index points outside its table", () => {
    expect(() => deserializeModule(serializeModule(demo(7, { selfHandle: 9 })))).toThrow(MalformedModule);
    expect(() => abiOfBytecode(serializeModule(demo(7, { structHandles: demo(7).structHandles.slice(0, 2) })))).toThrow(MalformedModule);
  });
});

describe("structEnumAbis: aptos-core's is_enum and variants, beside moduleAbi", () => {
  it("names an enum's variants with their fields, and gives every other struct is_enum false and no variants", () => {
    const module = demo(7);
    expect(structEnumAbis(module)).toEqual([
      { is_enum: false, variants: [] },
      {
        is_enum: true,
        variants: [
          { name: "A", fields: [] },
          { name: "B", fields: [{ name: "x", type: "u8" }] },
        ],
      },
    ]);
    // Aligned with moduleAbi's structs, whose own members stay as they are.
    expect(moduleAbi(module).structs.map((s) => s.name)).toEqual(["Box", "E"]);
    expect(moduleAbi(module).structs[1]).not.toHaveProperty("is_enum");
  });
});
