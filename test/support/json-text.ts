// JSON text as a tree that keeps what JSON.parse loses, so that a variation can rewrite an answer's
// JSON and change nothing but what it means to: numbers keep their literal text (a u64 such as a gas
// estimate or vm_error_code may exceed 2^53, which JSON.parse would round), and an object keeps every
// member, duplicates included, in order. Strings are held decoded; the writer chooses their escapes.

export type JsonNode =
  | { readonly kind: "object"; readonly members: readonly (readonly [string, JsonNode])[] }
  | { readonly kind: "array"; readonly items: readonly JsonNode[] }
  | { readonly kind: "string"; readonly value: string }
  /** A number, as its literal text (RFC 8259 §6). */
  | { readonly kind: "number"; readonly text: string }
  | { readonly kind: "literal"; readonly text: "true" | "false" | "null" };

/** Deeper than this is not an answer of the reference node: refused rather than recursed into. */
const MAX_DEPTH = 256;

/** The tree of `text`, or undefined when it is not one JSON value (RFC 8259 §2). */
export function parseJsonText(text: string): JsonNode | undefined {
  let at = 0;
  const fail = (): never => {
    throw new SyntaxError(`not JSON at ${at}`);
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at] as string)) at++;
  };
  const string = (): string => {
    const end = scanString(text, at);
    if (end === undefined) fail();
    const value = JSON.parse(text.slice(at, end)) as string;
    at = end as number;
    return value;
  };
  const value = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) fail();
    space();
    const c = text[at];
    if (c === "{") {
      at++;
      const members: [string, JsonNode][] = [];
      space();
      if (text[at] === "}") {
        at++;
        return { kind: "object", members };
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        const key = string();
        space();
        if (text[at++] !== ":") fail();
        members.push([key, value(depth + 1)]);
        space();
        const next = text[at++];
        if (next === "}") return { kind: "object", members };
        if (next !== ",") fail();
      }
    }
    if (c === "[") {
      at++;
      const items: JsonNode[] = [];
      space();
      if (text[at] === "]") {
        at++;
        return { kind: "array", items };
      }
      for (;;) {
        items.push(value(depth + 1));
        space();
        const next = text[at++];
        if (next === "]") return { kind: "array", items };
        if (next !== ",") fail();
      }
    }
    if (c === '"') return { kind: "string", value: string() };
    const literal = /^(true|false|null)/.exec(text.slice(at, at + 5));
    if (literal !== null) {
      at += (literal[1] as string).length;
      return { kind: "literal", text: literal[1] as "true" | "false" | "null" };
    }
    const number = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(at, at + 400));
    if (number === null) return fail();
    at += number[0].length;
    return { kind: "number", text: number[0] };
  };
  try {
    const root = value(0);
    space();
    return at === text.length ? root : undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** The index just past the string literal starting at `start` (a quote), or undefined. */
function scanString(text: string, start: number): number | undefined {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === '"') return i + 1;
  }
  return undefined;
}

export interface JsonStyle {
  /** Whitespace written around every structural character (RFC 8259 §2: insignificant whitespace). */
  readonly space?: string;
  /** A string's JSON text; JSON.stringify's by default. */
  readonly quote?: (value: string) => string;
}

/** The JSON text of `node`, numbers as they were written. */
export function writeJsonText(node: JsonNode, style: JsonStyle = {}): string {
  const s = style.space ?? "";
  const quote = style.quote ?? JSON.stringify;
  switch (node.kind) {
    case "object":
      return `{${s}${node.members.map(([key, value]) => `${quote(key)}${s}:${s}${writeJsonText(value, style)}`).join(`${s},${s}`)}${s}}`;
    case "array":
      return `[${s}${node.items.map((item) => writeJsonText(item, style)).join(`${s},${s}`)}${s}]`;
    case "string":
      return quote(node.value);
    case "number":
    case "literal":
      return node.text;
  }
}

/** `node` with `f` applied to every object, innermost first. */
export function mapObjects(
  node: JsonNode,
  f: (members: readonly (readonly [string, JsonNode])[]) => readonly (readonly [string, JsonNode])[],
): JsonNode {
  switch (node.kind) {
    case "object":
      return { kind: "object", members: f(node.members.map(([key, value]) => [key, mapObjects(value, f)] as const)) };
    case "array":
      return { kind: "array", items: node.items.map((item) => mapObjects(item, f)) };
    default:
      return node;
  }
}
