// The commands as the tests run them (ledger-conformance; ledger-node for its command-line tests):
// compiled once per `npm test` (vitest's globalSetup, below) into TEST_BUILD, as `npm run build`
// compiles dist/ for the package (scripts/compile.mjs, ~4 CPU-s), and started from there. From the
// sources, every one of the ~75 command processes the tests start, and every worker of the runs they
// make many to one instance (suite-runs.ts), would spend ~1.3 CPU-s more (tsx's loader thread resolving
// and transforming the command's modules, the node's thread doing the same). The checkout's own bins,
// which keep a build of their own up to date file by file (bin/checkout-build.mjs), are tested by
// test/package/checkout-bins.test.ts; the packed package's, by packed-install.test.ts.
//
// Its own directory, not dist/: `npm pack` (packed-install.test.ts) compiles dist/ anew, removing it
// first, while other tests run. A direct child of the root, as dist/ is, so that the compiled code finds
// the package's data (schemas/, baselines/, spec/) at its parent (src/package-root.ts).

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout's root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export const TEST_BUILD = join(ROOT, ".test-dist");

/** A compiled entry of src/cli, e.g. compiledEntry("ledger-conformance-entry"). */
export function compiledEntry(name: string): string {
  return join(TEST_BUILD, "src", "cli", `${name}.js`);
}

/** What the build compiles (tsconfig.build.json's include) and what decides how (the configs). */
const SOURCE_DIRS = ["src", "suites", "properties", "reporters"];
const CONFIGS = ["tsconfig.json", "tsconfig.build.json", "package.json", "scripts/compile.mjs"];
/** Written last by a build: the newest source mtime it compiled. */
const STAMP = join(TEST_BUILD, ".built-from");

function newestSourceMtime(): number {
  let newest = 0;
  for (const file of CONFIGS) newest = Math.max(newest, statSync(join(ROOT, file)).mtimeMs);
  for (const dir of SOURCE_DIRS) {
    // The folders too: a removed file changes its folder's mtime.
    newest = Math.max(newest, statSync(join(ROOT, dir)).mtimeMs);
    for (const entry of readdirSync(join(ROOT, dir), { recursive: true })) {
      newest = Math.max(newest, statSync(join(ROOT, dir, String(entry))).mtimeMs);
    }
  }
  return newest;
}

/** Compiles the command into TEST_BUILD unless the build is from the sources as they are now. */
export function compileCommand(): void {
  const sources = newestSourceMtime();
  if (existsSync(STAMP) && readFileSync(STAMP, "utf8") === String(sources)) return;
  // It empties the directory first: a removed or renamed suite file must not live on in the build.
  execFileSync(process.execPath, [join(ROOT, "scripts", "compile.mjs"), TEST_BUILD], { cwd: ROOT, stdio: "inherit", timeout: 300_000 });
  writeFileSync(STAMP, String(sources));
}

/** vitest's globalSetup (vitest.config.ts). */
export default compileCommand;
