// The contract as data: schemas/openapi.yaml, compiled once per worker with ajv (JSON Schema 2020-12,
// the OpenAPI 3.1 dialect). For an operation and a status it gives the declared statuses, the media
// types, the header rules and a body validator. Conventions relied on are the ones the document states
// at its top: paths carry /v1 (a target URL ends in /v1, so templates are matched without it), every
// schema is one $ref into #/components/schemas, headers are declared as X-NODE-* (renamed here to the
// profile's prefix), `discriminator` is an annotation next to a oneOf that decides by itself.

import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { BoundedMap } from "../codec/bounded-map.ts";
import { parsePackageYaml } from "../parsed-yaml.ts";
import { packagePath } from "../package-root.ts";
import { unknownMembersOf, type SchemaMatcher, type UnknownMember } from "./unknown-members.ts";

export const DEFAULT_OPENAPI_PATH = packagePath("schemas", "openapi.yaml");

/** The prefix the document declares its §2.7 headers with. */
export const DOCUMENT_HEADER_PREFIX = "X-NODE-";

const SCHEMA_BASE = "https://ledger-conformance.invalid/openapi.json";

export interface HeaderRule {
  /** Lower-case header name under the profile's prefix. */
  readonly name: string;
  /** The name as the document spells it (X-NODE-…). */
  readonly declaredName: string;
  readonly required: boolean;
  /** Undefined when the value is fine, else why not. */
  validate(value: string): string | undefined;
}

export interface ResponseContract {
  readonly status: number;
  /** Lower-case media types of the declared content. */
  readonly mediaTypes: readonly string[];
  readonly headers: readonly HeaderRule[];
  /** Validates a body of this media type; returns problems, [] when valid, undefined when nothing is declared for it. */
  validateBody(mediaType: string, body: { json: unknown; text: string }): string[] | undefined;
  /** True when the schema for this media type is raw bytes (BCS): nothing to validate as JSON. */
  isBinary(mediaType: string): boolean;
  /**
   * The members of a JSON body its schema does not declare, one entry per occurrence ("Objects" at the
   * top of the document: never an error, listed by the report). [] when the body does not match its
   * schema (what it matched is then undefined) or nothing JSON is declared for the media type.
   */
  unknownMembers(mediaType: string, body: { json: unknown; text: string }): readonly UnknownMember[];
}

export interface OperationContract {
  readonly id: string;
  readonly method: string;
  /** As the document writes it, e.g. /v1/accounts/{address}/modules. */
  readonly template: string;
  /** Declared numeric statuses, ascending. */
  readonly statuses: readonly number[];
  /** Whether the operation lists `status`: a declared status, or one of a declared range ("2XX"). */
  lists(status: number): boolean;
  /** The declared statuses and ranges as the document writes them, for messages: "2XX, 400, 403". */
  readonly statusSet: string;
  /** The contract of `status`: its own, else its range's ("2XX" for 201). */
  response(status: number): ResponseContract | undefined;
  /** The request body media types the operation declares. */
  readonly requestMediaTypes: readonly string[];
}

type Json = Record<string, unknown>;

export class ApiContract {
  readonly operations: readonly OperationContract[];
  /** The §7.2 codes, as the document's ErrorCode schema enumerates them (test/schemas checks them against the spec). */
  readonly errorCodes: readonly string[];
  /**
   * Problems of a JSON value as the §2.6 error object (the Error schema); [] when it is one. Whether
   * error_code is one of the §7.2 values is 7.2/error-code-known's to judge, so that one deviation fails
   * one requirement: here it must be a string.
   */
  readonly errorObjectProblems: (json: unknown) => string[];
  readonly #byId: Map<string, OperationContract>;
  readonly #matchers: { op: OperationContract; regex: RegExp }[];

  private constructor(operations: OperationContract[], errorCodes: readonly string[], errorObjectProblems: (json: unknown) => string[]) {
    this.operations = operations;
    this.errorCodes = errorCodes;
    this.errorObjectProblems = errorObjectProblems;
    this.#byId = new Map(operations.map((op) => [op.id, op]));
    this.#matchers = operations.map((op) => ({ op, regex: templateRegex(stripVersionPrefix(op.template)) }));
  }

  static load(path: string = DEFAULT_OPENAPI_PATH, headerPrefix: string = DOCUMENT_HEADER_PREFIX): ApiContract {
    return ApiContract.fromDocument(parsePackageYaml(readFileSync(path, "utf8")) as Json, headerPrefix);
  }

  static fromDocument(doc: Json, headerPrefix: string = DOCUMENT_HEADER_PREFIX): ApiContract {
    const ajv = createAjv();
    const components = (doc.components ?? {}) as Json;
    const schemas = (components.schemas ?? {}) as Json;
    ajv.addSchema({ $id: SCHEMA_BASE, components: { schemas: nullAsAbsent(schemas) } });
    const compiled = new Map<string, ValidateFunction>();
    const compile = (schema: unknown): ValidateFunction => {
      const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
      const key = typeof ref === "string" ? ref : JSON.stringify(schema ?? {});
      let fn = compiled.get(key);
      if (!fn) {
        fn =
          typeof ref === "string" && ref.startsWith("#/")
            ? ajv.compile({ $ref: SCHEMA_BASE + ref })
            : ajv.compile(rebase(schema ?? {}) as object);
        compiled.set(key, fn);
      }
      return fn;
    };
    // A oneOf or anyOf branch, judged as the body's validator judges it (with null as absent).
    const matches: SchemaMatcher = (branch, value) =>
      compile(typeof (branch as { $ref?: unknown } | null)?.$ref === "string" ? branch : nullAsAbsent(branch))(value);
    const memo = new BoundedMap<string, { readonly schema: unknown; readonly found: readonly UnknownMember[] }>(MEMO_BODIES);
    const members: Members = (schema, { json, text }) => {
      const known = memo.get(text);
      if (known !== undefined && known.schema === schema) return known.found;
      const found = compile(schema)(json) ? unknownMembersOf(schemas, schema, json, matches) : [];
      if (text.length <= MEMO_MAX_TEXT) memo.set(text, { schema, found });
      return found;
    };
    const operations: OperationContract[] = [];
    for (const [template, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
      for (const method of ["get", "put", "post", "delete", "patch", "head", "options"]) {
        const raw = item[method] as Json | undefined;
        if (raw === undefined) continue;
        const id = String(raw.operationId ?? `${method} ${template}`);
        const responses = new Map<number, ResponseContract>();
        // OpenAPI's ranges ("2XX"): where the spec leaves a status open within a class (§4.8's success).
        const ranges = new Map<number, ResponseContract>();
        for (const [code, value] of Object.entries((raw.responses ?? {}) as Json)) {
          const response = resolve(doc, value) as Json;
          if (/^\d{3}$/.test(code))
            responses.set(Number(code), responseContract(doc, Number(code), response, compile, members, headerPrefix));
          else if (/^[1-5]XX$/.test(code))
            ranges.set(Number(code[0]), responseContract(doc, Number(code[0]) * 100, response, compile, members, headerPrefix));
        }
        const response = (status: number) => responses.get(status) ?? ranges.get(Math.floor(status / 100));
        const statuses = [...responses.keys()].sort((a, b) => a - b);
        const statusSet = [...[...ranges.keys()].sort().map((c) => `${c}XX`), ...statuses.map(String)].join(", ");
        const requestBody = resolve(doc, raw.requestBody) as Json | undefined;
        operations.push({
          id,
          method: method.toUpperCase(),
          template,
          statuses,
          lists: (status) => response(status) !== undefined,
          statusSet,
          response,
          requestMediaTypes: Object.keys((requestBody?.content ?? {}) as Json).map((m) => m.toLowerCase()),
        });
      }
    }
    const errorCode = (components.schemas as Json | undefined)?.ErrorCode as Json | undefined;
    const errorCodes = Array.isArray(errorCode?.enum) ? errorCode.enum.map(String) : [];
    if (errorCodes.length === 0) throw new Error("the OpenAPI document's ErrorCode schema enumerates no values");
    const errorObject = { $ref: "#/components/schemas/Error" };
    const isCodeValue = (e: ErrorObject) => e.instancePath === "/error_code" && e.keyword === "enum";
    return new ApiContract(operations, errorCodes, (json) => problemsOf(compile(errorObject), json, isCodeValue));
  }

  operation(id: string): OperationContract {
    const op = this.#byId.get(id);
    if (!op) throw new Error(`unknown operation ${JSON.stringify(id)}; known: ${[...this.#byId.keys()].join(", ")}`);
    return op;
  }

  hasOperation(id: string): boolean {
    return this.#byId.has(id);
  }

  /** The operation a request goes to: `path` is relative to the target (…/v1), may carry a query. */
  findOperation(method: string, path: string): OperationContract | undefined {
    const pathname = path.split(/[?#]/)[0] ?? "";
    const upper = method.toUpperCase();
    // Fixed segments beat parameters: /accounts/x/modules must not match a {module_name} template.
    const candidates = this.#matchers.filter((m) => m.op.method === upper && m.regex.test(pathname));
    candidates.sort((a, b) => paramCount(a.op.template) - paramCount(b.op.template));
    return candidates[0]?.op;
  }
}

function paramCount(template: string): number {
  return (template.match(/\{[^}]+\}/g) ?? []).length;
}

export function stripVersionPrefix(template: string): string {
  return template.startsWith("/v1/") ? template.slice(3) : template;
}

function templateRegex(template: string): RegExp {
  const parts = template.split(/(\{[^}]+\})/).map((part) => (part.startsWith("{") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${parts.join("")}$`);
}

/**
 * The undeclared members of a body under its schema (none when the body does not match it). They are a
 * function of the body's text: a node read again and again (a law's repeated reads, the load's
 * thousands) sends the same bodies, and walking a module listing's ABIs against the schema is most of
 * what judging its answer costs, so the last bodies up to a size are remembered with their schema.
 */
type Members = (schema: unknown, body: { json: unknown; text: string }) => readonly UnknownMember[];
const MEMO_BODIES = 64;
const MEMO_MAX_TEXT = 256 * 1024;

function responseContract(
  doc: Json,
  status: number,
  response: Json,
  compile: (schema: unknown) => ValidateFunction,
  members: Members,
  headerPrefix: string,
): ResponseContract {
  const content = (response.content ?? {}) as Record<string, Json>;
  const bodies = new Map<string, { schema: unknown; binary: boolean }>();
  for (const [media, value] of Object.entries(content)) {
    const schema = resolveSchemaTarget(doc, value.schema);
    bodies.set(media.toLowerCase(), { schema: value.schema, binary: (schema as Json | undefined)?.format === "binary" });
  }
  const headers: HeaderRule[] = [];
  for (const [declaredName, value] of Object.entries((response.headers ?? {}) as Json)) {
    const header = resolve(doc, value) as Json;
    const name = renameHeader(declaredName, headerPrefix).toLowerCase();
    const schema = header.schema;
    headers.push({
      name,
      declaredName,
      required: header.required === true,
      validate: (v) => {
        const fn = compile(schema);
        return fn(v) ? undefined : describeErrors(fn, "(value)");
      },
    });
  }
  return {
    status,
    mediaTypes: [...bodies.keys()],
    headers,
    isBinary: (media) => bodies.get(media.toLowerCase())?.binary ?? false,
    validateBody: (media, body) => {
      const declared = bodies.get(media.toLowerCase());
      if (!declared) return undefined;
      if (declared.binary) return [];
      const isJson = media === "application/json" || media.endsWith("+json");
      if (isJson && body.json === undefined) return ["the body is not JSON"];
      return problemsOf(compile(declared.schema), isJson ? body.json : body.text);
    },
    unknownMembers: (media, { json, text }) => {
      const declared = bodies.get(media.toLowerCase());
      if (!declared || declared.binary || json === undefined || !(media === "application/json" || media.endsWith("+json"))) return [];
      return members(declared.schema, { json, text });
    },
  };
}

/**
 * The family's convention: an optional member sent as `null` counts as absent, everywhere (aptos-core serializes an
 * unset Option as null: `vm_error_code` in api/types/src/error.rs, `replay_protection_nonce` of the
 * pending transaction in api/types/src/transaction.rs). So every property an object schema does not
 * list in `required` also admits null; required members do not. Applied to a copy of the schemas.
 */
export function nullAsAbsent(schemas: unknown): unknown {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== "object" || node === null) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node as Json)) out[key] = visit(value);
    const properties = out.properties as Json | undefined;
    if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
      const required = new Set(Array.isArray(out.required) ? (out.required as unknown[]) : []);
      out.properties = Object.fromEntries(
        Object.entries(properties).map(([name, schema]) => [name, required.has(name) ? schema : { anyOf: [{ type: "null" }, schema] }]),
      );
    }
    return out;
  };
  return visit(schemas);
}

/** X-NODE-CURSOR → X-APTOS-CURSOR under the Aptos profile. */
export function renameHeader(declared: string, prefix: string): string {
  return declared.toUpperCase().startsWith(DOCUMENT_HEADER_PREFIX) ? prefix + declared.slice(DOCUMENT_HEADER_PREFIX.length) : declared;
}

/** Follows an OpenAPI (non-schema) $ref such as #/components/responses/BadRequest. */
function resolve(doc: Json, value: unknown, depth = 0): unknown {
  const ref = (value as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== "string" || depth > 20) return value;
  if (!ref.startsWith("#/")) throw new Error(`only local $refs are supported, got ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = (node as Json | undefined)?.[key];
  }
  if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
  return resolve(doc, node, depth + 1);
}

function resolveSchemaTarget(doc: Json, schema: unknown): unknown {
  try {
    return resolve(doc, schema);
  } catch {
    return undefined;
  }
}

/** Inline schemas with local refs point into the registered components. */
function rebase(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === "$ref" && typeof value === "string" && value.startsWith("#/") ? SCHEMA_BASE + value : value,
  );
}

function problemsOf(fn: ValidateFunction, value: unknown, ignored: (e: ErrorObject) => boolean = () => false): string[] {
  return fn(value) ? [] : (fn.errors ?? []).filter((e) => !isNullAsAbsentNoise(e) && !ignored(e)).map((e) => describeError(e, "(body)"));
}

/** The branches nullAsAbsent adds ("must be null", "must match a schema in anyOf") say nothing about what is wrong. */
function isNullAsAbsentNoise(e: ErrorObject): boolean {
  return e.keyword === "anyOf" || (e.keyword === "type" && (e.params as { type?: unknown }).type === "null");
}

function describeErrors(fn: ValidateFunction, root: string): string {
  return (fn.errors ?? []).map((e) => describeError(e, root)).join("; ");
}

function describeError(e: ErrorObject, root: string): string {
  const params = e.params as { additionalProperty?: string; allowedValue?: unknown };
  const detail =
    params.additionalProperty !== undefined
      ? ` (${params.additionalProperty})`
      : params.allowedValue !== undefined
        ? ` ${JSON.stringify(params.allowedValue)}`
        : "";
  return `${e.instancePath || root} ${e.message ?? "is invalid"}${detail}`;
}

const UINT_MAX: Record<string, bigint> = { uint8: 255n, uint16: 65535n, uint32: 4294967295n, uint64: 18446744073709551615n };

function createAjv(): Ajv2020 {
  // validateSchema off: checking the document's schemas against JSON Schema's meta-schema would cost
  // every worker at its start; they are the package's own, checked by test/schemas/openapi.test.ts.
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true, validateSchema: false });
  ajv.addKeyword("discriminator");
  ajv.addKeyword("components");
  for (const [format, max] of Object.entries(UINT_MAX)) {
    // On strings (u64 values, headers) the decimal digits of an integer in range; on numbers an annotation.
    ajv.addFormat(format, { type: "string", validate: (s: string) => /^[0-9]+$/.test(s) && BigInt(s) <= max });
  }
  ajv.addFormat("hex", { type: "string", validate: (s: string) => /^(0x)?[0-9a-fA-F]*$/.test(s) });
  ajv.addFormat("binary", { type: "string", validate: () => true });
  return ajv;
}
