// The publish_package_txn builder: its modules are real modules at the given address with the given
// names (they read back through the codec's own reader and ABI), its metadata is aptos-core's
// PackageMetadata BCS (decodes back, fields in code.move's order), and its arguments are the BCS of
// vector<u8> and vector<vector<u8>>.

import { bcs } from "@mysten/bcs";
import { describe, expect, it } from "vitest";
import {
  abiOfBytecode,
  bytecodeVersion,
  decodeBcs,
  deserializeModule,
  formatAddress,
  minimalModule,
  PackageMetadata,
  packageMetadata,
  parseAddress,
  publishPackageCall,
  CodecError,
} from "../../src/codec/index.ts";

const ACCOUNT = parseAddress("0xcafe0000000000000000000000000000000000000000000000000000000000aa");

describe("minimalModule", () => {
  it("is a version 7 module whose self handle is the address and name, with nothing else", () => {
    const bytes = minimalModule(ACCOUNT, "walker_1");
    expect(bytecodeVersion(bytes)).toBe(7);
    const m = deserializeModule(bytes);
    const self = m.moduleHandles[m.selfHandle];
    expect(m.addresses[self?.address ?? -1]).toEqual(ACCOUNT);
    expect(m.identifiers[self?.name ?? -1]).toBe("walker_1");
    expect([m.structDefs.length, m.functionDefs.length, m.friends.length]).toEqual([0, 0, 0]);
    expect(abiOfBytecode(bytes)).toEqual({
      address: formatAddress(ACCOUNT),
      name: "walker_1",
      friends: [],
      exposed_functions: [],
      structs: [],
    });
  });

  it("refuses a name that is not a Move identifier", () => {
    expect(() => minimalModule(ACCOUNT, "no-dash")).toThrow(CodecError);
    expect(() => minimalModule(ACCOUNT, "")).toThrow(CodecError);
  });
});

describe("publishPackageCall", () => {
  const call = publishPackageCall(ACCOUNT, "load_pkg", ["a_mod", "b_mod"]);
  const [metadataArg = new Uint8Array(), codeArg = new Uint8Array()] = call.args as Uint8Array[];

  it("calls 0x1::code::publish_package_txn with two arguments and no type arguments", () => {
    expect(formatAddress(call.module.address as Uint8Array)).toBe("0x1");
    expect([call.module.name, call.function, call.ty_args.length, call.args.length]).toEqual(["code", "publish_package_txn", 0, 2]);
  });

  it("sends one module per name, in order, each at the address", () => {
    const code = decodeBcs(bcs.vector(bcs.byteVector()), codeArg);
    expect(code.map((bytes) => abiOfBytecode(Uint8Array.from(bytes)).name)).toEqual(["a_mod", "b_mod"]);
    expect(code.map((bytes) => abiOfBytecode(Uint8Array.from(bytes)).address)).toEqual([formatAddress(ACCOUNT), formatAddress(ACCOUNT)]);
  });

  it("sends PackageMetadata BCS inside a vector<u8> that decodes back to what was built", () => {
    const metadataBytes = Uint8Array.from(decodeBcs(bcs.byteVector(), metadataArg));
    const metadata = decodeBcs(PackageMetadata, metadataBytes);
    expect(metadata).toEqual({
      name: "load_pkg",
      upgrade_policy: { policy: 1 },
      upgrade_number: 0n,
      source_digest: "",
      manifest: new Uint8Array(),
      modules: ["a_mod", "b_mod"].map((name) => ({ name, source: new Uint8Array(), source_map: new Uint8Array(), extension: null })),
      deps: [],
      extension: null,
    });
    // Field order of code.move: name, upgrade_policy.policy, upgrade_number, source_digest, manifest, modules, deps, extension.
    const text = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];
    const noSourceNoMapNoExtension = [0, 0, 0];
    const expected = [
      ...text("load_pkg"),
      1,
      ...[0, 0, 0, 0, 0, 0, 0, 0],
      ...text(""),
      0,
      ...[2, ...text("a_mod"), ...noSourceNoMapNoExtension, ...text("b_mod"), ...noSourceNoMapNoExtension],
      0,
      0,
    ];
    expect([...metadataBytes]).toEqual(expected);
    expect(PackageMetadata.serialize(packageMetadata("load_pkg", ["a_mod", "b_mod"])).toBytes()).toEqual(metadataBytes);
  });
});
