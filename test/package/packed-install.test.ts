// The package as a node team gets it: `npm pack` of this checkout (its prepack compiles dist/), the
// tarball installed into an empty project in a temporary directory, and the installed bins run. npm
// fetches what its cache lacks from the registry (--prefer-offline); when the registry cannot be
// reached, the install could not be tried and the tests are skipped with the reason. Takes about a
// minute on 2 cores: the compile, the install and two short runs.

import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Summary } from "../../reporters/summary.ts";
import { startNode } from "../../src/node/index.ts";
import { ROOT } from "../support/conformance-command.ts";

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, timeoutMs: number): Promise<Ran> {
  return new Promise((resolve) => {
    // The installed command's caches (user-cache.ts) go with the temporary project, not into the user's.
    execFile(
      command,
      [...args],
      { cwd, timeout: timeoutMs, maxBuffer: 64 << 20, env: { ...process.env, NO_COLOR: "1", XDG_CACHE_HOME: join(work, "cache") } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** npm's complaints about the machine's own npm configuration, which say nothing about the package. */
const MACHINE_CONFIG_WARNING = /^npm warn Unknown (user|env|project|global|builtin) config /;
/** An install that failed because the registry could not be reached (not the package's doing). */
const REGISTRY_UNREACHABLE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|ENOTCACHED)\b/;
const NPM_FLAGS = ["--no-audit", "--no-fund", "--no-update-notifier"];

/** Where each packed path may come from: nothing of test/, bench/, CI scripts or the TypeScript sources. */
const SHIPPED =
  /^(package\.json|README\.md|LICENSE|bin\/[^/]+\.mjs|dist\/.+\.js|schemas\/.+\.(yaml|json)|baselines\/[^/]+|spec\/[^/]+\.md)$/;

const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), "ledger-conformance-package-"));
const project = join(work, "adopter");
const installed = join(project, "node_modules", "ledger-conformance");
const bin = (name: string) => join(project, "node_modules", ".bin", name);

let packedFiles: string[] = [];
let install: Ran | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  const pack = await run("npm", ["pack", "--json", "--pack-destination", work, ...NPM_FLAGS], ROOT, 180_000);
  expect(pack.code, `npm pack failed:\n${pack.stderr}`).toBe(0);
  const packed = JSON.parse(pack.stdout) as [{ filename: string; files: { path: string }[] }];
  packedFiles = packed[0].files.map((f) => f.path);
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "adopter", version: "1.0.0", private: true })}\n`);
  install = await run("npm", ["install", join(work, packed[0].filename), "--prefer-offline", ...NPM_FLAGS], project, 300_000);
  if (install.code !== 0 && REGISTRY_UNREACHABLE.test(install.stderr)) {
    skipReason = `the npm registry could not be reached: ${install.stderr.match(REGISTRY_UNREACHABLE)?.[0]}`;
  }
}, 480_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the packed package", () => {
  it("ships the compiled command, the schemas and the baselines, and none of the tests, bench or sources", () => {
    expect(packedFiles.filter((path) => !SHIPPED.test(path))).toEqual([]);
    for (const path of [
      "bin/ledger-conformance.mjs",
      "dist/src/cli/ledger-conformance-entry.js",
      "dist/src/cli/ledger-node.js",
      "dist/suites/healthy.test.js",
      "dist/properties/pagination.test.js",
      "schemas/openapi.yaml",
      "schemas/requirement-aliases.yaml",
      "baselines/aptos-core.txt",
      "README.md",
    ]) {
      expect(packedFiles, path).toContain(path);
    }
  });

  it("installs into an empty project with no warning", (ctx) => {
    if (skipReason !== undefined) ctx.skip(skipReason);
    expect(install?.code, install?.stderr).toBe(0);
    const warnings = (install?.stderr ?? "").split("\n").filter((line) => line.trim() !== "" && !MACHINE_CONFIG_WARNING.test(line));
    expect(warnings).toEqual([]);
    // The installed package runs the compiled JavaScript: it has no TypeScript sources to fall back to.
    expect(existsSync(join(installed, "src"))).toBe(false);
  });

  it("answers --version with the package's version and --help with the usage", async (ctx) => {
    if (skipReason !== undefined) ctx.skip(skipReason);
    const versionRun = await run(bin("ledger-conformance"), ["--version"], project, 30_000);
    expect(versionRun).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" });
    const help = await run(bin("ledger-conformance"), ["--help"], project, 30_000);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: ledger-conformance \[options\]\n/);
    expect(help.stdout).toContain("--version");
    const nodeHelp = await run(bin("ledger-node"), ["--help"], project, 30_000);
    expect(nodeHelp.code).toBe(0);
    expect(nodeHelp.stdout).toMatch(/^usage: ledger-node \[options\]\n/);
  });

  it("runs a suite file from the installed package against its embedded node and exits 0", async (ctx) => {
    if (skipReason !== undefined) ctx.skip(skipReason);
    const reports = join(work, "reports");
    const conformance = await run(
      bin("ledger-conformance"),
      ["--only", "suites/healthy", "--report-dir", reports, "--quiet"],
      project,
      120_000,
    );
    expect(conformance.code, conformance.stdout + conformance.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(reports, "summary.json"), "utf8")) as Summary;
    expect(summary.counts.failed).toBe(0);
    expect(summary.counts.passed).toBeGreaterThan(0);
    // The health checks ran, and only the selected file did: nothing of the submission sections.
    const ran = summary.requirements.filter((r) => r.checks > 0);
    expect(ran.some((r) => r.section === "4.7")).toBe(true);
    expect(ran.filter((r) => r.section.startsWith("4.8")).map((r) => r.id)).toEqual([]);
    expect(readdirSync(join(reports, "html"))).toContain("index.html");
  });

  it("checks a fleet from the installed package: its nodes' copies of the suites resolve the installed packages", async (ctx) => {
    if (skipReason !== undefined) ctx.skip(skipReason);
    const fixtures = join(work, "fleet-fixtures.json");
    const node = await startNode({
      host: "127.0.0.1",
      port: 0,
      onInternalError: () => undefined,
      beforeListen: (f) => writeFileSync(fixtures, JSON.stringify(f)),
    });
    try {
      const reports = join(work, "fleet-reports");
      const fleet = await run(
        bin("ledger-conformance"),
        [
          "--target",
          node.url,
          "--target",
          node.url,
          "--fixtures",
          fixtures,
          "--only",
          "suites/healthy",
          "--report-dir",
          reports,
          "--quiet",
        ],
        project,
        120_000,
      );
      expect(fleet.code, fleet.stdout + fleet.stderr).toBe(0);
      const summary = JSON.parse(readFileSync(join(reports, "summary.json"), "utf8")) as Summary & {
        targets: (Summary & { name: string })[];
      };
      expect(summary.targets).toHaveLength(2);
      for (const target of summary.targets) {
        expect(target.counts.failed, target.name).toBe(0);
        expect(target.counts.passed, target.name).toBeGreaterThan(0);
      }
    } finally {
      await node.close();
    }
  });
});
