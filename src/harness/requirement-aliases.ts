// The alias table (schemas/requirement-aliases.yaml): old requirement id -> the id that now holds its
// requirement, so that a baseline file or --only naming an id from before a merge or a rename keeps working.

import { readFileSync } from "node:fs";
import { parsePackageYaml, parseYaml } from "../parsed-yaml.ts";
import { CatalogError, REQUIREMENT_ID_PATTERN } from "./requirements.ts";
import { packagePath } from "../package-root.ts";

export const DEFAULT_ALIASES_PATH = packagePath("schemas", "requirement-aliases.yaml");

export type RequirementAliases = ReadonlyMap<string, string>;

/** Parses the table's text: a YAML mapping of requirement ids to requirement ids, none an alias of an alias. */
export function parseRequirementAliases(
  text: string,
  source = "aliases",
  parse: (text: string) => unknown = parseYaml,
): RequirementAliases {
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    throw new CatalogError(`${source}: not YAML: ${(e as Error).message}`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    throw new CatalogError(`${source}: expected a mapping old id -> new id`);
  const entries = Object.entries(data);
  const problems = entries.flatMap(([from, to]) =>
    typeof to !== "string" || !REQUIREMENT_ID_PATTERN.test(from) || !REQUIREMENT_ID_PATTERN.test(to)
      ? [`${from}: ${JSON.stringify(to)} is no requirement id`]
      : [],
  );
  const aliases = new Map(entries as [string, string][]);
  for (const [from, to] of aliases) if (aliases.has(to)) problems.push(`${from} -> ${to} is itself an alias: name the final id`);
  if (problems.length > 0) throw new CatalogError(`${source}: ${problems.join("; ")}`);
  return aliases;
}

export function loadRequirementAliases(path: string = DEFAULT_ALIASES_PATH): RequirementAliases {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new CatalogError(`cannot read ${path}: ${(e as Error).message}`);
  }
  // The table is the package's (or the user's own): its parse is kept between runs, as the catalog's.
  return parseRequirementAliases(text, path, parsePackageYaml);
}

/** The id that holds `id`'s requirement today: its alias's target, else itself. */
export function currentId(id: string, aliases: RequirementAliases): string {
  return aliases.get(id) ?? id;
}
