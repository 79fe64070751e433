// Where vitest keeps the suites' transformed modules between runs (its experimental fsModuleCache):
// transforming the harness and the suites again is a large share of the command's CPU at every run, and
// reading them back from the cache a small one (the bench's phases show both). Entries are keyed by each
// file's content (and vitest's configuration), so an edited file is transformed again.
//
// Each installation (a checkout, its compiled copy, a package installed in a project) has a directory
// of its own. vitest deletes the whole directory when the lock file it finds above the root differs from
// the one the directory was made with, and two installations have different lock files: sharing one
// directory, a run of one deleted the files another run was writing, and that run's suite files failed
// to load (ENOENT), a run error that says nothing about the target.

import { createHash } from "node:crypto";
import { join } from "node:path";
import { userCacheDir } from "../user-cache.ts";

/** The directory for the suites under `root`, created if need be, or undefined when it cannot be (the run transforms as before). */
export function moduleCacheDir(root: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const installation = createHash("sha256").update(root).digest("hex").slice(0, 16);
  return userCacheDir(join("vitest-modules", installation), env);
}
