// The members of a JSON body that its schema does not declare. Every object of the contract is open
// (schemas/openapi.yaml, "Objects": the spec closes none, §2.3 and §2.4 leave members "not shown"), so
// such a member is never an error; it is noted, so that a report can list it and a misspelt optional
// member stays visible. The walk follows the schema the body matched: $ref, allOf (members declared
// by any part are known), and of a oneOf or anyOf only the branch the value matches, so a member of
// one replay protector variant is not reported as unknown to the other.

/** One member an object carried that the schema it matched does not declare. */
export interface UnknownMember {
  /** The component that holds the object's declaration, e.g. "MoveStruct". */
  readonly schema: string;
  readonly member: string;
}

/** Whether `value` is valid under `schema` (a subschema of the document, compiled by the caller). */
export type SchemaMatcher = (schema: unknown, value: unknown) => boolean;

type Json = Record<string, unknown>;

const COMPONENT_REF = "#/components/schemas/";
/** Deeper than any body of the contract; a bound on the walk whatever a target sends. */
const MAX_DEPTH = 64;

/** A schema that applies to a value, with the component it was reached through. */
interface Applicable {
  readonly node: Json;
  readonly name: string;
}

/**
 * The undeclared members of `value` under `schema`, one entry per occurrence. `value` must already be
 * valid under `schema` (the branch a oneOf matched is only defined then); `name` names the body when its
 * schema is inline.
 */
export function unknownMembersOf(
  components: Readonly<Record<string, unknown>>,
  schema: unknown,
  value: unknown,
  matches: SchemaMatcher,
  name = "(body)",
): UnknownMember[] {
  const found: UnknownMember[] = [];
  walk(components, matches, schema, name, value, 0, found);
  return found;
}

function walk(
  components: Readonly<Record<string, unknown>>,
  matches: SchemaMatcher,
  schema: unknown,
  name: string,
  value: unknown,
  depth: number,
  found: UnknownMember[],
): void {
  if (depth > MAX_DEPTH || typeof value !== "object" || value === null) return;
  const applicable: Applicable[] = [];
  collect(components, matches, schema, name, value, 0, applicable);
  if (Array.isArray(value)) {
    value.forEach((element, i) => {
      for (const { node, name: at } of applicable) {
        const prefix = Array.isArray(node.prefixItems) ? (node.prefixItems as unknown[]) : [];
        const item = i < prefix.length ? prefix[i] : node.items;
        if (item !== undefined && typeof item === "object") walk(components, matches, item, at, element, depth + 1, found);
      }
    });
    return;
  }
  const members = value as Json;
  const declaring = applicable.filter((a) => isObject(a.node.properties));
  // A map (additionalProperties with a schema) or pattern-named members: every member is declared.
  const open = applicable.some(
    (a) => isObject(a.node.additionalProperties) || a.node.additionalProperties === true || isObject(a.node.patternProperties),
  );
  const owner = declaring[0]?.name;
  for (const [key, member] of Object.entries(members)) {
    const schemas = applicable.flatMap(({ node, name: at }) => {
      const declared = isObject(node.properties) && Object.hasOwn(node.properties, key) ? [{ schema: node.properties[key], at }] : [];
      const extra = declared.length === 0 && isObject(node.additionalProperties) ? [{ schema: node.additionalProperties, at }] : [];
      return [...declared, ...extra];
    });
    if (schemas.length === 0 && owner !== undefined && !open) found.push({ schema: owner, member: key });
    for (const s of schemas) walk(components, matches, s.schema, s.at, member, depth + 1, found);
  }
}

/** The schemas that apply to `value` under `schema`: through $ref, allOf, and the matched oneOf/anyOf branch. */
function collect(
  components: Readonly<Record<string, unknown>>,
  matches: SchemaMatcher,
  schema: unknown,
  name: string,
  value: unknown,
  depth: number,
  out: Applicable[],
): void {
  if (!isObject(schema) || depth > MAX_DEPTH) return;
  const ref = schema.$ref;
  if (typeof ref === "string" && ref.startsWith(COMPONENT_REF)) {
    const target = ref.slice(COMPONENT_REF.length);
    collect(components, matches, components[target], target, value, depth + 1, out);
  }
  out.push({ node: schema, name });
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) collect(components, matches, part, name, value, depth + 1, out);
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    const branch = branches.find((b) => matches(b, value));
    if (branch !== undefined) collect(components, matches, branch, name, value, depth + 1, out);
  }
}

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
