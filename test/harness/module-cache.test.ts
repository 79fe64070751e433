import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { moduleCacheDir } from "../../src/cli/module-cache.ts";

describe("moduleCacheDir", () => {
  it("creates the directory under XDG_CACHE_HOME, private to the user", () => {
    const base = mkdtempSync(join(tmpdir(), "module-cache-"));
    const dir = moduleCacheDir({ XDG_CACHE_HOME: base });
    expect(dir).toBe(join(base, "ledger-conformance", "vitest-modules"));
    expect(statSync(dir as string).isDirectory()).toBe(true);
    expect(statSync(dir as string).mode & 0o077).toBe(0);
  });

  it("is undefined when the directory cannot be created, so the run goes without the cache", () => {
    const base = mkdtempSync(join(tmpdir(), "module-cache-"));
    const file = join(base, "not-a-directory");
    writeFileSync(file, "");
    expect(moduleCacheDir({ XDG_CACHE_HOME: file })).toBeUndefined();
  });
});
