// aptos-core's 0x1::code::PackageMetadata as BCS: the first argument of publish_package_txn, which the
// framework reads with util::from_bytes (aptos-move/framework/aptos-framework/sources/code.move:
// PackageMetadata, UpgradePolicy, ModuleMetadata, PackageDep; aptos-stdlib/sources/copyable_any.move:
// Any). BCS writes a struct as its fields in declaration order.
import { bcs } from "@mysten/bcs";
import { AccountAddress, Bytes, U64 } from "./bcs-primitives.ts";

const UTF8 = new TextEncoder();
const LENIENT_UTF8 = new TextDecoder("utf-8");

/**
 * 0x1::string::String is a struct of one vector<u8>: from_bytes checks no UTF-8 (a Move value is
 * deserialized by its layout, aptos-move/framework/src/natives/util.rs), so neither does decoding here.
 * Bytes that are not UTF-8 come out with U+FFFD and so never equal a module's identifier.
 */
export const MoveString = bcs.byteVector().transform({
  name: "0x1::string::String",
  input: (text: string) => UTF8.encode(text),
  output: (bytes) => LENIENT_UTF8.decode(bytes),
});

/** code.move upgrade policies: arbitrary (refused by publish_package since EINCOMPATIBLE_POLICY_DISABLED), compatible, immutable. */
export const UPGRADE_POLICY = { arbitrary: 0, compatible: 1, immutable: 2 } as const;

/** aptos_std::copyable_any::Any. */
export const CopyableAny = bcs.struct("Any", { type_name: MoveString, data: Bytes });

export const ModuleMetadata = bcs.struct("ModuleMetadata", {
  name: MoveString,
  /** Gzipped source text; empty when not provided. */
  source: Bytes,
  /** Source map in compressed BCS; empty when not provided. */
  source_map: Bytes,
  extension: bcs.option(CopyableAny),
});

export const PackageDep = bcs.struct("PackageDep", { account: AccountAddress, package_name: MoveString });

export const PackageMetadata = bcs.struct("PackageMetadata", {
  name: MoveString,
  upgrade_policy: bcs.struct("UpgradePolicy", { policy: bcs.u8() }),
  /** Assigned by the framework on publish; what is sent is overwritten. */
  upgrade_number: U64,
  source_digest: MoveString,
  /** Gzipped Move.toml; empty when not provided. */
  manifest: Bytes,
  modules: bcs.vector(ModuleMetadata),
  deps: bcs.vector(PackageDep),
  extension: bcs.option(CopyableAny),
});
export type PackageMetadata = typeof PackageMetadata.$inferType;
export type PackageMetadataInput = typeof PackageMetadata.$inferInput;
