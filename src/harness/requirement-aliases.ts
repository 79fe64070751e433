// The alias table (schemas/requirement-aliases.yaml): old requirement id -> the ids that now hold its
// requirement, so that a baseline file or --only naming an id from before a merge, a rename or a split
// keeps working. A merged or renamed id maps to one id; a split one to several, each holding a part.

import { readFileSync } from "node:fs";
import { parsePackageYaml, parseYaml } from "../parsed-yaml.ts";
import { CatalogError, REQUIREMENT_ID_PATTERN } from "./requirements.ts";
import { packagePath } from "../package-root.ts";

export const DEFAULT_ALIASES_PATH = packagePath("schemas", "requirement-aliases.yaml");

/** Old id -> the ids that hold its requirement now (one, or several when it was split); never empty. */
export type RequirementAliases = ReadonlyMap<string, readonly [string, ...string[]]>;

/** The targets of one entry: an id, or a non-empty list of distinct ids. */
function targetsOf(to: unknown): [string, ...string[]] | undefined {
  const list = typeof to === "string" ? [to] : Array.isArray(to) ? to : [];
  if (list.length === 0 || !list.every((id) => typeof id === "string" && REQUIREMENT_ID_PATTERN.test(id))) return undefined;
  if (new Set(list).size !== list.length) return undefined;
  return list as [string, ...string[]];
}

/**
 * Parses the table's text: a YAML mapping of requirement ids to a requirement id or a list of them, none
 * an alias of an alias.
 */
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
    throw new CatalogError(`${source}: expected a mapping old id -> new id (or a list of new ids)`);
  const problems: string[] = [];
  const aliases = new Map<string, readonly [string, ...string[]]>();
  for (const [from, to] of Object.entries(data)) {
    const targets = targetsOf(to);
    if (targets === undefined || !REQUIREMENT_ID_PATTERN.test(from))
      problems.push(`${from}: ${JSON.stringify(to)} is no requirement id nor a list of distinct ones`);
    else aliases.set(from, targets);
  }
  for (const [from, targets] of aliases)
    for (const to of targets) if (aliases.has(to)) problems.push(`${from} -> ${to} is itself an alias: name the final id`);
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

/** The ids that hold `id`'s requirement today: its alias's targets, else itself. */
export function currentIds(id: string, aliases: RequirementAliases): readonly [string, ...string[]] {
  return aliases.get(id) ?? [id];
}
