// §4.1 Interface description: GET /v1/spec answers 200 text/html, a UI for exploring the interface;
// the same description is available machine-readable at /spec.yaml and /spec.json (relative to the
// target, which ends in /v1). The suite reads both as OpenAPI documents (the form schemas/openapi.yaml
// gives them) and looks for every operation of the interface in them: method and path, the path taken
// after any server path prefix (a document may write /accounts/... under a server URL ending in /v1).
//
// Every response is also checked by the harness against the observed-status contract.

import { parse as parseYaml } from "yaml";
import { check, describeEndpoint, runMemoryKey, type CheckContext, type HttpResponse } from "../src/harness/index.ts";

const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

/** What the start of an HTML document looks like (a doctype, or the html, head or body element). */
const HTML_START = /^\uFEFF?\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body)[\s>]/i;

type Json = Record<string, unknown>;

/** "GET /v1/accounts/{}/modules": parameter names may differ between documents, so they are blanked. */
function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, "{}")}`;
}

/** The path part a document's paths are relative to: OpenAPI 3 servers[0].url (variables at their defaults), or Swagger 2 basePath. */
function pathPrefix(doc: Json): string {
  if (typeof doc.basePath === "string") return doc.basePath.replace(/\/+$/, "");
  const server = Array.isArray(doc.servers) ? (doc.servers[0] as Json | undefined) : undefined;
  if (typeof server?.url !== "string") return "";
  const variables = (server.variables ?? {}) as Record<string, { default?: unknown }>;
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => String(variables[name]?.default ?? ""));
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Relative (e.g. "/v1") or empty: already a path.
  }
  return path.replace(/\/+$/, "");
}

/** Every operation a document describes, as operationKey strings with the server prefix applied. */
function describedOperations(doc: Json): Set<string> {
  const prefix = pathPrefix(doc);
  const keys = new Set<string>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of HTTP_METHODS)
      if (item !== null && typeof item === "object" && method in item) keys.add(operationKey(method, `${prefix}${path}`));
  }
  return keys;
}

/**
 * The machine-readable forms themselves: §4.1 says only that the description "is available" at them, and
 * aptos-core's description does not list them among its paths (api/doc/spec.yaml), so they may be absent.
 */
const SELF_DESCRIBING: ReadonlySet<string> = new Set(["spec_yaml", "spec_json"]);

/** The operations of the interface (schemas/openapi.yaml) that the served description may not lack. */
function missingOperations(t: CheckContext, doc: Json): string[] {
  const described = describedOperations(doc);
  return t.contract.operations
    .filter((op) => !SELF_DESCRIBING.has(op.id))
    .map((op) => operationKey(op.method, op.template))
    .filter((key) => !described.has(key));
}

/** The parsed document must be an OpenAPI document by the contract's schema for /spec.json. */
function expectOpenApiDocument(t: CheckContext, doc: unknown, res: HttpResponse): Json {
  const problems = t.contract.operation("spec_json").response(200)?.validateBody("application/json", { json: doc, text: res.text }) ?? [
    "no schema",
  ];
  t.expect(problems.length === 0, "an OpenAPI document {openapi, info, paths}", res, problems.slice(0, 5).join("; "));
  return doc as Json;
}

/**
 * The last YAML text parsed, and what it parsed to: three checks read /spec.yaml, and parsing the
 * reference node's description (57 KiB) costs ~90 ms of the worker's CPU each time. A parse depends on
 * the text alone, so a check whose answer has the very same text gets the same value; each check still
 * sends its own request and is judged by its own answer. (Nothing mutates a parsed document.)
 */
const LAST_PARSED = runMemoryKey("the last YAML text parsed", (): { last?: { readonly text: string; readonly value: unknown } } => ({}));
function parseYamlText(t: CheckContext, text: string): unknown {
  const parsed = t.remembered(LAST_PARSED);
  if (parsed.last?.text !== text) parsed.last = { text, value: parseYaml(text, { logLevel: "error" }) };
  return parsed.last.value;
}

async function yamlDocument(t: CheckContext): Promise<{ res: HttpResponse; doc: Json }> {
  const res = await t.request({ path: "/spec.yaml", accept: "application/yaml, */*;q=0.5" });
  t.expectStatus(res, 200);
  let parsed: unknown;
  try {
    parsed = parseYamlText(t, res.text);
  } catch (e) {
    t.fail("a body that parses as YAML", res, `YAML error: ${(e as Error).message.split("\n")[0]}`);
  }
  return { res, doc: expectOpenApiDocument(t, parsed, res) };
}

async function jsonDocument(t: CheckContext): Promise<{ res: HttpResponse; doc: Json }> {
  const res = await t.request({ path: "/spec.json" });
  t.expectStatus(res, 200);
  t.expectMediaType(res, "application/json");
  return { res, doc: t.expectBodyMatchesSchema(res) as Json };
}

/** The JSON pointer of the first place two JSON values differ, or undefined when they are equal. */
function firstDifference(a: unknown, b: unknown, pointer = ""): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b))
    return pointer || "/";
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const where = firstDifference((a as Json)[key], (b as Json)[key], `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    if (where !== undefined) return where;
  }
  return undefined;
}

describeEndpoint("spec", () => {
  check("4.1/spec-page-html", async (t) => {
    const res = await t.request({ path: "/spec", accept: "text/html" });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "text/html");
    t.expect(HTML_START.test(res.text), "an HTML document (beginning with a doctype or an html, head or body element)", res);
  });
});

describeEndpoint("spec_yaml", () => {
  check("4.1/spec-yaml", async (t) => {
    await yamlDocument(t);
  });

  check("4.1/yaml-describes-interface", async (t) => {
    const { res, doc } = await yamlDocument(t);
    const missing = missingOperations(t, doc);
    t.expect(missing.length === 0, "every operation of the interface in the description's paths", res, `missing: ${missing.join(", ")}`);
  });
});

describeEndpoint("spec_json", () => {
  check("4.1/spec-json", async (t) => {
    await jsonDocument(t);
  });

  check("4.1/json-describes-interface", async (t) => {
    const { res, doc } = await jsonDocument(t);
    const missing = missingOperations(t, doc);
    t.expect(missing.length === 0, "every operation of the interface in the description's paths", res, `missing: ${missing.join(", ")}`);
  });

  check("4.1/same-description", async (t) => {
    const json = await jsonDocument(t);
    const yaml = await yamlDocument(t);
    const where = firstDifference(yaml.doc, json.doc);
    t.expect(
      where === undefined,
      "the YAML document parsed = the JSON document",
      json.res,
      `they differ first at ${where} (YAML: ${yaml.res.curl})`,
    );
  });
});
