// Table item values (§4.2): the 200 body must be a value of the request's value_type, in its JSON form
// (docs/architecture.md). Shared by the §4.2 suite and the table item properties, so that a 200 counts
// as the item only when it holds one.

import { bytesEqual, CodecError, encodeMoveValue, parseAddress, parseTypeTag, type TypeTag } from "../../src/codec/index.ts";
import { CheckNotApplicable, type CheckContext, type HttpResponse, type TableFixture } from "../../src/harness/index.ts";

export const FRAMEWORK = parseAddress("0x1");

/** The body of POST /tables/{handle}/item (§4.2, the family's convention) for the fixture's table, with its key or the `key` given (sent as it is, even undefined). */
export function tableItemBody(table: TableFixture, ...key: [] | [unknown]): { key_type: string; value_type: string; key: unknown } {
  return { key_type: table.keyType, value_type: table.valueType, key: key.length === 0 ? table.key : key[0] };
}

/** The fixture's type tag `table.<member>`, parsed; a fixture the codec cannot parse makes the check not applicable. */
export function fixtureType(text: string, member: string): TypeTag {
  try {
    return parseTypeTag(text);
  } catch (e) {
    if (e instanceof CodecError)
      throw new CheckNotApplicable(`fixture table.${member} ${JSON.stringify(text)} is not a type tag: ${e.message}`);
    throw e;
  }
}

/** Whether the codec can encode values of `tag` without the layout of a user struct. */
export function selfDescribing(tag: TypeTag): boolean {
  switch (tag.$kind) {
    case "Signer":
      return false;
    case "Vector":
      return selfDescribing(tag.Vector);
    case "Struct": {
      const s = tag.Struct;
      if (!bytesEqual(s.address, FRAMEWORK)) return false;
      if (s.module === "string" && s.name === "String") return true;
      if (s.module === "object" && s.name === "Object") return true;
      return s.module === "option" && s.name === "Option" && s.type_args.every(selfDescribing);
    }
    default:
      return true;
  }
}

/** The JSON body must be a value of `valueType`: it encodes as that type (or, for a user struct, is not null). */
export function expectValueOf(t: CheckContext, valueType: string, value: unknown, res: HttpResponse): void {
  const tag = fixtureType(valueType, "valueType");
  if (!selfDescribing(tag)) {
    t.expect(value !== undefined && value !== null, `a JSON value of ${valueType}`, res);
    return;
  }
  let problem: string | undefined;
  try {
    encodeMoveValue(tag, value);
  } catch (e) {
    problem = (e as Error).message;
  }
  t.expect(problem === undefined, `the JSON body is a value of ${valueType} (its JSON form, docs/architecture.md)`, res, problem);
}
