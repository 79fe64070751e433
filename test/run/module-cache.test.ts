import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { moduleCacheDir } from "../../src/run/module-cache.ts";

describe("moduleCacheDir", () => {
  it("creates the directory under XDG_CACHE_HOME, private to the user", () => {
    const base = mkdtempSync(join(tmpdir(), "module-cache-"));
    const dir = moduleCacheDir("/opt/checkout", { XDG_CACHE_HOME: base });
    expect(dirname(dir as string)).toBe(join(base, "ledger-conformance", "vitest-modules"));
    expect(statSync(dir as string).isDirectory()).toBe(true);
    expect(statSync(dir as string).mode & 0o077).toBe(0);
    expect(statSync(join(base, "ledger-conformance")).mode & 0o077).toBe(0);
  });

  it("gives each installation a directory of its own (vitest empties one whose lock file changed), and the same one every run", () => {
    const env = { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), "module-cache-")) };
    const checkout = moduleCacheDir("/opt/checkout", env);
    expect(moduleCacheDir("/opt/checkout", env)).toBe(checkout);
    expect(moduleCacheDir("/opt/checkout/.test-dist", env)).not.toBe(checkout);
    expect(moduleCacheDir("/home/team/project/node_modules/ledger-conformance/dist", env)).not.toBe(checkout);
  });

  it("is undefined when the directory cannot be created, so the run goes without the cache", () => {
    const base = mkdtempSync(join(tmpdir(), "module-cache-"));
    const file = join(base, "not-a-directory");
    writeFileSync(file, "");
    expect(moduleCacheDir("/opt/checkout", { XDG_CACHE_HOME: file })).toBeUndefined();
  });
});
