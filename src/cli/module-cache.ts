// Where vitest keeps the suites' transformed modules between runs (its experimental fsModuleCache):
// transforming the harness and the suites again costs 1-2.5 s of the command's CPU at every run on a
// loaded 2-core machine; read back from the cache, ~0.2 s. Entries are keyed by each file's content
// (and vitest's configuration), so an edited file is transformed again.

import { userCacheDir } from "../user-cache.ts";

/** The directory, created if need be, or undefined when it cannot be (the run transforms as before). */
export function moduleCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return userCacheDir("vitest-modules", env);
}
