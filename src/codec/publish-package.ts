// A call of 0x1::code::publish_package_txn(owner: &signer, metadata_serialized: vector<u8>, code:
// vector<vector<u8>>) (aptos-move/framework/aptos-framework/sources/code.move) publishing a package of
// minimal modules: each a real CompiledModule with only its own module handle (no structs, no
// functions), which Move accepts as a module (`module 0x42::m {}` compiles to exactly that).
import { bcs } from "@mysten/bcs";
import { parseAddress } from "./address.ts";
import { isIdentifier } from "./bcs-primitives.ts";
import { CodecError } from "./errors.ts";
import type { EntryFunctionInput } from "./bcs.ts";
import { PackageMetadata, UPGRADE_POLICY, type PackageMetadataInput } from "./package-metadata.ts";
import { serializeModule } from "./move-module/index.ts";

/** The bytecode version of the modules built here: the one the framework's modules are written in. */
export const PACKAGE_BYTECODE_VERSION = 7;

const CODE = bcs.vector(bcs.byteVector());
const BYTES = bcs.byteVector();

/** The bytecode of an empty module `address::name`. */
export function minimalModule(address: Uint8Array, name: string): Uint8Array {
  if (!isIdentifier(name)) throw new CodecError(`invalid Move identifier ${JSON.stringify(name)}`);
  return serializeModule({
    version: PACKAGE_BYTECODE_VERSION,
    selfHandle: 0,
    moduleHandles: [{ address: 0, name: 0 }],
    structHandles: [],
    functionHandles: [],
    signatures: [],
    identifiers: [name],
    addresses: [address],
    structDefs: [],
    functionDefs: [],
    friends: [],
    metadata: [],
  });
}

/**
 * Metadata naming `moduleNames` in order, with the compatible upgrade policy (publish_package refuses
 * the arbitrary one) and no sources, manifest, dependencies or extensions.
 */
export function packageMetadata(packageName: string, moduleNames: readonly string[]): PackageMetadataInput {
  return {
    name: packageName,
    upgrade_policy: { policy: UPGRADE_POLICY.compatible },
    upgrade_number: 0n,
    source_digest: "",
    manifest: new Uint8Array(),
    modules: moduleNames.map((name) => ({ name, source: new Uint8Array(), source_map: new Uint8Array(), extension: null })),
    deps: [],
    extension: null,
  };
}

/** publish_package_txn with the given metadata and module bytecodes, as they are (a test may send a mismatch). */
export function publishPackageTxnCall(metadata: PackageMetadataInput, code: readonly Uint8Array[]): EntryFunctionInput {
  return {
    module: { address: parseAddress("0x1"), name: "code" },
    function: "publish_package_txn",
    ty_args: [],
    // Each argument is the BCS of its Move value: a vector<u8> of the metadata's BCS, then vector<vector<u8>>.
    args: [BYTES.serialize(PackageMetadata.serialize(metadata).toBytes()).toBytes(), CODE.serialize([...code]).toBytes()],
  };
}

/** publish_package_txn publishing `packageName` of one minimal module per name at `address` (the sender). */
export function publishPackageCall(address: Uint8Array, packageName: string, moduleNames: readonly string[]): EntryFunctionInput {
  return publishPackageTxnCall(
    packageMetadata(packageName, moduleNames),
    moduleNames.map((name) => minimalModule(address, name)),
  );
}
