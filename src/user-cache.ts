// The user's own cache directory for what runs keep between them (transformed modules, parsed schemas):
// under XDG_CACHE_HOME or ~/.cache, created private to the user, never a shared /tmp where another user
// could plant what a run then reads. Without a writable one, callers go without their cache.

import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** ledger-conformance/NAME under the user's cache directory, created if need be; undefined when it cannot be. */
export function userCacheDir(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== "" ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  const dir = join(base, "ledger-conformance", name);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return undefined;
  }
}
