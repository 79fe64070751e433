// Why a bytecode could not be read: it is not a well-formed module of a version this reader knows
// (MalformedModule), or it uses a version or a construct newer than this reader knows (UnsupportedModule:
// a future version is no evidence of a wrong bytecode, so a check that meets one is not applicable).
import { CodecError } from "../errors.ts";

export class MalformedModule extends CodecError {
  override readonly name = "MalformedModule";
}

export class UnsupportedModule extends CodecError {
  override readonly name = "UnsupportedModule";
}
