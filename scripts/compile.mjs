// Compiles what tsconfig.build.json includes into an output directory (dist/ by default, emptied
// first): `npm run build`, and the tests' own build (test/support/test-build.ts). compileFiles
// compiles some of the files only: the checkout's bins keep their build up to date with it
// (bin/checkout-build.mjs).
//
// File by file with TypeScript's transpileModule, not a whole program with tsc: the sources are written
// for it (isolatedModules and verbatimModuleSyntax in tsconfig.json: no output depends on another file's
// types), so the JavaScript is the same as tsc's, byte for byte, in under half the time (tsc builds
// and checks every type first: ~10 CPU-s). The types are checked by `npm run typecheck`.
//
// Usage: node scripts/compile.mjs [OUT_DIR]

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Writes the compiled files under `outDir`; throws on a syntax error, naming every one. Returns how many. */
export function compile(outDir) {
  const out = resolve(ROOT, outDir);
  const config = buildConfig(out);
  const outputs = transpile(config, out, config.fileNames);
  rmSync(out, { recursive: true, force: true });
  for (const { path, text } of outputs) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return outputs.length;
}

/**
 * Compiles `files` (paths of sources that tsconfig.build.json includes) into `outDir`, leaving the rest
 * of it as it is; throws on a syntax error, writing nothing. Each file is written under a name of its
 * own, then renamed: a process that starts from `outDir` meanwhile sees the old file or the new one.
 */
export function compileFiles(outDir, files) {
  const out = resolve(ROOT, outDir);
  const outputs = transpile(buildConfig(out), out, files);
  for (const { path, text } of outputs) {
    mkdirSync(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, path);
  }
  return outputs.length;
}

/** Where the JavaScript of `file` goes under `out`. */
export function outputPath(out, file) {
  return join(out, relative(ROOT, file).replace(/\.ts$/, ".js"));
}

function buildConfig(out) {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.build.json"),
    { outDir: out },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (config === undefined || config.errors.length > 0) throw new Error(`tsconfig.build.json: ${describe(config?.errors ?? [])}`);
  return config;
}

function transpile(config, out, files) {
  const outputs = [];
  const errors = [];
  for (const file of files) {
    const { outputText, diagnostics = [] } = ts.transpileModule(readFileSync(file, "utf8"), {
      compilerOptions: config.options,
      fileName: file,
      reportDiagnostics: true,
    });
    errors.push(...diagnostics);
    outputs.push({ path: outputPath(out, file), text: outputText });
  }
  if (errors.length > 0) throw new Error(describe(errors));
  return outputs;
}

function describe(diagnostics) {
  return ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => "\n" });
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Silent on success, as tsc is: `npm pack --json` prints what prepack prints before its JSON.
  compile(process.argv[2] ?? "dist");
}
