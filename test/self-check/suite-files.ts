// Which suite files a run needs to show that given requirements fail, derived from the catalog and the
// suite's own text (never a hand list that could drift): a requirement the catalog gives to every
// endpoint ("*", the cross-cutting rules the observed contract judges on every response any check
// receives) needs the whole suite; any other needs the files of suites/ and properties/ whose checks
// or laws name its id.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RequirementCatalog } from "../../src/harness/requirements.ts";
import { ROOT } from "../support/conformance-command.ts";

/** The folders the conformance command runs (src/cli/conformance-vitest.ts SUITE_GLOBS). */
const SUITE_DIRS = ["suites", "properties"] as const;

/** Every suite and property file, relative to the root, sorted. */
export function allSuiteFiles(): string[] {
  return SUITE_DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true })
      .map((entry) => `${dir}/${String(entry)}`)
      .filter((file) => file.endsWith(".test.ts")),
  ).sort();
}

/** The suite files that hold the checks of `ids` (every file when one of them is judged on every response). */
export function suiteFilesFor(ids: readonly string[], catalog: RequirementCatalog): string[] {
  const files = allSuiteFiles();
  if (ids.some((id) => catalog.get(id).endpoint === "*")) return files;
  const texts = new Map(files.map((file) => [file, readFileSync(join(ROOT, file), "utf8")]));
  const chosen = new Set<string>();
  for (const id of ids) {
    const naming = files.filter((file) => (texts.get(file) as string).includes(`"${id}"`));
    if (naming.length === 0) throw new Error(`no file of ${SUITE_DIRS.join("/ or ")}/ names ${id}: no check of the suite tests it`);
    for (const file of naming) chosen.add(file);
  }
  return [...chosen].sort();
}
