// A checkout's bins run its sources compiled, as the package runs dist/: the JavaScript in .bin-dist/
// at the checkout's root, brought up to date with the sources before each start, file by file. A
// source newer than its JavaScript, or without it, is compiled again (scripts/compile.mjs, the build
// `npm run build` makes); JavaScript whose source is gone is removed; a change of the build's
// configuration compiles everything again. So what runs is always what is checked out, and a start
// that finds nothing changed costs a walk over the sources' mtimes (a few milliseconds), where running
// the sources through tsx's loader costs about 0.6 CPU-s in the command's process and as much again
// in the reference node's thread, every start.
//
// A direct child of the root, as dist/ is, so that the compiled code finds the package's data
// (schemas/, baselines/, spec/) at its parent (src/package-root.ts), and its dependencies in
// node_modules/.

import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const BIN_BUILD = join(ROOT, ".bin-dist");
/** What tsconfig.build.json includes. */
const SOURCE_DIRS = ["src", "suites", "properties", "reporters"];
/** What decides how the sources compile: a change compiles them all again. */
const CONFIGS = ["tsconfig.json", "tsconfig.build.json", "package.json", "scripts/compile.mjs"];

function* filesUnder(dir, suffix) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(suffix)) yield join(entry.parentPath ?? entry.path, entry.name);
  }
}

const javaScriptOf = (source) => join(BIN_BUILD, relative(ROOT, source).replace(/\.ts$/, ".js"));

/** Brings .bin-dist/ up to date with the sources; its path. Throws on a source that does not compile. */
export async function updateBinBuild() {
  const configsAt = Math.max(...CONFIGS.map((file) => statSync(join(ROOT, file)).mtimeMs));
  const sources = SOURCE_DIRS.flatMap((dir) => [...filesUnder(join(ROOT, dir), ".ts")]).filter((f) => !f.endsWith(".d.ts"));
  const stale = sources.filter((source) => {
    const built = javaScriptOf(source);
    if (!existsSync(built)) return true;
    const builtAt = statSync(built).mtimeMs;
    return builtAt < statSync(source).mtimeMs || builtAt < configsAt;
  });
  if (stale.length > 0) {
    const { compileFiles } = await import("../scripts/compile.mjs");
    compileFiles(BIN_BUILD, stale);
  }
  const expected = new Set(sources.map(javaScriptOf));
  for (const built of filesUnder(BIN_BUILD, ".js")) if (!expected.has(built)) rmSync(built, { force: true });
  return BIN_BUILD;
}
