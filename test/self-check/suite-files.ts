// Which suite files a run needs to show that given requirements fail, derived from the catalog and the
// suite's own text (never a hand list that could drift): a requirement the catalog gives to every
// endpoint ("*", the cross-cutting rules the observed contract judges on every response any check
// receives) needs the whole suite; any other needs the files of suites/ and properties/ whose checks
// or laws name its id.
//
// The whole suite is what a cross-cutting rule may need, not what it usually needs: most faults of one
// show on the first responses of any kind. So such a run goes first with a sample (sampleFilesFor), and
// only a fault the sample does not show is run again with the whole suite (fault-runs.ts): the sample
// decides how soon a fault is proven caught, never whether.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RequirementCatalog } from "../../src/harness/requirements.ts";
import { ROOT } from "../support/conformance-command.ts";
import { LOAD_MODE_FILE } from "../../src/run/run-inputs.ts";

/** The folders the conformance command runs (src/run/vitest-run.ts SUITE_GLOBS). */
const SUITE_DIRS = ["suites", "properties"] as const;

/** Every suite and property file a run without --load loads (not the laws under load), relative to the root, sorted. */
export function allSuiteFiles(): string[] {
  return SUITE_DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true })
      .map((entry) => `${dir}/${String(entry)}`)
      .filter((file) => file.endsWith(".test.ts") && file !== LOAD_MODE_FILE),
  ).sort();
}

/** The suite files that hold the checks of `ids` (every file when one of them is judged on every response). */
export function suiteFilesFor(ids: readonly string[], catalog: RequirementCatalog): string[] {
  if (ids.some((id) => catalog.get(id).endpoint === "*")) return allSuiteFiles();
  return filesNaming(ids);
}

/**
 * The suite files whose text names one of `ids`: the files whose checks or laws can record them, and
 * so, under `--only` those ids, the only files with a check to run.
 */
export function filesNaming(ids: readonly string[]): string[] {
  const files = allSuiteFiles();
  const texts = new Map(files.map((file) => [file, readFileSync(join(ROOT, file), "utf8")]));
  const chosen = new Set<string>();
  for (const id of ids) {
    const naming = files.filter((file) => (texts.get(file) as string).includes(`"${id}"`));
    if (naming.length === 0) throw new Error(`no file of ${SUITE_DIRS.join("/ or ")}/ names ${id}: no check of the suite tests it`);
    for (const file of naming) chosen.add(file);
  }
  return [...chosen].sort();
}

/**
 * The sample a cross-cutting rule's run goes with first: files that together reach every read operation
 * with successes in JSON and in BCS (media-types) and with refusals of malformed input (forms, the
 * module reads), the listing whose pages carry a cursor, with its errors (a start cursor refused: the
 * modules listing), the listing paged by version (summaries), and the health and gas reads; none
 * submits, so the run shares its ledger. About a second and a half of checks, where the whole suite
 * takes five. Without the modules listing, a fault on its error responses (cursor-on-errors) was shown
 * only by the whole suite, run after the sample in both profiles.
 */
export const CROSS_CUTTING_SAMPLE: readonly string[] = [
  "properties/forms.test.ts",
  "suites/estimate-gas-price.test.ts",
  "suites/get-account-module.test.ts",
  "suites/get-account-modules.test.ts",
  "suites/get-account-transaction-summaries.test.ts",
  "suites/healthy.test.ts",
  "suites/media-types.test.ts",
];

/**
 * The files a run goes with first: for requirements judged on every response, the sample and the files
 * that name the others of `ids`; otherwise what suiteFilesFor gives.
 */
export function sampleFilesFor(ids: readonly string[], catalog: RequirementCatalog): string[] {
  const crossCutting = ids.filter((id) => catalog.get(id).endpoint === "*");
  if (crossCutting.length === 0) return suiteFilesFor(ids, catalog);
  const others = ids.filter((id) => !crossCutting.includes(id));
  return [...new Set([...CROSS_CUTTING_SAMPLE, ...(others.length === 0 ? [] : suiteFilesFor(others, catalog))])].sort();
}
