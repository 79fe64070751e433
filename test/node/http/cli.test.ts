// `ledger-node` (its command-line contract): prints `listening on URL` once it listens, writes --fixtures-out first,
// stops with exit 0 on SIGTERM and SIGINT, and exits 2 on bad usage.
//
// The node runs as the package runs it, its compiled entry (test/support/test-build.ts) started with
// node directly, so that signals reach it: `npx` dies on SIGTERM without relaying it, which would leave
// the node orphaned and hide its exit status.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compiledEntry, ROOT } from "../../support/test-build.ts";
import { call, expectOk } from "./helpers.ts";

const ENTRY = [compiledEntry("ledger-node")];
const scratch = mkdtempSync(join(tmpdir(), "ledger-node-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(args: string[]) {
  return spawnSync(process.execPath, [...ENTRY, ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
}

/** Resolves with the URL once the node prints `listening on URL`. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const match = /^listening on (\S+)\n/m.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`ledger-node exited with ${code} before listening: ${out}`)));
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("ledger-node", () => {
  it.each([["SIGTERM"], ["SIGINT"]] as const)("serves, writes its fixtures first, and exits 0 on %s", async (signal) => {
    const fixturesFile = join(scratch, `fixtures-${signal}.json`);
    const child = spawn(process.execPath, [...ENTRY, "--port", "0", "--fixtures-out", fixturesFile], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = exitCode(child);
    try {
      const url = await listening(child);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+\/v1$/);
      const fixtures = JSON.parse(readFileSync(fixturesFile, "utf8")) as { chainId: number; moduleAccount: string };
      const info = await call(url, "");
      expectOk(info);
      expect((info.json() as { chain_id: number }).chain_id).toBe(fixtures.chainId);
      expectOk(await call(url, `/accounts/${fixtures.moduleAccount}/modules`));
    } finally {
      child.kill(signal);
    }
    expect(await exited).toBe(0);
  });

  it("lists the faults, one a line (name, two spaces, description), and exits 0", () => {
    const result = run(["--list-faults"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^([a-z0-9-]+ {2}\S[^\n]*\n)+$/);
  });

  it.each([
    [["--no-such-flag"]],
    [["--port", "http"]],
    [["--port", "70000"]],
    [["--profile", "ethereum"]],
    [["--fault", "no-such-fault"]],
    [["--prune-window", "0"]],
    [["positional"]],
  ])("exits 2 with a message on %j", (args) => {
    const result = run(args);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^ledger-node: /);
  });

  it("also runs as the ledger-node bin", () => {
    const result = spawnSync(process.execPath, ["bin/ledger-node.mjs", "--help"], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage: ledger-node/);
  });
});
