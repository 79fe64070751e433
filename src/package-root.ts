// Where the package's parts are, whether its code runs from the .ts sources (a git checkout, through
// tsx) or from dist/ (the JavaScript `npm run build` compiles, which the package ships). The data read
// at run time (package.json, schemas/, baselines/, spec/) sits at the package root either way; the
// suites sit beside the running code. The reference node and the harness both read schemas/ through
// this file, which imports nothing of either.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Running the compiled JavaScript of dist/ (this file is dist/src/package-root.js there). */
export const COMPILED = import.meta.url.endsWith(".js");

/** The root of the running code's tree: the package root from the sources, its dist/ when compiled. */
export const CODE_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** The package root: package.json, schemas/, baselines/, spec/. */
export const PACKAGE_ROOT = COMPILED ? dirname(CODE_ROOT) : CODE_ROOT;

/** How the suite and property files of the running code end. */
export const SUITE_FILE_SUFFIX = COMPILED ? ".test.js" : ".test.ts";

/** A path under the package root, e.g. packagePath("schemas", "openapi.yaml"). */
export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}

/** The version in the package's package.json. */
export function packageVersion(): string {
  const { version } = JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version?: unknown };
  if (typeof version !== "string") throw new Error(`${packagePath("package.json")} has no version`);
  return version;
}
