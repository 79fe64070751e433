// The conformance command as a child process, for the command's own tests: `node --import tsx
// src/cli/ledger-conformance.ts ARGS`, spawned asynchronously (the servers it is pointed at answer from
// the test's own event loop), with its exit status, output, wall time, and the reports it wrote.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Summary } from "../../reporters/summary.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface CliRun {
  /** The exit status; null when it was killed. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

export interface CliOptions {
  readonly timeoutMs?: number;
  readonly env?: Readonly<Record<string, string>>;
  /** Sends this signal once stdout contains `when`. */
  readonly signal?: { readonly name: NodeJS.Signals; readonly when: string };
}

export function cli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/ledger-conformance.ts", ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", ...options.env },
    });
    let stdout = "";
    let stderr = "";
    let signalled = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (options.signal && !signalled && stdout.includes(options.signal.when)) {
        signalled = true;
        child.kill(options.signal.name);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

const made: string[] = [];

/** A fresh report directory, removed by removeReportDirs. */
export function reportDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "conformance-reports-"));
  made.push(dir);
  return dir;
}

export function removeReportDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface Reports {
  readonly summary: Summary;
  readonly junit: string;
  readonly html: string;
}

/** The three reports of a run; fails the test when one is missing. */
export function readReports(dir: string): Reports {
  for (const file of ["summary.json", "junit.xml", join("html", "index.html")]) {
    if (!existsSync(join(dir, file))) throw new Error(`the run wrote no ${file} in ${dir}`);
  }
  return {
    summary: JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary,
    junit: readFileSync(join(dir, "junit.xml"), "utf8"),
    html: readFileSync(join(dir, "html", "index.html"), "utf8"),
  };
}
