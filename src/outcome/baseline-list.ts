// An expected-failures list (--baseline) read into the catalog ids it names, through the alias table
// for ids renamed, merged or split since the list was written.

import { currentIds, type RequirementAliases } from "../harness/requirement-aliases.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";

export class BaselineError extends ConfigurationError {
  override readonly name = "BaselineError";
}

/**
 * One entry of an expected-failures list: the id it names, and the catalog ids that hold that
 * requirement now (the id itself; the one it was renamed or merged into; the parts it was split into).
 */
export interface BaselineEntry {
  readonly listed: string;
  readonly ids: readonly [string, ...string[]];
}

/**
 * An expected-failures list: a JSON array of ids, a JSON object {"expectedFailures": [...]}, or text
 * with one id per line (# starts a comment). An id the alias table maps (an id from before a merge, a
 * rename or a split) is read as the ids that hold its requirement now.
 */
export function parseBaselineEntries(text: string, source = "baseline", aliases: RequirementAliases = new Map()): BaselineEntry[] {
  return listedIds(text, source).map((listed) => ({ listed, ids: currentIds(listed, aliases) }));
}

/** The catalog ids an expected-failures list names, each once (parseBaselineEntries, flattened). */
export function parseBaseline(text: string, source = "baseline", aliases: RequirementAliases = new Map()): string[] {
  return baselineIds(parseBaselineEntries(text, source, aliases));
}

export function baselineIds(entries: readonly BaselineEntry[]): string[] {
  return [...new Set(entries.flatMap((e) => e.ids))];
}

function listedIds(text: string, source: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (e) {
      throw new BaselineError(`${source}: not JSON: ${(e as Error).message}`);
    }
    const list = Array.isArray(json) ? json : (json as { expectedFailures?: unknown }).expectedFailures;
    if (!Array.isArray(list) || !list.every((x) => typeof x === "string")) {
      throw new BaselineError(`${source}: expected an array of requirement ids or {"expectedFailures": [...]}`);
    }
    return list as string[];
  }
  return trimmed
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter((l) => l !== "");
}
