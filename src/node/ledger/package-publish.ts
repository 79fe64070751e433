// 0x1::code::publish_package_txn: the modules of a package become the sender's at the transaction's
// version. The checks and their statuses are aptos-core's, in its order:
// - util::from_bytes<PackageMetadata> of the metadata aborts in 0x1::util with EFROM_BYTES (0x10001)
//   when it is not one (aptos-move/framework/src/natives/util.rs);
// - publish_package aborts with EINCOMPATIBLE_POLICY_DISABLED (0x10008) for the arbitrary upgrade
//   policy (aptos-move/framework/aptos-framework/sources/code.move);
// - then the VM resolves the publish request (aptos-move/aptos-vm/src/aptos_vm.rs): every module must
//   deserialize (deserialize_module_bundle: CODE_DESERIALIZATION_ERROR); the bundle's module names must
//   be the metadata's, as a set, each module once (validate_publish_request: CONSTRAINT_NOT_SATISFIED,
//   "metadata and code bundle mismatch"); every module's self address must be the sender's
//   (StagingModuleStorage: MODULE_ADDRESS_DOES_NOT_MATCH_SENDER).
// The node keeps no PackageRegistry: the dependency and upgrade checks of code.move (deps, coexistence
// with other packages, upgrade policy of the old package) are not made, and a module of a name already
// published at the sender is replaced by the new one from this version on. No bytecode verifier runs.

import { bcs } from "@mysten/bcs";
import {
  Bytes,
  bytesEqual,
  CodecError,
  decodeBcs,
  deserializeModule,
  formatAddress,
  isIdentifier,
  moduleAbi,
  PackageMetadata,
  UPGRADE_POLICY,
  type CompiledModule,
  type MoveModuleAbi,
} from "../../codec/index.ts";
import { abort, fail } from "./execution-failure.ts";
import { GAS } from "./gas-schedule.ts";
import type { TransactionOverlay } from "./transaction-overlay.ts";

const CODE = bcs.vector(Bytes);
/** Names longer than this are cut in a VM status: it is served back to any reader. */
const MAX_NAME_SHOWN = 64;

interface ReadModule {
  readonly bytecode: Uint8Array;
  readonly address: Uint8Array;
  readonly name: string;
  readonly abi: MoveModuleAbi;
}

const shown = (name: string): string => (name.length > MAX_NAME_SHOWN ? `${name.slice(0, MAX_NAME_SHOWN)}…` : name);

/**
 * Publishes into `effects`; returns the gas it used. `args` are the call's two arguments, already
 * checked to be a vector<u8> and a vector<vector<u8>> against the function's ABI. Throws Failure.
 */
export function publishPackage(sender: Uint8Array, args: readonly [Uint8Array, Uint8Array], effects: TransactionOverlay): bigint {
  const metadataBytes = decodeBcs(Bytes, args[0]);
  const code = decodeBcs(CODE, args[1]);
  let metadata: PackageMetadata;
  try {
    metadata = decodeBcs(PackageMetadata, metadataBytes);
  } catch {
    return abort("util", "EFROM_BYTES", 0x10001, "the package metadata is not a 0x1::code::PackageMetadata");
  }
  if (metadata.upgrade_policy.policy <= UPGRADE_POLICY.arbitrary)
    abort("code", "EINCOMPATIBLE_POLICY_DISABLED", 0x10008, "Creating a package with incompatible upgrade policy is disabled.");

  const modules = code.map(readModule);
  const expected = new Set(metadata.modules.map((m) => m.name));
  for (const m of modules)
    if (!expected.delete(m.name))
      fail("CONSTRAINT_NOT_SATISFIED", `metadata and code bundle mismatch: unregistered module: '${shown(m.name)}'`);
  if (expected.size > 0) fail("CONSTRAINT_NOT_SATISFIED", "metadata and code bundle mismatch: not all registered modules published");
  for (const m of modules)
    if (!bytesEqual(m.address, sender))
      fail(
        "MODULE_ADDRESS_DOES_NOT_MATCH_SENDER",
        `Compiled modules address ${formatAddress(m.address)} does not match the sender ${formatAddress(sender)}`,
      );

  let codeBytes = 0;
  for (const m of modules) {
    effects.setModule(sender, m.name, { bytecode: m.bytecode, abi: m.abi });
    codeBytes += m.bytecode.length;
  }
  return GAS.publishPackage + GAS.publishPerCodeByte * BigInt(codeBytes);
}

/** A module of the bundle, or CODE_DESERIALIZATION_ERROR (an identifier aptos-core's deserializer refuses included). */
function readModule(bytecode: Uint8Array, index: number): ReadModule {
  let m: CompiledModule;
  let abi: MoveModuleAbi;
  try {
    m = deserializeModule(bytecode);
    abi = moduleAbi(m);
  } catch (error) {
    // MalformedModule or UnsupportedModule: a module this node cannot read is one it cannot serve.
    if (!(error instanceof CodecError)) throw error;
    return fail("CODE_DESERIALIZATION_ERROR", `module ${index} of the bundle: ${error.message.slice(0, 200)}`);
  }
  if (!m.identifiers.every(isIdentifier))
    fail("CODE_DESERIALIZATION_ERROR", `module ${index} of the bundle: an identifier is not a Move identifier`);
  const self = m.moduleHandles[m.selfHandle] as { address: number; name: number };
  return {
    bytecode,
    address: m.addresses[self.address] as Uint8Array,
    name: m.identifiers[self.name] as string,
    abi,
  };
}
