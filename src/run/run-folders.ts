// Several conformance runs in one vitest instance (a fleet's nodes; the fault self-check's runs): vitest
// tells a test file by its path, so each run gets a folder of its own holding a copy of the suite files,
// and a check's run is the one its file's folder names (its configuration is provided under that folder:
// runsByFolder, src/harness/config.ts). Only the suite files are copied. Everything else is a link to the
// running code's own: the suites' support modules, the harness, the codec, the reporters, node_modules
// and the package's package.json and tsconfig.json. Modules resolve to their real paths, so every run
// shares them, loaded once per worker; what a run remembers between its checks lives on its harness
// (src/harness/run-memory.ts), never in a module.

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { CODE_ROOT, PACKAGE_ROOT } from "../package-root.ts";

/** The folders that hold suite files: each run gets its own copy of the files, and links to the rest. */
const SUITE_FOLDERS = ["suites", "properties"] as const;
/** What the suite files import from, under the code root: linked, shared by every run. */
const SHARED_FOLDERS = ["src", "reporters"] as const;
/** What tells vite and Node how to read the copies, under the package root: linked when present. */
const PACKAGE_FILES = ["package.json", "tsconfig.json"] as const;

export interface RunFolders {
  /** The directory that holds them all. */
  readonly dir: string;
  /** One per run, in the order asked for: absolute paths without a trailing slash. */
  readonly folders: readonly string[];
  /** The folder that holds `file` (an absolute path under dir); undefined for a file of none. */
  folderOf(file: string): string | undefined;
  /** Removes them all. */
  remove(): void;
}

/**
 * `count` run folders in a new directory under `parent`, copied from `codeRoot` (the running code's
 * tree by default: the sources, or their compiled dist/).
 */
export function makeRunFolders(count: number, options: { readonly parent: string; readonly codeRoot?: string }): RunFolders {
  const codeRoot = options.codeRoot ?? CODE_ROOT;
  const dir = mkdtempSync(join(options.parent, "ledger-conformance-runs-"));
  const nodeModules = nodeModulesOf(codeRoot);
  const folders: string[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const folder = join(dir, `run-${i + 1}`);
      mkdirSync(folder);
      for (const name of SUITE_FOLDERS) if (existsSync(join(codeRoot, name))) copySuiteFiles(join(codeRoot, name), join(folder, name));
      for (const name of SHARED_FOLDERS) symlinkSync(join(codeRoot, name), join(folder, name), "dir");
      for (const name of PACKAGE_FILES)
        if (existsSync(join(PACKAGE_ROOT, name))) symlinkSync(join(PACKAGE_ROOT, name), join(folder, name), "file");
      if (nodeModules !== undefined) symlinkSync(nodeModules, join(folder, "node_modules"), "dir");
      folders.push(folder);
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    dir,
    folders,
    folderOf: (file) => {
      const [first] = relative(dir, file).split(/[\\/]/);
      const folder = join(dir, first ?? "");
      return folders.includes(folder) ? folder : undefined;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A copy of `from`'s suite files at `to`: a folder that holds none is linked, and so is any other file. */
function copySuiteFiles(from: string, to: string): void {
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      if (holdsSuiteFiles(source)) copySuiteFiles(source, target);
      else symlinkSync(source, target, "dir");
    } else if (isSuiteFile(entry.name)) copyFileSync(source, target);
    else symlinkSync(source, target, "file");
  }
}

const isSuiteFile = (name: string) => /\.test\.(ts|js)$/.test(name);

function holdsSuiteFiles(dir: string): boolean {
  return readdirSync(dir, { recursive: true }).some((entry) => isSuiteFile(String(entry)));
}

/** The nearest node_modules above the code that holds vitest: where the suite files' packages resolve from. */
function nodeModulesOf(codeRoot: string): string | undefined {
  for (let dir = codeRoot; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules");
    if (existsSync(join(candidate, "vitest", "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
