// A checkout's bins run its sources compiled, as the package runs dist/: the JavaScript in .bin-dist/
// at the checkout's root, brought up to date with the sources before each start, file by file. A
// source whose content differs from the one last compiled (a SHA-1 of each, kept in .bin-dist/
// sources.json), or without its JavaScript, is compiled again (scripts/compile.mjs, the build `npm run
// build` makes); JavaScript whose source is gone is removed; a change of the build's configuration
// compiles everything again. Content, not modification times: a file copied or restored with an older
// time is still seen. So what runs is always what is checked out, and a start that finds nothing
// changed costs reading and hashing the sources (milliseconds), where running the sources through
// tsx's loader costs about 0.6 CPU-s in the command's process and as much again in the reference
// node's thread, every start.
//
// A direct child of the root, as dist/ is, so that the compiled code finds the package's data
// (schemas/, baselines/, spec/) at its parent (src/package-root.ts), and its dependencies in
// node_modules/.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
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

/** Where the hashes of the sources last compiled, and of the build's configuration, are kept. */
const MANIFEST = join(BIN_BUILD, "sources.json");

const hashOf = (...contents) => {
  const hash = createHash("sha1");
  for (const content of contents) hash.update(content);
  return hash.digest("hex");
};

/** The hashes last written, or none (no build yet, or a file this code cannot read). */
function readManifest() {
  try {
    const manifest = JSON.parse(readFileSync(MANIFEST, "utf8"));
    return typeof manifest.config === "string" && typeof manifest.sources === "object" ? manifest : { config: "", sources: {} };
  } catch {
    return { config: "", sources: {} };
  }
}

/** Brings .bin-dist/ up to date with the sources; its path. Throws on a source that does not compile. */
export async function updateBinBuild() {
  const config = hashOf(...CONFIGS.map((file) => readFileSync(join(ROOT, file))));
  const sources = SOURCE_DIRS.flatMap((dir) => [...filesUnder(join(ROOT, dir), ".ts")]).filter((f) => !f.endsWith(".d.ts"));
  const hashes = Object.fromEntries(sources.map((source) => [relative(ROOT, source), hashOf(readFileSync(source))]));
  const last = readManifest();
  const stale = sources.filter(
    (source) =>
      last.config !== config ||
      last.sources[relative(ROOT, source)] !== hashes[relative(ROOT, source)] ||
      !existsSync(javaScriptOf(source)),
  );
  if (stale.length > 0) {
    const { compileFiles } = await import("../scripts/compile.mjs");
    compileFiles(BIN_BUILD, stale);
  }
  const expected = new Set(sources.map(javaScriptOf));
  const orphans = [...filesUnder(BIN_BUILD, ".js")].filter((built) => !expected.has(built));
  for (const built of orphans) rmSync(built, { force: true });
  if (stale.length > 0 || orphans.length > 0) {
    // Written whole under a name of its own, then renamed: another start meanwhile reads the old or the new.
    mkdirSync(BIN_BUILD, { recursive: true });
    const partial = `${MANIFEST}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify({ config, sources: hashes }));
    renameSync(partial, MANIFEST);
  }
  return BIN_BUILD;
}
