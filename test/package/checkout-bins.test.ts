// The bins in a git checkout, with no build of the package: they run the sources compiled into
// .bin-dist/, kept up to date with them, find the package's files at the checkout's root, and answer
// --version and --help from the argument parser.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMPILED, PACKAGE_ROOT, packageVersion, SUITE_FILE_SUFFIX } from "../../src/package-root.ts";
import { parseConformanceArgs } from "../../src/cli/args.ts";
import { ROOT } from "../support/conformance-command.ts";

const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

function bin(name: string, args: readonly string[]) {
  return spawnSync(process.execPath, [join("bin", `${name}.mjs`), ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
}

describe("a checkout", () => {
  it("runs from its sources, with the package root at the checkout's root", () => {
    expect(COMPILED).toBe(false);
    expect(SUITE_FILE_SUFFIX).toBe(".test.ts");
    expect(join(PACKAGE_ROOT, "/")).toBe(join(ROOT, "/"));
    expect(existsSync(join(PACKAGE_ROOT, "schemas", "openapi.yaml"))).toBe(true);
    expect(packageVersion()).toBe(version);
  });

  it("parses --version as a request for the version", () => {
    expect(parseConformanceArgs(["--version"], {})).toBe("version");
    expect(parseConformanceArgs(["--help", "--version"], {})).toBe("help");
  });

  it("answers --version and --help through the bins", () => {
    const versionRun = bin("ledger-conformance", ["--version"]);
    expect({ status: versionRun.status, stdout: versionRun.stdout, stderr: versionRun.stderr }).toEqual({
      status: 0,
      stdout: `${version}\n`,
      stderr: "",
    });
    const help = bin("ledger-conformance", ["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: ledger-conformance \[options\]\n[\s\S]*--version/);
    const usageError = bin("ledger-conformance", ["--no-such-flag"]);
    expect(usageError.status).toBe(2);
    expect(usageError.stderr).toMatch(/^ledger-conformance: .*no-such-flag[\s\S]*usage: ledger-conformance/);
  });

  it("keeps the bins' build up to date by content: a source that differs from the one compiled is compiled again, no JavaScript without a source", async () => {
    // @ts-expect-error: a JavaScript module of the bins, without types.
    const { BIN_BUILD, updateBinBuild } = (await import("../../bin/checkout-build.mjs")) as {
      BIN_BUILD: string;
      updateBinBuild(): Promise<string>;
    };
    expect(await updateBinBuild()).toBe(BIN_BUILD);
    const orphan = join(BIN_BUILD, "src", `removed-source-${process.pid}.js`);
    writeFileSync(orphan, "export {};\n");
    // A build that no longer matches its source, whatever the files' times say: its recorded hash differs.
    const name = "src/run/engine";
    const built = join(BIN_BUILD, `${name}.js`);
    writeFileSync(built, "throw new Error('stale');\n");
    const manifestPath = join(BIN_BUILD, "sources.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { sources: Record<string, string> };
    manifest.sources[`${name}.ts`] = "an older source";
    writeFileSync(manifestPath, JSON.stringify(manifest));
    expect(await updateBinBuild()).toBe(BIN_BUILD);
    expect(existsSync(orphan), "the JavaScript of a removed source").toBe(false);
    expect(readFileSync(built, "utf8")).not.toContain("stale");
    const hashes = (JSON.parse(readFileSync(manifestPath, "utf8")) as { sources: Record<string, string> }).sources;
    for (const source of ["src/cli/ledger-conformance-entry", name, "suites/estimate-gas-price.test"]) {
      const sha1 = createHash("sha1")
        .update(readFileSync(join(ROOT, `${source}.ts`)))
        .digest("hex");
      expect(hashes[`${source}.ts`], source).toBe(sha1);
      expect(existsSync(join(BIN_BUILD, `${source}.js`)), source).toBe(true);
    }
  }, 120_000);
});
