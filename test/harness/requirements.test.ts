// The requirement catalog loader: the real catalog loads against the real OpenAPI document, and every
// kind of malformed catalog is rejected with a message naming the problem.

import { describe, expect, it } from "vitest";
import { ApiContract } from "../../src/harness/openapi.ts";
import { CatalogError, loadRequirements, parseRequirements } from "../../src/harness/requirements.ts";

const endpoints = ["estimate_gas_price", "healthy"];

function entry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: "4.6/x", level: "MUST", section: "4.6", endpoint: "estimate_gas_price", text: "A sentence.", ...overrides };
}

function yamlOf(entries: Record<string, unknown>[]): string {
  return JSON.stringify(entries); // JSON is YAML
}

function rejection(entries: unknown, known = endpoints): string {
  try {
    parseRequirements(typeof entries === "string" ? entries : JSON.stringify(entries), known);
  } catch (e) {
    expect(e).toBeInstanceOf(CatalogError);
    return (e as Error).message;
  }
  throw new Error("the catalog was accepted");
}

describe("requirement catalog", () => {
  it("loads schemas/requirements/ against schemas/openapi.yaml", () => {
    const contract = ApiContract.load();
    const catalog = loadRequirements(contract.operations.map((o) => o.id));
    expect(catalog.requirements.length).toBeGreaterThan(10);
    for (const id of ["2.7/required-headers-on-api-success", "2.6/error-object", "7.1/listed-status", "7.2/error-code-known"]) {
      expect(catalog.has(id)).toBe(true);
    }
    expect(catalog.get("4.6/bcs-matches-json").level).toBe("MUST");
    expect(catalog.get("4.7/health-message").level).toBe("SHOULD");
  });

  it("accepts a well-formed catalog and finds entries by id", () => {
    const catalog = parseRequirements(yamlOf([entry(), entry({ id: "2.7/y", section: "2.7", endpoint: "*" })]), endpoints);
    expect(catalog.get("2.7/y").endpoint).toBe("*");
    expect(() => catalog.get("9/nope")).toThrow(/unknown requirement id/);
  });

  it("rejects duplicate ids", () => {
    expect(rejection([entry(), entry()])).toMatch(/duplicate id 4\.6\/x/);
  });

  it("rejects an id that does not begin with its section", () => {
    expect(rejection([entry({ id: "4.5/x" })])).toMatch(/does not begin with its section "4\.6\/"/);
  });

  it("rejects an unknown endpoint", () => {
    expect(rejection([entry({ endpoint: "get_everything" })])).toMatch(/unknown endpoint get_everything/);
  });

  it("rejects a bad level, a bad id form, a missing text and unknown members", () => {
    expect(rejection([entry({ level: "MAY" })])).toMatch(/level/);
    expect(rejection([entry({ id: "4.6/Has Spaces" })])).toMatch(/id/);
    expect(rejection([entry({ text: "" })])).toMatch(/text/);
    const { text: _t, ...noText } = entry();
    expect(rejection([noText])).toMatch(/text/);
    expect(rejection([entry({ extra: 1 })])).toMatch(/additional/);
  });

  it("rejects a catalog that is not a list, or not YAML", () => {
    expect(rejection({ requirements: [] })).toMatch(/must be array/);
    expect(rejection("- id: [unclosed")).toMatch(/not YAML/);
  });

  it("reports every problem at once", () => {
    const message = rejection([entry(), entry(), entry({ id: "1/z", section: "2", endpoint: "nope" })]);
    expect(message).toMatch(/duplicate/);
    expect(message).toMatch(/section/);
    expect(message).toMatch(/unknown endpoint/);
  });
});
