// How both bins start: the installed package runs the JavaScript compiled into dist/ (`npm run build`,
// run on pack; the package ships no TypeScript sources); a git checkout runs its TypeScript sources
// compiled into .bin-dist/, brought up to date before each start (checkout-build.mjs), so that what
// runs is always what is checked out, never a stale build. A source that does not compile is run
// through tsx instead, which reports it where it is.
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** Runs src/cli/<name>.ts from a checkout (compiled), else dist/src/cli/<name>.js. */
export async function runEntry(name, { loadFirst = [] } = {}) {
  const source = new URL(`../src/cli/${name}.ts`, import.meta.url);
  if (!existsSync(source)) {
    await import(new URL(`../dist/src/cli/${name}.js`, import.meta.url).href);
    return;
  }
  const build = await import("./checkout-build.mjs").then(({ updateBinBuild }) => updateBinBuild()).catch(() => undefined);
  if (build !== undefined) {
    await import(pathToFileURL(`${build}/src/cli/${name}.js`).href);
    return;
  }
  await runTypeScript(source, { loadFirst });
}

/**
 * Imports a TypeScript module through tsx's loader, registered in this process only (its threads start
 * without it: vitest's workers transform the suites themselves). The packages of `loadFirst` are
 * imported before the loader is registered: through its hooks a package of many ES modules loads
 * several times slower (vitest/node: ~0.27 s by node itself, ~0.8 s through tsx), and imported first
 * it is loaded once, by node, for every later import of it.
 */
export async function runTypeScript(url, { loadFirst = [] } = {}) {
  for (const specifier of loadFirst) await import(specifier);
  const { register } = await import("tsx/esm/api");
  register();
  await import(url.href);
}
