// Members whose names the spec does not show: §2.3 sender and version ("The exact member name is not
// shown"), §2.4 the bytecode, §2.5 the regular estimate, §2.6 the message and the error code. A node
// may name them as it likes. The suite reads them by the family's names (sender, version, bytecode,
// gas_estimate, message, error_code); where such a name is absent, the member is found by what the spec
// does show of it, its type, when exactly one member not otherwise named has that type, and the answer
// is read as if it carried the family's name too. That the family's names are used is a SHOULD
// (2/family-member-names), judged on the answer as it came.

import type { HttpResponse } from "./http-client.ts";

type Json = Record<string, unknown>;

interface UnshownMember {
  /** The family's name, what the checks read. */
  readonly family: string;
  /** What the spec shows of the member: its type. */
  readonly isOfType: (value: unknown, errorCodes: readonly string[]) => boolean;
}

/** An object of one kind: its members whose names are not shown, and the names the spec does show. */
interface ObjectShape {
  readonly unshown: readonly UnshownMember[];
  readonly shown: readonly string[];
  /** Objects of other shapes inside it, under a member (each item of it, for an array). */
  readonly inner?: readonly { readonly member: string; readonly shape: ObjectShape }[];
}

const isString = (v: unknown): v is string => typeof v === "string";

const ERROR_OBJECT: ObjectShape = {
  unshown: [
    // The error code first: "One of the values in section 7.2" tells it from the message.
    { family: "error_code", isOfType: (v, codes) => isString(v) && codes.includes(v) },
    { family: "message", isOfType: isString },
  ],
  shown: ["vm_error_code"],
};

const SUMMARY: ObjectShape = {
  unshown: [
    { family: "version", isOfType: (v) => isString(v) && /^[0-9]+$/.test(v) },
    { family: "sender", isOfType: (v) => isString(v) && /^0x[0-9a-fA-F]{1,64}$/.test(v) },
  ],
  shown: ["transaction_hash", "replay_protector"],
};

const isIdentifier = (v: unknown) => isString(v) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v);

// §2.4: "Exact member names for the function name, the flags, params and return: not shown". The two
// flags (booleans) and params and return (arrays of strings) cannot be told apart by type: only the
// names are found, and an ABI member read by no name is left unjudged (suites/support/module-abi.ts).
const FUNCTION: ObjectShape = { unshown: [{ family: "name", isOfType: isIdentifier }], shown: ["visibility", "generic_type_params"] };

const STRUCT: ObjectShape = {
  unshown: [{ family: "name", isOfType: isIdentifier }],
  shown: ["abilities", "generic_type_params", "fields"],
};

// "Names of other ABI members (for instance the module name): not shown".
const ABI: ObjectShape = {
  unshown: [{ family: "name", isOfType: isIdentifier }],
  shown: ["address", "exposed_functions", "structs"],
  inner: [
    { member: "exposed_functions", shape: FUNCTION },
    { member: "structs", shape: STRUCT },
  ],
};

const MODULE_RECORD: ObjectShape = {
  unshown: [{ family: "bytecode", isOfType: (v) => isString(v) && /^0x(?:[0-9a-fA-F]{2})*$/.test(v) }],
  shown: ["abi"],
  inner: [{ member: "abi", shape: ABI }],
};

const GAS_ESTIMATE: ObjectShape = {
  unshown: [{ family: "gas_estimate", isOfType: (v) => typeof v === "number" && Number.isInteger(v) && v >= 0 }],
  shown: ["deprioritized_gas_estimate", "prioritized_gas_estimate"],
};

/** Where a 200 body of an operation holds objects of a shape: the body itself, or each item of an array. */
const SUCCESS_SHAPES: Readonly<Record<string, { readonly shape: ObjectShape; readonly items: boolean }>> = {
  get_account_transaction_summaries: { shape: SUMMARY, items: true },
  get_account_module: { shape: MODULE_RECORD, items: false },
  get_account_modules: { shape: MODULE_RECORD, items: true },
  estimate_gas_price: { shape: GAS_ESTIMATE, items: false },
};

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** `object` with the family's names added where they were absent and found by type; the names found, `family as "theirs"`. */
function named(object: Json, shape: ObjectShape, errorCodes: readonly string[], found: string[], tally: { family: number }): Json {
  const taken = new Set<string>([...shape.shown, ...shape.unshown.map((m) => m.family)]);
  let out = object;
  for (const member of shape.unshown) {
    if (member.family in object) {
      tally.family += 1;
      continue;
    }
    const candidates = Object.keys(object).filter((key) => !taken.has(key) && member.isOfType(object[key], errorCodes));
    const [only] = candidates;
    if (only === undefined || candidates.length > 1) continue;
    taken.add(only);
    out = { ...out, [member.family]: object[only] };
    found.push(`${member.family} as ${JSON.stringify(only)}`);
  }
  for (const { member, shape: innerShape } of shape.inner ?? []) {
    const value = out[member];
    const read = Array.isArray(value)
      ? value.map((item) => (isObject(item) ? named(item, innerShape, errorCodes, found, tally) : item))
      : isObject(value)
        ? named(value, innerShape, errorCodes, found, tally)
        : value;
    if (read !== value) out = { ...out, [member]: read };
  }
  return out;
}

/** The members read by the family's names in an answer, and the answer as the checks read it. */
export interface FamilyNamed {
  readonly response: HttpResponse;
  /**
   * The members found by type, `error_code as "code"`; empty when the answer used the family's names
   * (at least one of them); undefined when it carries no such member under either name.
   */
  readonly foundByType: readonly string[] | undefined;
}

/** `response` as the checks read it: with the family's names for the members the spec leaves unnamed. */
export function withFamilyNames(operationId: string, response: HttpResponse, errorCodes: readonly string[]): FamilyNamed {
  const json: unknown = response.json;
  const found: string[] = [];
  const tally = { family: 0 };
  let read: unknown;
  const where = response.status === 200 ? SUCCESS_SHAPES[operationId] : undefined;
  if (response.status >= 400 && isObject(json)) read = named(json, ERROR_OBJECT, errorCodes, found, tally);
  else if (where?.items && Array.isArray(json))
    read = json.map((item) => (isObject(item) ? named(item, where.shape, errorCodes, found, tally) : item));
  else if (where !== undefined && !where.items && isObject(json)) read = named(json, where.shape, errorCodes, found, tally);
  else return { response, foundByType: undefined };
  // Without one member under either name there is nothing to judge the names by (the shape's rule fails).
  if (found.length === 0) return { response, foundByType: tally.family > 0 ? [] : undefined };
  return { response: { ...response, json: read }, foundByType: [...new Set(found)] };
}
