// The reference node as a child process, as `ledger-node` runs it: a load generator in the same process
// as the server would share its event loop and skew the figures. Node runs the CLI with tsx's loader
// in-process (`node --import tsx`), not through the tsx wrapper, so the child's pid is the node's own
// and /proc/<pid>/status shows the server's memory.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EngineFixtures } from "../src/node/ledger/index.ts";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(REPO_ROOT, "src", "cli", "ledger-node.ts");
const LISTENING = /^listening on (\S+)$/m;
/** A genesis of 10^6 versions starts in seconds; this only stops a hung child from hanging the bench. */
const START_TIMEOUT_MS = 120_000;

export interface ChildNode {
  /** Base URL including /v1. */
  readonly url: string;
  readonly pid: number;
  readonly fixtures: EngineFixtures;
  /** From spawn to the `listening on` line. */
  readonly startupMs: number;
  /** SIGTERM, then waits for the child to exit. */
  stop(): Promise<void>;
}

/** Starts `ledger-node --port 0 --fixtures-out <tmp> ...extraArgs` and waits for it to listen. */
export async function startChildNode(extraArgs: readonly string[] = []): Promise<ChildNode> {
  const dir = mkdtempSync(join(tmpdir(), "ledger-bench-"));
  const fixturesPath = join(dir, "fixtures.json");
  const args = ["--import", "tsx", CLI, "--port", "0", "--host", "127.0.0.1", "--fixtures-out", fixturesPath, ...extraArgs];
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  try {
    const url = await waitForListening(child);
    const startupMs = performance.now() - started;
    const fixtures = JSON.parse(readFileSync(fixturesPath, "utf8")) as EngineFixtures;
    return { url, pid: child.pid as number, fixtures, startupMs, stop: () => stopChild(child, dir) };
  } catch (error) {
    await stopChild(child, dir);
    throw error;
  }
}

function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => fail(new Error(`ledger-node did not listen within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(new Error(`${error.message}\nstderr:\n${stderr.slice(-2000)}`));
    };
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = LISTENING.exec(stdout);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", fail);
    child.once("exit", (code, signal) => fail(new Error(`ledger-node exited (code ${code}, signal ${signal}) before listening`)));
  });
}

async function stopChild(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    // A child that ignores SIGTERM for 10 s is killed: the bench must end by itself.
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dir, { recursive: true, force: true });
}

export interface ProcessMemory {
  /** Resident set size now. */
  readonly rssBytes: number;
  /** Peak resident set size since the process started (VmHWM). */
  readonly peakRssBytes: number;
}

/** VmRSS and VmHWM of a running process, from /proc (Linux). */
export function processMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string): number => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status);
    if (match === null) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(match[1]) * 1024;
  };
  return { rssBytes: kib("VmRSS"), peakRssBytes: kib("VmHWM") };
}
