// How both bins start: the installed package runs the JavaScript compiled into dist/ (`npm run build`,
// run on pack; the package ships no TypeScript sources); a git checkout runs its TypeScript sources
// through tsx, so that what runs is always what is checked out, never a stale build.
import { existsSync } from "node:fs";

/** Runs src/cli/<name>.ts from a checkout, else dist/src/cli/<name>.js. */
export async function runEntry(name) {
  const source = new URL(`../src/cli/${name}.ts`, import.meta.url);
  if (!existsSync(source)) {
    await import(new URL(`../dist/src/cli/${name}.js`, import.meta.url).href);
    return;
  }
  const { register } = await import("tsx/esm/api");
  register();
  await import(source.href);
}
