// Holding a served ABI to the one derived from the module's bytecode (§2.4; aptos-core derives the
// ABI it serves from the bytecode: api/types/src/move_types.rs, api/types/src/bytecode.rs). The
// comparison names the first difference. It accepts what the spec leaves open: members §2.4 marks
// optional may be absent or null (older aptos-core sends no is_view or is_event, and only newer ones
// is_enum and variants), addresses in any §2.1 form, blanks inside type names, and any order of
// functions, structs, friends and abilities; the order of parameters, returns, type parameters, fields
// and variants is their meaning and must be kept. Functions and structs are compared as multisets by
// name: the bytecode defines each name once, so an ABI that lists one twice differs from it.

import {
  deserializeModule,
  formatAddress,
  fromHex,
  MalformedModule,
  moduleAbi,
  parseAddress,
  structEnumAbis,
  UnsupportedModule,
  type MoveModuleAbi,
  type MoveStructEnumAbi,
} from "../../src/codec/index.ts";
import { CheckNotApplicable, type CheckContext, type HttpResponse } from "../../src/harness/index.ts";

/**
 * What a module's bytecode says its served ABI holds: the ABI, and is_enum and variants of each of its
 * structs, in the same order (aptos-core's MoveStruct, api/types/src/move_types.rs, adds them).
 */
export interface BytecodeAbi {
  readonly abi: MoveModuleAbi;
  readonly enums: readonly MoveStructEnumAbi[];
}

export function bytecodeAbi(bytes: Uint8Array): BytecodeAbi {
  const module = deserializeModule(bytes);
  return { abi: moduleAbi(module), enums: structEnumAbis(module) };
}

/** What reading a record's bytecode gave: its ABI, or why there is none to compare with. */
export type DerivedAbi =
  | ({ readonly kind: "read" } & BytecodeAbi)
  | { readonly kind: "unsupported"; readonly reason: string }
  | { readonly kind: "malformed"; readonly reason: string };

export function deriveAbi(bytecodeHex: string): DerivedAbi {
  try {
    return { kind: "read", ...bytecodeAbi(fromHex(bytecodeHex)) };
  } catch (error) {
    if (error instanceof UnsupportedModule) return { kind: "unsupported", reason: error.message };
    if (error instanceof MalformedModule) return { kind: "malformed", reason: error.message };
    return { kind: "malformed", reason: error instanceof Error ? error.message : String(error) };
  }
}

type Json = Record<string, unknown>;

/**
 * How much of the bytecode the ABI must list. `words`: what §2.4 says, "Public functions of the
 * module": every public function, and whatever else is listed (a friend or entry function, a struct)
 * as the bytecode defines it. `family`: as aptos-core lists them, every public, friend or entry
 * function and every struct, nothing left out.
 */
export type AbiScope = "words" | "family";

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** An optional member sent as null counts as absent (the family's convention). */
const present = (v: unknown) => v !== undefined && v !== null;
const show = (v: unknown) => JSON.stringify(v);

/** A type or module id with its addresses in one form and no blanks: `&mut 0x1::coin::Coin<T0>` → `&mut0x1::coin::Coin<T0>`. */
export function canonicalTypeName(text: string): string {
  return text
    .replace(/0x[0-9a-fA-F]+/g, (address) => {
      try {
        return formatAddress(parseAddress(address));
      } catch {
        return address;
      }
    })
    .replace(/\s+/g, "");
}

function sameTypeList(derived: readonly string[], served: unknown): string | undefined {
  if (!Array.isArray(served)) return `the bytecode has ${show(derived)}, the ABI has ${show(served)}`;
  if (served.length !== derived.length)
    return `the bytecode has ${derived.length} (${show(derived)}), the ABI has ${served.length} (${show(served)})`;
  for (const [i, type] of derived.entries()) {
    const other: unknown = served[i];
    if (typeof other !== "string" || canonicalTypeName(other) !== canonicalTypeName(type))
      return `[${i}]: the bytecode has ${show(type)}, the ABI has ${show(other)}`;
  }
  return undefined;
}

function sameSet(derived: readonly string[], served: unknown): string | undefined {
  const sorted = (list: readonly string[]) => [...list].map(canonicalTypeName).sort().join(",");
  if (!Array.isArray(served) || served.some((s) => typeof s !== "string") || sorted(derived) !== sorted(served as string[])) {
    return `the bytecode has ${show(derived)}, the ABI has ${show(served)}`;
  }
  return undefined;
}

function sameGenerics(derived: readonly { constraints: readonly string[] }[], served: unknown): string | undefined {
  if (!Array.isArray(served) || served.length !== derived.length)
    return `the bytecode has ${derived.length} type parameters ${show(derived)}, the ABI has ${show(served)}`;
  for (const [i, param] of derived.entries()) {
    const other: unknown = served[i];
    const constraints = isObject(other) ? other.constraints : undefined;
    const difference = sameSet(param.constraints, constraints);
    if (difference) return `[${i}].constraints: ${difference}`;
  }
  return undefined;
}

/** Compares the members present in `served`; the first difference, prefixed with `where`, or undefined. */
function firstOf(
  where: string,
  comparisons: readonly (readonly [
    member: string,
    derived: unknown,
    served: unknown,
    compare?: (d: never, s: unknown) => string | undefined,
  ])[],
): string | undefined {
  for (const [member, derived, served, compare] of comparisons) {
    if (!present(served)) continue;
    const difference = compare
      ? compare(derived as never, served)
      : derived === served
        ? undefined
        : `the bytecode has ${show(derived)}, the ABI has ${show(served)}`;
    if (difference) return `${where}${member}${difference.startsWith("[") ? "" : ": "}${difference}`;
  }
  return undefined;
}

/**
 * The objects of a served list by name, or the first reason it cannot be read that way: an item that
 * is not an object with a name, or a name listed twice (the bytecode defines each name once, so a
 * repeated one is a difference even when both copies agree with it).
 */
function byName(list: readonly unknown[], what: string): Map<string, Json> | string {
  const map = new Map<string, Json>();
  for (const [i, item] of list.entries()) {
    if (!isObject(item) || typeof item.name !== "string") return `${what}[${i}]: an object with a name, the ABI has ${show(item)}`;
    if (map.has(item.name)) {
      const times = list.filter((other) => isObject(other) && other.name === item.name).length;
      return `${what} ${item.name}: listed ${times} times in the ABI, the bytecode defines it once`;
    }
    map.set(item.name, item);
  }
  return map;
}

function functionDifference(derived: MoveModuleAbi, served: Json, scope: AbiScope): string | undefined {
  if (!Array.isArray(served.exposed_functions)) return `exposed_functions: the ABI has ${show(served.exposed_functions)}`;
  const servedFunctions = byName(served.exposed_functions, "function");
  if (typeof servedFunctions === "string") return servedFunctions;
  for (const f of derived.exposed_functions) {
    const other = servedFunctions.get(f.name);
    const kind = `${f.visibility}${f.is_entry ? " entry" : ""}${f.is_view ? " view" : ""}`;
    if (other === undefined && scope === "words" && f.visibility !== "public") continue;
    if (other === undefined) return `function ${f.name}: exposed in the bytecode (${kind}), missing from the ABI's exposed_functions`;
    const difference = firstOf(`function ${f.name}: `, [
      ["visibility", f.visibility, other.visibility],
      ["is_entry", f.is_entry, other.is_entry],
      ["is_view", f.is_view, other.is_view],
      ["generic_type_params", f.generic_type_params, other.generic_type_params ?? [], sameGenerics],
      ["params", f.params, other.params, sameTypeList],
      ["return", f.return, other.return, sameTypeList],
    ]);
    if (difference) return difference;
  }
  const exposed = new Set(derived.exposed_functions.map((f) => f.name));
  for (const name of servedFunctions.keys()) {
    if (!exposed.has(name))
      return `function ${name}: in the ABI's exposed_functions, but the bytecode exposes no such function (neither public, friend nor entry)`;
  }
  return undefined;
}

/** A variant's fields, names and types in order; the difference begins with ": " or " (". */
function sameFields(derived: readonly { readonly name: string; readonly type: string }[], served: unknown): string | undefined {
  if (!Array.isArray(served)) return `: the bytecode has ${show(derived)}, the ABI has ${show(served)}`;
  const names = served.map((f: unknown) => (isObject(f) ? f.name : f));
  if (show(names) !== show(derived.map((f) => f.name)))
    return ` (names): the bytecode has ${show(derived.map((f) => f.name))}, the ABI has ${show(names)}`;
  const types = sameTypeList(
    derived.map((f) => f.type),
    served.map((f: unknown) => (isObject(f) ? f.type : f)),
  );
  return types === undefined ? undefined : ` (types)${types.startsWith("[") ? "" : ": "}${types}`;
}

/** An enum's variants, in their order (the variant index is their meaning), each with its fields. */
function sameVariants(derived: MoveStructEnumAbi["variants"], served: unknown): string | undefined {
  if (!Array.isArray(served) || served.length !== derived.length)
    return `the bytecode has ${derived.length} (${show(derived.map((v) => v.name))}), the ABI has ${show(served)}`;
  for (const [i, variant] of derived.entries()) {
    const other: unknown = served[i];
    if (!isObject(other) || other.name !== variant.name)
      return `[${i}]: the bytecode has variant ${show(variant.name)}, the ABI has ${show(other)}`;
    const fields = sameFields(variant.fields, other.fields);
    if (fields) return `[${i}].fields${fields}`;
  }
  return undefined;
}

function structDifference(derived: BytecodeAbi, served: Json, scope: AbiScope): string | undefined {
  if (!present(served.structs)) return undefined;
  if (!Array.isArray(served.structs)) return `structs: the ABI has ${show(served.structs)}`;
  const servedStructs = byName(served.structs, "struct");
  if (typeof servedStructs === "string") return servedStructs;
  const enumOf = (index: number): MoveStructEnumAbi => derived.enums[index] ?? { is_enum: false, variants: [] };
  for (const [i, s] of derived.abi.structs.entries()) {
    const other = servedStructs.get(s.name);
    if (other === undefined && scope === "words") continue;
    if (other === undefined) return `struct ${s.name}: defined in the bytecode, missing from the ABI's structs`;
    const fieldsOf = (fields: unknown) => (Array.isArray(fields) ? fields.map((f: unknown) => (isObject(f) ? f.name : f)) : fields);
    const difference = firstOf(`struct ${s.name}: `, [
      ["is_native", s.is_native, other.is_native],
      ["is_event", s.is_event, other.is_event],
      ["is_enum", enumOf(i).is_enum, other.is_enum],
      ["abilities", s.abilities, other.abilities, sameSet],
      ["generic_type_params", s.generic_type_params, other.generic_type_params ?? [], sameGenerics],
      [
        "fields (names)",
        s.fields.map((f) => f.name),
        present(other.fields) ? fieldsOf(other.fields) : undefined,
        (d: string[], v) => (show(d) === show(v) ? undefined : `the bytecode has ${show(d)}, the ABI has ${show(v)}`),
      ],
      [
        "fields (types)",
        s.fields.map((f) => f.type),
        present(other.fields) && Array.isArray(other.fields) ? other.fields.map((f: unknown) => (isObject(f) ? f.type : f)) : undefined,
        sameTypeList,
      ],
      ["variants", enumOf(i).variants, other.variants, sameVariants],
    ]);
    if (difference) return difference;
  }
  const defined = new Set(derived.abi.structs.map((s) => s.name));
  for (const name of servedStructs.keys())
    if (!defined.has(name)) return `struct ${name}: in the ABI's structs, but the bytecode defines no such struct`;
  return undefined;
}

/** The first way `served` (a record's abi member) differs from the ABI derived from its bytecode, or undefined. */
export function firstAbiDifference(bytecode: BytecodeAbi, served: unknown, scope: AbiScope = "family"): string | undefined {
  const derived = bytecode.abi;
  if (!isObject(served)) return `abi: the ABI is ${show(served)}`;
  const address = (a: string, s: unknown) =>
    typeof s === "string" && canonicalTypeName(s) === canonicalTypeName(a)
      ? undefined
      : `the bytecode has ${show(a)}, the ABI has ${show(s)}`;
  return (
    firstOf("", [
      ["address", derived.address, served.address, address],
      ["name", derived.name, served.name],
      ["friends", derived.friends, served.friends, sameSet],
    ]) ??
    functionDifference(derived, served, scope) ??
    structDifference(bytecode, served, scope)
  );
}

/** A module record as the suites read it (validated against the contract before use). */
interface RecordWithAbi {
  readonly bytecode: string;
  readonly abi?: unknown;
}

/**
 * Every record's ABI equals the one derived from its bytecode. A record without an ABI, or whose
 * bytecode uses a version or construct newer than the reader knows, cannot be judged: the check then
 * ends not_applicable naming them (after failing on any record that could be judged and differs).
 */
export function expectAbisMatchBytecode(t: CheckContext, records: readonly RecordWithAbi[], res: HttpResponse, scope: AbiScope): void {
  const unjudged: string[] = [];
  let judged = 0;
  for (const [i, record] of records.entries()) {
    const served = record.abi;
    const label = isObject(served) && typeof served.name === "string" ? served.name : `record ${i}`;
    if (!present(served)) {
      unjudged.push(`${label}: no abi (§2.4: optional)`);
      continue;
    }
    const derived = deriveAbi(record.bytecode);
    if (derived.kind === "unsupported") {
      unjudged.push(`${label}: ${derived.reason}`);
      continue;
    }
    if (derived.kind === "malformed")
      t.fail(`module ${label}: bytecode that reads as a Move module, the ABI being derived from it (§2.4)`, res, derived.reason);
    const difference = firstAbiDifference(derived, served, scope);
    t.expect(
      difference === undefined,
      `module ${label}: the ABI derived from its bytecode (§2.4; aptos-core api/types/src/bytecode.rs)`,
      res,
      difference,
    );
    judged++;
  }
  if (unjudged.length > 0) {
    const others = judged > 0 ? `; the ABIs of the other ${judged} match their bytecode` : "";
    throw new CheckNotApplicable(
      `cannot derive an ABI to compare for ${unjudged.length} module(s): ${unjudged.slice(0, 5).join("; ")}${others}`,
    );
  }
}
