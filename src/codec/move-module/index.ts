// Move modules in the binary format: read (deserializeModule), written (serializeModule), and the ABI
// aptos-core derives from them (moduleAbi, abiOfBytecode).
import { moduleAbi, type MoveModuleAbi } from "./abi.ts";
import { deserializeModule } from "./deserialize.ts";

export { deserializeModule, bytecodeVersion } from "./deserialize.ts";
export { serializeModule } from "./serialize.ts";
export {
  deserializeScript,
  serializeScript,
  passThroughCall,
  passThroughScript,
  type CompiledScript,
  type Instruction,
  type ScriptCallTarget,
} from "./script.ts";
export {
  moduleAbi,
  scriptAbi,
  structEnumAbis,
  isExposed,
  type MoveModuleAbi,
  type MoveFunctionAbi,
  type MoveStructAbi,
  type MoveStructEnumAbi,
  type MoveStructVariantAbi,
  type MoveFunctionGenericTypeParam,
} from "./abi.ts";
export { metadataEntry, markedNames } from "./metadata.ts";
export { MalformedModule, UnsupportedModule } from "./errors.ts";
export * from "./format.ts";

/** The ABI of a module's bytecode (throws MalformedModule or UnsupportedModule when it cannot be read). */
export function abiOfBytecode(bytes: Uint8Array): MoveModuleAbi {
  return moduleAbi(deserializeModule(bytes));
}
