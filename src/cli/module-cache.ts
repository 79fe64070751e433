// Where vitest keeps the suites' transformed modules between runs (its experimental fsModuleCache):
// transforming the harness and the suites again costs 1-2.5 s of the command's CPU at every run on a
// loaded 2-core machine; read back from the cache, ~0.2 s. Entries are keyed by each file's content
// (and vitest's configuration), so an edited file is transformed again. The cache lives under the
// user's own cache directory, never a shared /tmp where another user could plant code for the
// workers to run; without a writable one the run transforms as before.

import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The directory, created if need be, or undefined when it cannot be. */
export function moduleCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== "" ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  const dir = join(base, "ledger-conformance", "vitest-modules");
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return undefined;
  }
}
