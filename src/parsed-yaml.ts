// The package's own YAML data (schemas/openapi.yaml, the requirement catalog), parsed once per content.
// Parsing them costs 150-250 ms of a fresh process, and a run parses them in the command and again in
// each worker (the node's spec pages, the contract, the catalog); reading the same document back as
// JSON costs ~2 ms. The parsed form is kept as JSON in the user's cache directory, named by the SHA-256
// of the text, so an edited file is parsed again. Only the package's files come here: what a target
// sends is never written to disk.

import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { userCacheDir } from "./user-cache.ts";

type YamlPackage = typeof import("yaml");
let yaml: YamlPackage | undefined;

/**
 * The yaml package, loaded when first needed: a thread whose documents all come from the cache never
 * loads it (about 50 ms of the start of the command, of the node's thread and of each worker).
 */
export function yamlPackage(): YamlPackage {
  yaml ??= createRequire(import.meta.url)("yaml") as YamlPackage;
  return yaml;
}

/** parse(text) of the yaml package. */
export function parseYaml(text: string): unknown {
  return yamlPackage().parse(text);
}

/** parse(text) of the yaml package, read back from the cache when this text was parsed before. */
export function parsePackageYaml(text: string, env: NodeJS.ProcessEnv = process.env): unknown {
  const dir = userCacheDir("parsed-yaml", env);
  if (dir === undefined) return parseYaml(text);
  const file = join(dir, `${createHash("sha256").update(text).digest("hex")}.json`);
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    // Not cached yet (or a damaged entry): parse, then keep it. A syntax error throws as parse does.
  }
  const data: unknown = parseYaml(text);
  const json = JSON.stringify(data);
  // Data JSON cannot hold as it is (.inf, a date) is not cached, so it reads back the same.
  if (json === undefined || !isDeepStrictEqual(data, JSON.parse(json))) return data;
  try {
    // Written aside, then renamed: a process reading at the same time sees the whole entry or none.
    const aside = `${file}.${process.pid}.tmp`;
    writeFileSync(aside, json, { mode: 0o600 });
    renameSync(aside, file);
  } catch {
    // A full or read-only cache costs the next run a parse, nothing more.
  }
  return data;
}
