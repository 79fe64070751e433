// MoveType strings (§2.1) to TypeTag and back, with a small tokenizer: blanks between tokens are
// ignored, anything else that does not form a type is a CodecError.
import { formatAddress, parseAddress } from "./address.ts";
import { isIdentifier } from "./bcs-primitives.ts";
import type { StructTag, TypeTag } from "./bcs.ts";
import { CodecError } from "./errors.ts";
import { quote } from "./hex.ts";

/** Deeper nesting than this is rejected, so hostile input cannot exhaust the stack. */
export const MAX_TYPE_DEPTH = 64;

type Token = { kind: "word" | "address" | "::" | "<" | ">" | ","; text: string; at: number };

const TOKEN = /(0x[0-9a-fA-F]+)|([A-Za-z_][A-Za-z0-9_]*)|(::|[<>,])/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    if (/\s/.test(text.charAt(at))) {
      at++;
      continue;
    }
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(text);
    if (!match) throw new CodecError(`type ${quote(text)}: unexpected character at ${at}`);
    const [, address, word, punct] = match;
    if (address !== undefined) tokens.push({ kind: "address", text: address, at });
    else if (word !== undefined) tokens.push({ kind: "word", text: word, at });
    else tokens.push({ kind: punct as "::" | "<" | ">" | ",", text: punct ?? "", at });
    at = TOKEN.lastIndex;
  }
  return tokens;
}

const PRIMITIVES = new Map<string, TypeTag>(
  Object.entries({
    bool: { Bool: true, $kind: "Bool" },
    u8: { U8: true, $kind: "U8" },
    u16: { U16: true, $kind: "U16" },
    u32: { U32: true, $kind: "U32" },
    u64: { U64: true, $kind: "U64" },
    u128: { U128: true, $kind: "U128" },
    u256: { U256: true, $kind: "U256" },
    address: { Address: true, $kind: "Address" },
    signer: { Signer: true, $kind: "Signer" },
  } satisfies Record<string, TypeTag>),
);

class Parser {
  private next = 0;
  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
    private readonly generics: readonly TypeTag[] | undefined,
  ) {}

  fail(message: string): never {
    throw new CodecError(`type ${quote(this.source)}: ${message}`);
  }

  take(): Token {
    const token = this.tokens[this.next++];
    return token ?? this.fail("unexpected end");
  }

  expect(kind: Token["kind"]): Token {
    const token = this.take();
    return token.kind === kind ? token : this.fail(`expected ${kind} at ${token.at}, found ${quote(token.text)}`);
  }

  identifier(): string {
    const token = this.expect("word");
    return isIdentifier(token.text) ? token.text : this.fail(`invalid identifier ${quote(token.text)}`);
  }

  peek(kind: Token["kind"]): boolean {
    return this.tokens[this.next]?.kind === kind;
  }

  done(): boolean {
    return this.next === this.tokens.length;
  }

  type(depth: number): TypeTag {
    if (depth > MAX_TYPE_DEPTH) this.fail(`nested deeper than ${MAX_TYPE_DEPTH}`);
    const token = this.take();
    if (token.kind === "address") return { Struct: this.struct(token, depth), $kind: "Struct" };
    if (token.kind !== "word") return this.fail(`expected a type at ${token.at}, found ${quote(token.text)}`);
    const primitive = PRIMITIVES.get(token.text);
    if (primitive) return structuredClone(primitive);
    if (token.text === "vector") {
      this.expect("<");
      const element = this.type(depth + 1);
      this.expect(">");
      return { Vector: element, $kind: "Vector" };
    }
    const generic = /^T(\d+)$/.exec(token.text);
    if (generic && this.generics) {
      const bound = this.generics[Number(generic[1])];
      return bound ? structuredClone(bound) : this.fail(`no type argument for ${token.text}`);
    }
    return this.fail(`unknown type ${quote(token.text)} at ${token.at}`);
  }

  struct(address: Token, depth: number): StructTag {
    const bytes = parseAddress(address.text);
    this.expect("::");
    const module = this.identifier();
    this.expect("::");
    const name = this.identifier();
    const type_args: TypeTag[] = [];
    if (this.peek("<")) {
      this.take();
      for (;;) {
        type_args.push(this.type(depth + 1));
        if (!this.peek(",")) break;
        this.take();
      }
      this.expect(">");
    }
    return { address: bytes, module, name, type_args };
  }
}

/**
 * Parses a MoveType. With `generics`, T0, T1, … stand for those types (for ABI parameter types);
 * without, they are errors.
 */
export function parseTypeTag(text: string, options: { generics?: readonly TypeTag[] } = {}): TypeTag {
  if (typeof text !== "string") throw new CodecError("type: expected a string");
  const parser = new Parser(text, tokenize(text), options.generics);
  const tag = parser.type(0);
  if (!parser.done()) parser.fail("unexpected text after the type");
  return tag;
}

/** Canonical form: `vector<u8>`, `0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>` (AIP-40 addresses, ", " between arguments). */
export function formatTypeTag(tag: TypeTag): string {
  switch (tag.$kind) {
    case "Vector":
      return `vector<${formatTypeTag(tag.Vector)}>`;
    case "Struct":
      return formatStructTag(tag.Struct);
    default:
      return tag.$kind.toLowerCase();
  }
}

export function formatStructTag(tag: StructTag): string {
  const args = tag.type_args.length ? `<${tag.type_args.map(formatTypeTag).join(", ")}>` : "";
  return `${formatAddress(tag.address)}::${tag.module}::${tag.name}${args}`;
}
