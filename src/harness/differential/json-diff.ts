// Two structural comparisons of JSON values, shared by the differential mode (two nodes, one request)
// and the diff of recorded runs (one request key, two runs): the first member at which two values
// differ, with its path; and a value's shape (its member set and types, not its values), so that
// what moves between runs (versions, timestamps, hashes) is not a change.

export interface JsonDifference {
  /** A JSONPath-like location: $, $.abi.name, $[3].version. */
  readonly path: string;
  /** What each side holds there, shortened for a report. */
  readonly a: string;
  readonly b: string;
}

/** The first place `a` and `b` differ (objects compared by member, arrays by index), or undefined when equal. */
export function firstJsonDifference(a: unknown, b: unknown, path = "$"): JsonDifference | undefined {
  if (Object.is(a, b)) return undefined;
  const ta = jsonType(a);
  const tb = jsonType(b);
  if (ta !== tb) return { path, a: preview(a), b: preview(b) };
  if (ta === "array") {
    const xs = a as unknown[];
    const ys = b as unknown[];
    for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
      const d = firstJsonDifference(xs[i], ys[i], `${path}[${i}]`);
      if (d) return d;
    }
    if (xs.length !== ys.length) return { path: `${path}.length`, a: String(xs.length), b: String(ys.length) };
    return undefined;
  }
  if (ta === "object") {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
    for (const key of keys) {
      const at = memberPath(path, key);
      if (!(key in x)) return { path: at, a: "(absent)", b: preview(y[key]) };
      if (!(key in y)) return { path: at, a: preview(x[key]), b: "(absent)" };
      const d = firstJsonDifference(x[key], y[key], at);
      if (d) return d;
    }
    return undefined;
  }
  return { path, a: preview(a), b: preview(b) };
}

/**
 * A value's shape: "string", "number", "boolean", "null"; an object's members with their shapes; an
 * array's elements merged into one shape. An empty array's element shape is unknown (null here), and
 * fits any other: a list that happens to be empty has not changed shape. Shapes merged from several
 * values (the elements of a list, the answers to one request) mark the members some of them lacked as
 * optional, and keep every type seen.
 */
export type Shape =
  | { readonly type: "string" | "number" | "boolean" | "null" }
  | { readonly type: "object"; readonly members: Readonly<Record<string, Shape>>; readonly optional?: readonly string[] }
  | { readonly type: "array"; readonly items: Shape | null }
  /** Values of more than one type. */
  | { readonly type: "mixed"; readonly of: readonly Shape[] };

type ObjectShape = Extract<Shape, { type: "object" }>;

/** Objects nested deeper than this are cut off: a shape stays small whatever a target sends. */
const MAX_SHAPE_DEPTH = 24;

export function shapeOf(value: unknown, depth = 0): Shape {
  const type = jsonType(value);
  if (type === "object") {
    if (depth >= MAX_SHAPE_DEPTH) return { type: "object", members: {} };
    const members: Record<string, Shape> = {};
    for (const key of Object.keys(value as object).sort()) members[key] = shapeOf((value as Record<string, unknown>)[key], depth + 1);
    return { type: "object", members };
  }
  if (type === "array") {
    let items: Shape | null = null;
    for (const element of value as unknown[]) {
      const s = shapeOf(element, depth + 1);
      items = items === null ? s : mergeShapes(items, s);
    }
    return { type: "array", items };
  }
  return { type };
}

/** One shape that fits both: objects take the union of their members (those one lacks optional), differing types become mixed. */
export function mergeShapes(a: Shape, b: Shape): Shape {
  if (a.type === "object" && b.type === "object") {
    const keys = [...new Set([...Object.keys(a.members), ...Object.keys(b.members)])].sort();
    const members: Record<string, Shape> = {};
    const optional: string[] = [];
    for (const key of keys) {
      const x = a.members[key];
      const y = b.members[key];
      members[key] = x === undefined ? (y as Shape) : y === undefined ? x : mergeShapes(x, y);
      if (x === undefined || y === undefined || a.optional?.includes(key) || b.optional?.includes(key)) optional.push(key);
    }
    return optional.length === 0 ? { type: "object", members } : { type: "object", members, optional };
  }
  if (a.type === "array" && b.type === "array") {
    return { type: "array", items: a.items === null ? b.items : b.items === null ? a.items : mergeShapes(a.items, b.items) };
  }
  if (a.type === b.type && a.type !== "mixed") return a; // the same primitive type
  const all = [...variants(a), ...variants(b)];
  const distinct: Shape[] = [];
  for (const s of all) {
    const same = distinct.findIndex((d) => d.type === s.type);
    if (same < 0) distinct.push(s);
    else distinct[same] = mergeShapes(distinct[same] as Shape, s);
  }
  distinct.sort((x, y) => x.type.localeCompare(y.type));
  return distinct.length === 1 ? (distinct[0] as Shape) : { type: "mixed", of: distinct };
}

/**
 * The first place two shapes differ. What one value (or a few) happens to hold is no change, so:
 * a member counts as added or removed only when one side had it in every value and the other in none
 * (a member optional on either side may come and go); types are compared without null (in the family an
 * optional member may be sent as null), and a side that only ever saw null gives no evidence of a type.
 */
export function firstShapeDifference(a: Shape, b: Shape, path = "$", options: ShapeOptions = {}): JsonDifference | undefined {
  const ta = nonNullTypes(a);
  const tb = nonNullTypes(b);
  if (ta.length === 0 || tb.length === 0) return undefined;
  if (ta.join("|") !== tb.join("|")) return { path, a: describeShape(a), b: describeShape(b) };
  const objects = [variant(a, "object"), variant(b, "object")] as const;
  if (objects[0] !== undefined && objects[1] !== undefined) {
    const d = firstMemberDifference(objects[0] as ObjectShape, objects[1] as ObjectShape, path, options);
    if (d) return d;
  }
  const arrays = [variant(a, "array"), variant(b, "array")] as const;
  if (arrays[0]?.type === "array" && arrays[1]?.type === "array" && arrays[0].items !== null && arrays[1].items !== null) {
    return firstShapeDifference(arrays[0].items, arrays[1].items, `${path}[*]`, options);
  }
  return undefined;
}

export interface ShapeOptions {
  /**
   * "shared": only the members both sides have are compared, so a member one side adds is no
   * difference (objects are open: schemas/openapi.yaml, "Objects"; a required member that is missing
   * is the suite's to judge). Default "all": a member one side always has and the other never is one.
   */
  readonly members?: "all" | "shared";
}

function firstMemberDifference(a: ObjectShape, b: ObjectShape, path: string, options: ShapeOptions): JsonDifference | undefined {
  const keys = [...new Set([...Object.keys(a.members), ...Object.keys(b.members)])].sort();
  for (const key of keys) {
    const at = memberPath(path, key);
    const x = a.members[key];
    const y = b.members[key];
    if ((x === undefined || y === undefined) && options.members === "shared") continue;
    if (x === undefined) {
      if (!b.optional?.includes(key)) return { path: at, a: "(absent)", b: describeShape(y as Shape) };
      continue;
    }
    if (y === undefined) {
      if (!a.optional?.includes(key)) return { path: at, a: describeShape(x), b: "(absent)" };
      continue;
    }
    const d = firstShapeDifference(x, y, at, options);
    if (d) return d;
  }
  return undefined;
}

function variants(s: Shape): readonly Shape[] {
  return s.type === "mixed" ? s.of : [s];
}

function variant(s: Shape, type: Shape["type"]): Shape | undefined {
  return variants(s).find((v) => v.type === type);
}

function nonNullTypes(s: Shape): string[] {
  return variants(s)
    .map((v) => v.type)
    .filter((t) => t !== "null")
    .sort();
}

export function describeShape(s: Shape): string {
  switch (s.type) {
    case "object":
      return `object {${Object.keys(s.members).join(", ")}}`;
    case "array":
      return s.items === null ? "array (empty)" : `array of ${s.items.type}`;
    case "mixed":
      return s.of.map((x) => x.type).join(" | ");
    default:
      return s.type;
  }
}

type JsonType = "string" | "number" | "boolean" | "null" | "object" | "array";

function jsonType(value: unknown): JsonType {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  const t = typeof value;
  if (t === "string" || t === "number" || t === "boolean") return t;
  if (t === "bigint") return "number";
  return "object";
}

function memberPath(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** A value as a report shows it: JSON, at most 200 characters. */
export function preview(value: unknown): string {
  if (value === undefined) return "(absent)";
  const text =
    JSON.stringify(value, (_k, v: unknown) =>
      typeof v === "bigint" ? v.toString() : v instanceof Uint8Array ? `0x${Buffer.from(v).toString("hex")}` : v,
    ) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
}
