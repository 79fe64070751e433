// The requirement catalog (schemas/requirements/*.yaml, one file per area of the spec, read in name
// order): every check names one of its ids. Loaded once per process and validated: the shape by ajv,
// then unique ids across all files, ids that begin with their section, and endpoints that exist in the
// OpenAPI document.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { parsePackageYaml, parseYaml } from "../parsed-yaml.ts";
import { ConfigurationError } from "./configuration-error.ts";
import { packagePath } from "../package-root.ts";

export type Level = "MUST" | "SHOULD";

export interface Requirement {
  readonly id: string;
  readonly level: Level;
  readonly section: string;
  /** operationId, or "*" for every endpoint. */
  readonly endpoint: string;
  readonly text: string;
  /** "load": a law under load, in the catalog of a run with --load only (src/run/run-inputs.ts). */
  readonly mode?: "load";
}

export const DEFAULT_REQUIREMENTS_PATH = packagePath("schemas", "requirements");

/** A requirement id: its section, a slash, lowercase words joined by hyphens ("4.3/ascending-order"). */
export const REQUIREMENT_ID_PATTERN = /^[0-9]+(\.[0-9]+)*\/[a-z0-9]+(-[a-z0-9]+)*$/;

export const ENTRY_SCHEMA = {
  type: "array",
  items: {
    type: "object",
    additionalProperties: false,
    required: ["id", "level", "section", "endpoint", "text"],
    properties: {
      id: { type: "string", pattern: REQUIREMENT_ID_PATTERN.source },
      level: { enum: ["MUST", "SHOULD"] },
      section: { type: "string", pattern: "^[0-9]+(\\.[0-9]+)*$" },
      endpoint: { type: "string", minLength: 1 },
      text: { type: "string", minLength: 1 },
      mode: { enum: ["load"] },
    },
  },
} as const;

// The schema is this file's constant: checked against the meta-schema once, by
// test/harness/schema-constants.test.ts, rather than at every start of every worker.
const validateEntries = new Ajv({ allErrors: true, validateSchema: false }).compile(ENTRY_SCHEMA);

export class CatalogError extends ConfigurationError {
  override readonly name = "CatalogError";
}

export class RequirementCatalog {
  readonly requirements: readonly Requirement[];
  readonly #byId: Map<string, Requirement>;

  constructor(requirements: readonly Requirement[]) {
    this.requirements = requirements;
    this.#byId = new Map(requirements.map((r) => [r.id, r]));
  }

  get(id: string): Requirement {
    const r = this.#byId.get(id);
    if (!r) throw new CatalogError(`unknown requirement id ${JSON.stringify(id)}: add it to a file of schemas/requirements/`);
    return r;
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  /** The catalog without the requirements of `mode`: what a run that does not check them reports on. */
  without(mode: NonNullable<Requirement["mode"]>): RequirementCatalog {
    return new RequirementCatalog(this.requirements.filter((r) => r.mode !== mode));
  }
}

/** Parses one catalog file's text into its entries, checking their shape. */
function parseEntries(text: string, source: string, parse: (text: string) => unknown = parseYaml): Requirement[] {
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    throw new CatalogError(`${source}: not YAML: ${(e as Error).message}`);
  }
  if (!validateEntries(data)) {
    const problems = (validateEntries.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`);
    throw new CatalogError(`${source}: ${problems.join("; ")}`);
  }
  return data as unknown as Requirement[];
}

/** Checks the rules that span entries (unique ids, sections, endpoints); every problem is reported at once. */
function buildCatalog(entries: readonly Requirement[], knownEndpoints: Iterable<string>, source: string): RequirementCatalog {
  const endpoints = new Set(knownEndpoints);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const r of entries) {
    if (seen.has(r.id)) problems.push(`duplicate id ${r.id}`);
    seen.add(r.id);
    if (!r.id.startsWith(`${r.section}/`)) problems.push(`${r.id}: id does not begin with its section "${r.section}/"`);
    if (r.endpoint !== "*" && !endpoints.has(r.endpoint)) problems.push(`${r.id}: unknown endpoint ${r.endpoint}`);
  }
  if (problems.length > 0) throw new CatalogError(`${source}: ${problems.join("; ")}`);
  return new RequirementCatalog(entries);
}

/**
 * Parses and validates catalog text. `knownEndpoints` are the operationIds of the OpenAPI document;
 * every problem found is reported at once.
 */
export function parseRequirements(text: string, knownEndpoints: Iterable<string>, source = "requirements"): RequirementCatalog {
  return buildCatalog(parseEntries(text, source), knownEndpoints, source);
}

/** Loads a catalog file, or every `*.yaml` file of a catalog folder. */
export function loadRequirements(knownEndpoints: Iterable<string>, path: string = DEFAULT_REQUIREMENTS_PATH): RequirementCatalog {
  const read = (file: string): string => {
    try {
      return readFileSync(file, "utf8");
    } catch (e) {
      throw new CatalogError(`cannot read ${file}: ${(e as Error).message}`);
    }
  };
  let files: string[];
  try {
    files = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((f) => f.endsWith(".yaml"))
          .sort()
          .map((f) => join(path, f))
      : [path];
  } catch (e) {
    throw new CatalogError(`cannot read ${path}: ${(e as Error).message}`);
  }
  // The catalog files are the package's (or the user's own): their parse is kept between runs.
  const entries = files.flatMap((file) => parseEntries(read(file), file, parsePackageYaml));
  return buildCatalog(entries, knownEndpoints, path);
}
