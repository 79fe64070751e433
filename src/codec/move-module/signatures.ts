// The SIGNATURES table and the signature tokens other tables embed (field types): load_signature_token
// of aptos-core's deserializer.rs, with its depth limit. Function types (token 0x10, version 8) and
// signed integers (0x11..0x16, version 9) are beyond this reader: an UnsupportedModule.
import { type ByteReader, LIMIT } from "./byte-reader.ts";
import { UnsupportedModule } from "./errors.ts";
import { TOKEN, type SignatureToken } from "./format.ts";

const PRIMITIVE: Readonly<Record<number, SignatureToken["kind"]>> = {
  [TOKEN.BOOL]: "bool",
  [TOKEN.U8]: "u8",
  [TOKEN.U16]: "u16",
  [TOKEN.U32]: "u32",
  [TOKEN.U64]: "u64",
  [TOKEN.U128]: "u128",
  [TOKEN.U256]: "u256",
  [TOKEN.ADDRESS]: "address",
  [TOKEN.SIGNER]: "signer",
};

const PRIMITIVE_TAG = new Map(Object.entries(PRIMITIVE).map(([tag, kind]) => [kind, Number(tag)]));

export function readSignatureToken(reader: ByteReader, version: number, depth = 0): SignatureToken {
  if (depth > LIMIT.SIGNATURE_TOKEN_DEPTH) reader.fail("signature token nested too deep");
  const tag = reader.u8();
  if ((tag === TOKEN.U16 || tag === TOKEN.U32 || tag === TOKEN.U256) && version < 6)
    reader.fail(`u16, u32 and u256 need version 6 (module is ${version})`);
  const primitive = PRIMITIVE[tag];
  if (primitive !== undefined) return { kind: primitive } as SignatureToken;
  switch (tag) {
    case TOKEN.VECTOR:
      return { kind: "vector", element: readSignatureToken(reader, version, depth + 1) };
    case TOKEN.REFERENCE:
      return { kind: "reference", to: readSignatureToken(reader, version, depth + 1) };
    case TOKEN.MUTABLE_REFERENCE:
      return { kind: "mutable_reference", to: readSignatureToken(reader, version, depth + 1) };
    case TOKEN.STRUCT:
      return { kind: "struct", handle: reader.uleb(LIMIT.TABLE_INDEX), typeArguments: [] };
    case TOKEN.STRUCT_INST: {
      const handle = reader.uleb(LIMIT.TABLE_INDEX);
      const arity = reader.uleb(LIMIT.TYPE_PARAMETER_COUNT);
      if (arity === 0) reader.fail("struct instantiation with no type arguments");
      const typeArguments = Array.from({ length: arity }, () => readSignatureToken(reader, version, depth + 1));
      return { kind: "struct", handle, typeArguments };
    }
    case TOKEN.TYPE_PARAMETER:
      return { kind: "type_parameter", index: reader.uleb(LIMIT.TYPE_PARAMETER_INDEX) };
    default:
      if (version > 7 && tag <= 0x16)
        throw new UnsupportedModule(
          `signature token 0x${tag.toString(16)} (function types and signed integers, version ${version}) is beyond this reader`,
        );
      return reader.fail(`unknown signature token 0x${tag.toString(16)}`);
  }
}

/** One entry of the SIGNATURES table: a count, then that many tokens. */
export function readSignature(reader: ByteReader, version: number): SignatureToken[] {
  const length = reader.uleb(LIMIT.SIGNATURE_SIZE);
  return Array.from({ length }, () => readSignatureToken(reader, version));
}

export function writeSignatureToken(out: number[], token: SignatureToken): void {
  switch (token.kind) {
    case "vector":
      out.push(TOKEN.VECTOR);
      return writeSignatureToken(out, token.element);
    case "reference":
    case "mutable_reference":
      out.push(token.kind === "reference" ? TOKEN.REFERENCE : TOKEN.MUTABLE_REFERENCE);
      return writeSignatureToken(out, token.to);
    case "struct":
      if (token.typeArguments.length === 0) {
        out.push(TOKEN.STRUCT);
        writeUleb(out, token.handle);
        return;
      }
      out.push(TOKEN.STRUCT_INST);
      writeUleb(out, token.handle);
      writeUleb(out, token.typeArguments.length);
      for (const argument of token.typeArguments) writeSignatureToken(out, argument);
      return;
    case "type_parameter":
      out.push(TOKEN.TYPE_PARAMETER);
      writeUleb(out, token.index);
      return;
    default:
      out.push(PRIMITIVE_TAG.get(token.kind) ?? 0);
  }
}

export function writeSignature(out: number[], tokens: readonly SignatureToken[]): void {
  writeUleb(out, tokens.length);
  for (const token of tokens) writeSignatureToken(out, token);
}

/** ULEB128, as write_u64_as_uleb128 of file_format_common.rs. */
export function writeUleb(out: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}
