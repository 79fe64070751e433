// schemas/openapi.yaml is the contract as data. This test holds it to the spec text itself: the
// endpoints, parameters and statuses of §4 and §7.1, the headers of §2.7 and the error codes of §7.2 are
// parsed out of the spec at test time (the copy the package ships, spec/), so the document and this
// test cannot drift together. It also checks that the document is valid OpenAPI and that every
// schema compiles and validates with ajv (draft 2020-12) the way the harness will use it.

import { readFileSync } from "node:fs";
import { compileErrors, validate } from "@readme/openapi-parser";
import Ajv2020 from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { nullAsAbsent } from "../../src/harness/openapi.ts";

const SPEC_URL = new URL("../../spec/ledger-node-rest-interface.md", import.meta.url);
const OPENAPI_URL = new URL("../../schemas/openapi.yaml", import.meta.url);

// ---------------------------------------------------------------------------------------------------
// The document (only the parts this test reads are typed)

interface Ref {
  readonly $ref: string;
}
interface MediaType {
  readonly schema: Ref;
}
interface Header {
  readonly required?: boolean;
  readonly schema: Ref;
}
interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly schema: Ref;
}
interface Response {
  readonly description: string;
  readonly headers?: Record<string, Ref>;
  readonly content?: Record<string, MediaType>;
}
interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly parameters?: readonly Ref[];
  readonly requestBody?: { readonly required?: boolean; readonly content: Record<string, MediaType> };
  readonly responses: Record<string, Ref | Response>;
}
interface OpenApiDocument {
  readonly openapi: string;
  readonly jsonSchemaDialect: string;
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components: { readonly schemas: Record<string, object> };
}

const rawDocument: unknown = parseYaml(readFileSync(OPENAPI_URL, "utf8"));
const doc = rawDocument as OpenApiDocument;

/** Follows internal references (`#/a/b`) until it reaches an object that is not a bare reference. */
function resolve<T>(node: Ref | T): T {
  let current: unknown = node;
  for (let hops = 0; isRef(current); hops++) {
    if (hops > 10) throw new Error(`reference loop at ${current.$ref}`);
    current = pointer(current.$ref);
  }
  return current as T;
}

function isRef(node: unknown): node is Ref {
  return typeof node === "object" && node !== null && typeof (node as Partial<Ref>).$ref === "string";
}

function pointer(ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`not an internal reference: ${ref}`);
  let current: unknown = rawDocument;
  for (const token of ref.slice(2).split("/")) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof current !== "object" || current === null || !(key in current)) throw new Error(`dangling reference ${ref}`);
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

interface DocumentOperation {
  readonly key: string; // "GET /v1/spec"
  readonly operation: Operation;
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

function documentOperations(): DocumentOperation[] {
  const operations: DocumentOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (HTTP_METHODS.has(method)) operations.push({ key: `${method.toUpperCase()} ${path}`, operation });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------------
// The spec text

const specText = readFileSync(SPEC_URL, "utf8");

/** The body of the section whose heading starts with `### <number> ` (up to the next heading). */
function section(number: string): string {
  const start = specText.indexOf(`\n### ${number} `);
  if (start < 0) throw new Error(`spec section ${number} not found`);
  const bodyStart = specText.indexOf("\n", start + 1);
  const next = specText.slice(bodyStart).search(/\n#{2,3} /);
  return next < 0 ? specText.slice(bodyStart) : specText.slice(bodyStart, bodyStart + next);
}

/** The data rows of the first markdown table in a section, as trimmed cells. */
function tableRows(body: string): string[][] {
  const rows = body
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  return rows.slice(2); // header and separator
}

/** §7.2: the exact error code values. */
function specErrorCodes(): string[] {
  const paragraph = section("7.2").trim().split("\n\n")[0] ?? "";
  return paragraph.replace(/\.$/, "").split(/,\s*/);
}

interface SpecHeader {
  readonly name: string;
  readonly type: string; // "integer, uint8" | "integer, uint64" | "string"
  readonly onSuccess: "required" | "optional";
  readonly onError: "optional" | "absent";
}

/** §2.7: the ledger-state headers. */
function specHeaders(): SpecHeader[] {
  return tableRows(section("2.7")).map(([name = "", type = "", onSuccess = "", onError = ""]) => {
    if (onSuccess !== "required" && onSuccess !== "optional") throw new Error(`§2.7 ${name}: On 200 '${onSuccess}'`);
    if (onError !== "optional" && onError !== "absent") throw new Error(`§2.7 ${name}: On errors '${onError}'`);
    return { name, type, onSuccess, onError };
  });
}

interface SpecEndpoint {
  readonly section: string; // "4.5"
  readonly key: string; // "GET /v1/accounts/{address}/modules"
  readonly parameters: ReadonlySet<string>;
  readonly errorStatuses: ReadonlySet<string>;
}

/** §4.1–§4.8: each endpoint's method and path, its parameters and its listed error statuses. */
function specEndpoints(): SpecEndpoint[] {
  const endpoints: SpecEndpoint[] = [];
  for (let n = 1; ; n++) {
    const number = `4.${n}`;
    if (!specText.includes(`\n### ${number} `)) break;
    const keys: string[] = [];
    const parameters = new Set<string>();
    const errorStatuses = new Set<string>();
    for (const [item = "", rule = ""] of tableRows(section(number))) {
      const endpoint = /^(GET|POST|PUT|PATCH|DELETE) (\/\S+)$/.exec(item);
      if (endpoint) keys.push(`${endpoint[1]} ${endpoint[2]}`);
      // §4.1: "The same description is available at /spec.yaml and /spec.json", under the /v1 prefix (§9).
      if (item === "Machine-readable forms") {
        for (const match of rule.matchAll(/\/spec\.(yaml|json)\b/g)) keys.push(`GET /v1${match[0]}`);
      }
      if (item === "Path" || item === "Query") {
        for (const match of rule.matchAll(/(?:^|;\s*)([a-z_]+):/g)) parameters.add(match[1] ?? "");
      }
      if (item.startsWith("Query ")) parameters.add(item.slice("Query ".length));
      if (item === "Errors") for (const status of rule.match(/\b[1-5]\d\d\b/g) ?? []) errorStatuses.add(status);
    }
    if (keys.length === 0) throw new Error(`§${number}: no endpoint row`);
    for (const key of keys) endpoints.push({ section: number, key, parameters, errorStatuses });
  }
  return endpoints;
}

/**
 * §7.1 names where each status is listed in words; this is the reading of those words. A phrase not
 * in this list fails the test, so a change to §7.1 cannot pass unnoticed.
 */
function section71Statuses(endpoints: readonly SpecEndpoint[]): Map<string, Set<string>> {
  const bySection = (...sections: string[]) => endpoints.filter((e) => sections.includes(e.section));
  const allBut = (...sections: string[]) => endpoints.filter((e) => !sections.includes(e.section));
  const where: Record<string, SpecEndpoint[]> = {
    "all endpoints except /spec": allBut("4.1"),
    "all endpoints except health and /spec": allBut("4.1", "4.7"),
    "table item, summaries, modules": bySection("4.2", "4.3", "4.5"),
    "ledger-version-based reads": endpoints.filter((e) => e.parameters.has("ledger_version")),
    submit: bySection("4.8"),
  };
  const statuses = new Map<string, Set<string>>(endpoints.map((e) => [e.key, new Set<string>()]));
  for (const [status = "", listed = ""] of tableRows(section("7.1"))) {
    const targets = where[listed];
    if (targets === undefined) throw new Error(`§7.1 ${status}: unknown 'Where listed' phrase '${listed}'`);
    for (const endpoint of targets) statuses.get(endpoint.key)?.add(status);
  }
  return statuses;
}

/** The success status: 200 everywhere (§4), except the submission's, which §4.8 leaves "not shown": any 2xx. */
function successStatus(key: string): string {
  return key === "POST /v1/transactions" ? "2XX" : "200";
}

const OPERATION_IDS: Record<string, string> = {
  "GET /v1/spec": "spec",
  "GET /v1/spec.yaml": "spec_yaml",
  "GET /v1/spec.json": "spec_json",
  "POST /v1/tables/{table_handle}/item": "get_table_item",
  "GET /v1/accounts/{address}/transaction_summaries": "get_account_transaction_summaries",
  "GET /v1/accounts/{address}/module/{module_name}": "get_account_module",
  "GET /v1/accounts/{address}/modules": "get_account_modules",
  "GET /v1/estimate_gas_price": "estimate_gas_price",
  "GET /v1/-/healthy": "healthy",
  "POST /v1/transactions": "submit_transaction",
};

// ---------------------------------------------------------------------------------------------------
// ajv, set up the way the harness is told to in the document's description

const BASE = "https://ledger-conformance.invalid/openapi.json";
const U64_MAX = (1n << 64n) - 1n;

function decimalAtMost(max: bigint): (value: string) => boolean {
  return (value) => /^[0-9]{1,20}$/.test(value) && BigInt(value) <= max;
}

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  // Validating formats: on strings only; integer schemas carry minimum/maximum instead.
  ajv.addFormat("uint8", { type: "string", validate: decimalAtMost(0xffn) });
  ajv.addFormat("uint16", { type: "string", validate: decimalAtMost(0xffffn) });
  ajv.addFormat("uint64", { type: "string", validate: decimalAtMost(U64_MAX) });
  ajv.addFormat("hex", { type: "string", validate: /^(0x)?[0-9a-fA-F]*$/ });
  // Annotation only: BCS bodies are bytes, never validated as strings.
  ajv.addFormat("binary", true);
  // oneOf + const decides; the discriminator is an annotation for OpenAPI tools.
  ajv.addKeyword({ keyword: "discriminator" });
  // The container added below holds schemas but is not one itself.
  ajv.addKeyword({ keyword: "components" });
  // Design §5, as the harness compiles the document: an optional member sent as null counts as absent.
  ajv.addSchema({ $id: BASE, components: { schemas: nullAsAbsent(doc.components.schemas) } });
  return ajv;
}

const ajv = newAjv();
const compiled = new Map<string, ValidateFunction>();

/** The validator of a component schema, by name. */
function schema(name: string): ValidateFunction {
  let validateFn = compiled.get(name);
  if (validateFn === undefined) {
    validateFn = ajv.compile({ $ref: `${BASE}#/components/schemas/${name}` });
    compiled.set(name, validateFn);
  }
  return validateFn;
}

// ---------------------------------------------------------------------------------------------------

describe("schemas/openapi.yaml as an OpenAPI document", () => {
  it("is valid OpenAPI 3.1 with the draft 2020-12 based dialect, without warnings", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.jsonSchemaDialect).toBe("https://spec.openapis.org/oas/3.1/dialect/base");
    const result = await validate(structuredClone(rawDocument) as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it.each([
    [
      "a duplicate operationId",
      (d: Mutable) => {
        setIn(d, ["paths", "/v1/-/healthy", "get", "operationId"], "spec");
      },
    ],
    [
      "a path parameter left undeclared",
      (d: Mutable) => {
        setIn(d, ["paths", "/v1/accounts/{address}/modules", "get", "parameters"], []);
      },
    ],
  ])("the validator used above rejects a copy with %s (control)", async (_, breakIt) => {
    const broken = structuredClone(rawDocument) as Mutable;
    breakIt(broken);
    const result = await validate(broken as Parameters<typeof validate>[0]);
    expect(result.valid).toBe(false);
  });

  it("closes no object: the spec closes none (§2.3, §2.4 'not shown'), so no schema sets additionalProperties false", () => {
    const closed: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${at}/${i}`));
      else if (typeof node === "object" && node !== null) {
        for (const [key, value] of Object.entries(node)) {
          if (key === "additionalProperties" && value === false) closed.push(at);
          else walk(value, `${at}/${key}`);
        }
      }
    };
    walk(rawDocument, "#");
    expect(closed).toEqual([]);
  });

  it("every internal reference resolves", () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === "object" && node !== null) {
        for (const [key, value] of Object.entries(node)) {
          if (key === "$ref" && typeof value === "string") refs.push(value);
          else walk(value);
        }
      }
    };
    walk(rawDocument);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) expect(() => pointer(ref), ref).not.toThrow();
  });
});

describe("§7.2 error codes", () => {
  it("the spec text yields the code list (sanity of the parse)", () => {
    const codes = specErrorCodes();
    expect(codes).toHaveLength(22);
    for (const code of codes) expect(code).toMatch(/^[a-z_]+$/);
  });

  it("the Error schema's error_code enum is exactly the §7.2 list, in order", () => {
    const errorCode = resolve<{ enum: string[] }>(pointer("#/components/schemas/Error/properties/error_code") as Ref);
    expect(errorCode.enum).toEqual(specErrorCodes());
  });
});

describe("§4 endpoints and §7.1 statuses", () => {
  const endpoints = specEndpoints();
  const fromSection71 = section71Statuses(endpoints);

  it("the spec text yields the ten endpoints of §4 (sanity of the parse)", () => {
    expect(endpoints.map((e) => e.key).sort()).toEqual(Object.keys(OPERATION_IDS).sort());
  });

  it("the document has exactly the §4 operations, with their operationIds", () => {
    const operations = documentOperations();
    expect(operations.map((o) => o.key).sort()).toEqual(endpoints.map((e) => e.key).sort());
    for (const { key, operation } of operations) expect(operation.operationId, key).toBe(OPERATION_IDS[key]);
  });

  it.each(endpoints)("$key: summary, and a description citing §$section", ({ key, section: number }) => {
    const operation = operationOf(key);
    expect(operation.summary.length).toBeGreaterThan(0);
    expect(operation.description).toContain(`§${number}`);
  });

  it.each(endpoints)("$key: exactly the statuses of §4 and §7.1, plus its success", (endpoint) => {
    const expected = new Set([successStatus(endpoint.key), ...endpoint.errorStatuses, ...(fromSection71.get(endpoint.key) ?? [])]);
    expect(Object.keys(operationOf(endpoint.key).responses).sort()).toEqual([...expected].sort());
  });

  it.each(endpoints)("$key: exactly the parameters §4 lists, path ones required", ({ key, parameters }) => {
    const declared = (operationOf(key).parameters ?? []).map((p) => resolve<Parameter>(p));
    expect(declared.map((p) => p.name).sort()).toEqual([...parameters].sort());
    for (const parameter of declared) {
      const inPath = key.includes(`{${parameter.name}}`);
      expect(parameter.in, parameter.name).toBe(inPath ? "path" : "query");
      expect(parameter.required ?? false, parameter.name).toBe(inPath);
    }
  });

  it("parameter schemas: Address with optional 0x, u64 strings, uint16 limit, StateKey cursor", () => {
    const schemaOf = (name: string) => {
      const found = documentOperations()
        .flatMap(({ operation }) => (operation.parameters ?? []).map((p) => resolve<Parameter>(p)))
        .find((p) => p.name === name);
      if (found === undefined) throw new Error(`no parameter ${name}`);
      return found.schema.$ref;
    };
    expect(schemaOf("address")).toBe("#/components/schemas/AddressPathValue");
    expect(schemaOf("table_handle")).toBe("#/components/schemas/AddressPathValue");
    for (const name of ["ledger_version", "start_version", "end_version", "duration_secs"]) {
      expect(schemaOf(name), name).toBe("#/components/schemas/U64");
    }
    expect(schemaOf("limit")).toBe("#/components/schemas/Limit");
    expect(schemaOf("start")).toBe("#/components/schemas/StateKeyCursor");
    expect(pointer("#/components/schemas/Limit")).toMatchObject({ type: "integer", format: "uint16", minimum: 0, maximum: 65535 });
    expect(pointer("#/components/schemas/U64")).toMatchObject({ type: "string", format: "uint64", pattern: "^[0-9]{1,20}$" });
  });

  it("request bodies: the table item request (JSON) and the submission (JSON or BCS), both required", () => {
    const table = operationOf("POST /v1/tables/{table_handle}/item").requestBody;
    expect(table?.required).toBe(true);
    expect(mediaRefs(table?.content)).toEqual({ "application/json": "#/components/schemas/TableItemRequest" });
    const submit = operationOf("POST /v1/transactions").requestBody;
    expect(submit?.required).toBe(true);
    expect(mediaRefs(submit?.content)).toEqual({
      "application/json": "#/components/schemas/SubmitTransactionRequest",
      "application/x.node.signed_transaction+bcs": "#/components/schemas/BcsBytes",
    });
  });
});

describe("§2.7 headers and media types per response", () => {
  const headers = specHeaders();
  const endpoints = specEndpoints();
  const headerSchema: Record<string, string> = {
    "integer, uint8": "#/components/schemas/HeaderU8",
    "integer, uint64": "#/components/schemas/U64",
    string: "#/components/schemas/StateKeyCursor",
  };

  it("the spec text yields the nine X-NODE- headers (sanity of the parse)", () => {
    expect(headers).toHaveLength(9);
    for (const header of headers) expect(header.name).toMatch(/^X-NODE-[A-Z-]+$/);
  });

  it.each(endpoints)("$key: its success declares every §2.7 header, required as §2.7 says", ({ key }) => {
    const response = resolve<Response>(operationOf(key).responses[successStatus(key)] as Ref | Response);
    const declared = response.headers ?? {};
    const cursorHere = key === "GET /v1/accounts/{address}/modules";
    for (const spec of headers) {
      const isCursor = spec.name === "X-NODE-CURSOR";
      const header = declared[spec.name];
      if (isCursor && !cursorHere) {
        expect(header, `${spec.name} only on the modules listing`).toBeUndefined();
        continue;
      }
      expect(header, spec.name).toBeDefined();
      const resolved = resolve<Header>(header as Ref);
      expect(resolved.required ?? false, spec.name).toBe(spec.onSuccess === "required");
      expect(resolved.schema.$ref, spec.name).toBe(headerSchema[spec.type]);
    }
    expect(Object.keys(declared).length).toBe(cursorHere ? 9 : 8);
  });

  it.each(endpoints)("$key: every error declares the §2.7 headers as optional, never the cursor", ({ key }) => {
    for (const [status, node] of Object.entries(operationOf(key).responses)) {
      if (status.startsWith("2")) continue;
      const declared = resolve<Response>(node).headers ?? {};
      for (const spec of headers) {
        const header = declared[spec.name];
        if (spec.onError === "absent") {
          expect(header, `${status} ${spec.name}`).toBeUndefined();
          continue;
        }
        expect(header, `${status} ${spec.name}`).toBeDefined();
        expect(resolve<Header>(header as Ref).required ?? false, `${status} ${spec.name}`).toBe(false);
      }
    }
  });

  it.each(endpoints)("$key: media types of its success and its errors", ({ key }) => {
    const responses = operationOf(key).responses;
    const success = mediaRefs(resolve<Response>(responses[successStatus(key)] as Ref | Response).content);
    const expected: Record<string, Record<string, string>> = {
      "GET /v1/spec": { "text/html": "#/components/schemas/HtmlDocument" },
      "GET /v1/spec.yaml": {
        "application/yaml": "#/components/schemas/YamlDocument",
        "application/x-yaml": "#/components/schemas/YamlDocument",
      },
      "GET /v1/spec.json": { "application/json": "#/components/schemas/OpenApiDocument" },
      "POST /v1/transactions": {
        "application/json": "#/components/schemas/PendingTransaction",
        "application/x-bcs": "#/components/schemas/EmptyBody",
      },
    };
    const bcs = "#/components/schemas/BcsBytes";
    if (key in expected) expect(success).toEqual(expected[key]);
    else expect(success).toEqual({ "application/json": expect.stringMatching(/^#\/components\/schemas\//), "application/x-bcs": bcs });
    for (const [status, node] of Object.entries(responses)) {
      if (status.startsWith("2")) continue;
      expect(mediaRefs(resolve<Response>(node).content), status).toEqual({ "application/json": "#/components/schemas/Error" });
    }
  });

  it("raw header strings validate through the header schemas", () => {
    const chainId = schema("HeaderU8");
    const u64 = schema("U64");
    expect(chainId("4")).toBe(true);
    expect(chainId("255")).toBe(true);
    expect(chainId("256")).toBe(false);
    expect(chainId("-1")).toBe(false);
    expect(u64("18446744073709551615")).toBe(true);
    expect(u64("18446744073709551616")).toBe(false);
    expect(u64("12a")).toBe(false);
    expect(u64("")).toBe(false);
  });
});

describe("component schemas under ajv (draft 2020-12)", () => {
  it.each(Object.keys(doc.components.schemas))("%s compiles", (name) => {
    expect(() => schema(name)).not.toThrow();
  });

  const address = "0x1";
  const hash = `0x${"ab".repeat(32)}`;
  const ed25519 = { type: "ed25519_signature", public_key: `0x${"11".repeat(32)}`, signature: `0x${"22".repeat(64)}` };
  const singleKey = {
    public_key: { type: "ed25519", value: `0x${"11".repeat(32)}` },
    signature: { type: "ed25519", value: `0x${"22".repeat(64)}` },
  };
  const entryPayload = {
    type: "entry_function_payload",
    function: "0x1::aptos_account::transfer",
    type_arguments: [],
    arguments: ["0x2", "100"],
  };
  const submission = {
    sender: address,
    sequence_number: "0",
    max_gas_amount: "2000",
    gas_unit_price: "100",
    expiration_timestamp_secs: "1700000000",
    payload: entryPayload,
    signature: ed25519,
  };
  const abi = {
    address,
    name: "coin",
    friends: ["0x1::aptos_coin"],
    exposed_functions: [
      {
        name: "transfer",
        visibility: "public",
        is_entry: true,
        is_view: false,
        generic_type_params: [{ constraints: [] }],
        params: ["&signer", "address", "u64"],
        return: [],
      },
    ],
    structs: [
      {
        name: "Coin",
        is_native: false,
        is_event: false,
        abilities: ["store"],
        generic_type_params: [{ constraints: [] }],
        fields: [{ name: "value", type: "u64" }],
      },
    ],
  };

  // [schema, instance, valid?, why]
  const cases: [string, unknown, boolean, string][] = [
    ["Address", "0x1", true, "short form"],
    ["Address", "1", false, "a body address needs 0x"],
    ["Address", `0x${"0".repeat(65)}`, false, "over 32 bytes"],
    ["AddressPathValue", "1", true, "0x optional in a path"],
    ["AddressPathValue", "0x", true, "every leading zero stripped: 0x0 (§2.1)"],
    ["AddressPathValue", "", false, "no digits and no 0x"],
    ["U64", "0", true, "zero"],
    ["U64", 5, false, "a JSON number is not a u64 string"],
    ["U64", "1.0", false, "not an integer"],
    ["HexEncodedBytes", "0x", true, "no bytes"],
    ["HexEncodedBytes", "0xabc", false, "odd digit count"],
    ["MoveType", "vector<u8>", true, "declared pattern"],
    ["MoveType", "u32", true, "an allowed form §2.1 lists, which the declared pattern omits"],
    ["MoveType", "u256", true, "an allowed form §2.1 lists, which the declared pattern omits"],
    ["MoveType", "i64", true, "signed integers of newer aptos-core nodes"],
    ["MoveType", "u7", false, "no such type"],
    [
      "TransactionSummary",
      { sender: address, version: "7", transaction_hash: hash, replay_protector: { type: "sequence_number", sequence_number: "5" } },
      true,
      "sequence number",
    ],
    [
      "TransactionSummary",
      { sender: address, version: "7", transaction_hash: hash, replay_protector: { type: "nonce", nonce: "9" } },
      true,
      "nonce",
    ],
    [
      "TransactionSummary",
      { sender: address, version: "7", transaction_hash: hash, replay_protector: { type: "nonce", sequence_number: "9" } },
      false,
      "member of the other variant",
    ],
    [
      "TransactionSummary",
      { sender: address, version: "7", hash, replay_protector: { type: "nonce", nonce: "9" } },
      false,
      "misspelled member",
    ],
    [
      "TransactionSummary",
      { sender: address, version: "7", transaction_hash: hash, replay_protector: { type: "nonce", nonce: "9", extra: 2 }, extra: 1 },
      true,
      "open: other members not shown (§2.3)",
    ],
    [
      "TransactionSummary",
      { sender: address, version: "7", transaction_hash: hash, replay_protector: "5" },
      false,
      "a bare value is not one of two objects (§2.3)",
    ],
    ["Error", { message: "bad", error_code: "vm_error", vm_error_code: 1 }, true, "with vm_error_code"],
    [
      "Error",
      { message: "bad", error_code: "invalid_input", vm_error_code: null },
      true,
      "vm_error_code null counts as absent (the family's convention)",
    ],
    ["Error", { message: null, error_code: "invalid_input" }, false, "a required member is never null"],
    ["Error", { message: "bad", error_code: "invalid_input", vm_error_code: "1" }, false, "vm_error_code not an integer"],
    ["Error", { message: "bad", error_code: "not_a_code" }, false, "unknown code"],
    ["Error", { error_code: "internal_error" }, false, "no message"],
    ["Error", { message: "bad", error_code: "internal_error", code: 500 }, true, "open: a member the contract does not declare"],
    ["GasEstimation", { deprioritized_gas_estimate: 100, gas_estimate: 100, prioritized_gas_estimate: 150 }, true, "JSON integers"],
    ["GasEstimation", { deprioritized_gas_estimate: "100", gas_estimate: "100", prioritized_gas_estimate: "150" }, false, "strings"],
    ["GasEstimation", { gas_estimate: 100 }, false, "members missing"],
    ["HealthCheckSuccess", { message: "ok", more: true }, true, "open"],
    ["MoveModuleBytecode", { bytecode: "0xa11ceb0b0600", abi }, true, "with ABI"],
    ["MoveModuleBytecode", { bytecode: "0xdeadbeef" }, false, "no Move magic"],
    [
      "MoveModuleBytecode",
      { bytecode: "0xa11ceb0b", abi: { ...abi, structs: undefined } },
      true,
      "ABI without structs (§2.4 does not mark it required)",
    ],
    [
      "MoveModuleBytecode",
      { bytecode: "0xa11ceb0b", abi: { ...abi, exposed_functions: undefined } },
      false,
      "ABI without exposed_functions (§2.4 required)",
    ],
    ["MoveModuleBytecode", { bytecode: "0xa11ceb0b", abi: null }, true, "abi null counts as absent"],
    [
      "MoveModule",
      { ...abi, exposed_functions: [{ ...abi.exposed_functions[0], is_entry: undefined, is_view: undefined }] },
      true,
      "function flags absent (older nodes; §2.4 optional)",
    ],
    [
      "MoveModule",
      { ...abi, exposed_functions: [{ ...abi.exposed_functions[0], generic_type_params: undefined }] },
      false,
      "function without generic_type_params (§2.4 required)",
    ],
    [
      "MoveModule",
      { ...abi, exposed_functions: [{ ...abi.exposed_functions[0], is_entry: "yes" }] },
      false,
      "a flag that is not a boolean",
    ],
    [
      "MoveModule",
      { ...abi, structs: [{ ...abi.structs[0], is_event: undefined }] },
      true,
      "struct without is_event (older nodes; §2.4 optional)",
    ],
    [
      "MoveModule",
      { ...abi, structs: [{ ...abi.structs[0], generic_type_params: undefined }] },
      false,
      "struct without generic_type_params (§2.4 required)",
    ],
    ["MoveModule", { ...abi, exposed_functions: [{ ...abi.exposed_functions[0], visibility: "internal" }] }, false, "unknown visibility"],
    ["TableItemRequest", { key_type: "u64", value_type: "address", key: "7" }, true, "the family's names"],
    ["TableItemRequest", { key_type: "u64", value_type: "address" }, false, "no key"],
    ["SubmitTransactionRequest", submission, true, "ed25519 signature"],
    ["SubmitTransactionRequest", { ...submission, signature: undefined }, false, "no signature"],
    ["TransactionSignature", { type: "single_sender", ...singleKey }, true, "single sender, single key"],
    [
      "TransactionSignature",
      {
        type: "fee_payer_signature",
        sender: { ...singleKey, type: "single_key_signature" },
        secondary_signer_addresses: [],
        secondary_signers: [],
        fee_payer_address: "0x2",
        fee_payer_signer: ed25519,
      },
      true,
      "fee payer",
    ],
    ["TransactionSignature", { type: "no_account_signature" }, true, "no members"],
    ["TransactionSignature", { type: "secp256k1_signature", public_key: "0x01", signature: "0x02" }, false, "unknown tag"],
    [
      "AccountSignature",
      { type: "abstraction_signature", function_info: "0x1::auth::authenticate", auth_data: "0x00" },
      true,
      "abstraction",
    ],
    [
      "AccountSignature",
      {
        type: "multi_key_signature",
        public_keys: [singleKey.public_key],
        signatures: [{ index: 0, signature: singleKey.signature }],
        signatures_required: 1,
      },
      true,
      "multi key",
    ],
    ["TransactionPayload", { type: "module_bundle_payload" }, true, "members not shown"],
    ["TransactionPayload", { type: "multisig_payload", multisig_address: "0x3", transaction_payload: entryPayload }, true, "multisig"],
    ["PendingTransaction", { ...submission, hash }, true, "the family's members"],
    [
      "PendingTransaction",
      { ...submission, hash, signature: undefined, replay_protection_nonce: null },
      true,
      "as aptos-core: signature optional, nonce null",
    ],
    ["PendingTransaction", { ...submission, hash: undefined }, false, "no hash"],
    [
      "EntryFunctionPayload",
      { ...entryPayload, type_arguments: ["u16", "vector<u256>", "i8"] },
      true,
      "u16, u256 and signed type arguments",
    ],
  ];

  it.each(cases)("%s: %j is %s (%s)", (name, instance, valid) => {
    const validateFn = schema(name);
    expect(validateFn(instance), JSON.stringify(validateFn.errors)).toBe(valid);
  });
});

// ---------------------------------------------------------------------------------------------------

type Mutable = Record<string, unknown>;

/** Sets a value deep in a parsed copy of the document; the path must exist up to its last step. */
function setIn(root: Mutable, path: readonly string[], value: unknown): void {
  let current: Mutable = root;
  for (const key of path.slice(0, -1)) {
    const next = current[key];
    if (typeof next !== "object" || next === null) throw new Error(`no ${key} in ${path.join(" > ")}`);
    current = next as Mutable;
  }
  const last = path[path.length - 1];
  if (last === undefined || !(last in current)) throw new Error(`no ${path.join(" > ")}`);
  current[last] = value;
}

function operationOf(key: string): Operation {
  const [method = "", path = ""] = key.split(" ");
  const operation = doc.paths[path]?.[method.toLowerCase()];
  if (operation === undefined) throw new Error(`no operation ${key}`);
  return operation;
}

/** Media type -> schema reference; every body schema must be a single $ref into components. */
function mediaRefs(content: Record<string, MediaType> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(content ?? {}).map(([type, media]) => [type, media.schema.$ref]));
}
