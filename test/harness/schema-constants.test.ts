// The JSON Schemas the harness keeps as constants are compiled at run time without checking them against
// JSON Schema's meta-schema (a cost at every worker's start): the check is made here instead.
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { FIXTURES_SCHEMA } from "../../src/harness/fixtures.ts";
import { ENTRY_SCHEMA } from "../../src/harness/requirements.ts";

describe("the harness's schema constants", () => {
  it.each([
    ["the fixtures file", FIXTURES_SCHEMA],
    ["a requirement catalog entry", ENTRY_SCHEMA],
  ])("%s's schema is a valid JSON Schema", (_name, schema) => {
    const ajv = new Ajv({ allErrors: true });
    expect(ajv.validateSchema(schema), ajv.errorsText(ajv.errors)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });
});
