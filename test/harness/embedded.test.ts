// The default run: no --target, so the command starts the reference node in-process on a free
// loopback port with its own fixtures, runs whatever suites exist, writes the three reports, and exits
// with the code its summary implies. Both profiles.

import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX = join(ROOT, "node_modules/tsx/dist/cli.mjs");
const CLI = join(ROOT, "src/cli/ledger-conformance.ts");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSX, CLI, ...args], { cwd: ROOT, timeout: 900_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe.each(["node", "aptos"])("ledger-conformance against the embedded reference node (profile %s)", (profile) => {
  it("writes summary.json, junit.xml and html/index.html and exits as its summary says", { timeout: 900_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "embedded-run-"));
    dirs.push(dir);
    const r = await cli(["--report-dir", dir, "--profile", profile, "--quiet"]);
    expect(r.stderr).not.toMatch(/cannot start the reference node/);
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    expect(summary.target).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(existsSync(join(dir, "junit.xml"))).toBe(true);
    expect(readFileSync(join(dir, "html", "index.html"), "utf8")).toContain("ledger-conformance");
    const mustFailed = summary.requirements.some((x: { level: string; status: string }) => x.level === "MUST" && x.status === "failed");
    expect(summary.conforming).toBe(!mustFailed);
    const expected = mustFailed || (summary.errors?.length ?? 0) > 0 ? 1 : 0;
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(expected);
    // Whatever suites exist, the cross-cutting header rules ran on the responses they received, under this profile's prefix.
    const headers = summary.requirements.find((x: { id: string }) => x.id === "2.7/required-headers-on-success");
    expect(headers.checks).toBeGreaterThan(0);
    expect(headers.status).toBe("passed");
    expect(summary.requests).toBeGreaterThan(1);
  });
});
