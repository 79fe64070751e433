// The conformance run itself, as figures beside its goals (at most 5 s, and 15 s behind the proxy): the default run (`npm run
// conformance`, the embedded node) several times, its wall time and where it went (summary.json's
// `phases`), and the run against the reference node behind a loopback proxy that delays each request
// by 0..300 ms, as a node across the internet would. Each run is a child process started as a user
// starts it; the wall time is measured from here, so npm's own start is in it.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatNumber, loadDescription, printHeading, printTable } from "./format.ts";
import { startLatencyProxy } from "./latency-proxy.ts";
import { startChildNode } from "./node-process.ts";
import type { BenchOptions } from "./options.ts";
import { median } from "./stats.ts";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The goals, in seconds of wall time on 2 cores: a gate that costs little, even across a network. */
const DEFAULT_RUN_GOAL_S = 3;
const LATENCY_RUN_GOAL_S = 15;
export const MAX_DELAY_MS = 300;
/** The proxy's delays are drawn from this seed, so that runs compare. */
export const LATENCY_SEED = 11;
/** A run that takes this long is stuck: it is stopped, and the figure says so. */
const RUN_TIMEOUT_MS = 600_000;

interface RunFigures {
  readonly wallMs: number;
  readonly exitCode: number | null;
  readonly failed: number | undefined;
  readonly warned: number | undefined;
  readonly requests: number | undefined;
  readonly phases: Readonly<Record<string, number>>;
  /** The requirements that failed or warned, with their first failure: a figure of a failing run says why. */
  readonly problems: readonly string[];
}

export async function runConformanceRuns(options: BenchOptions): Promise<void> {
  printHeading(
    `conformance run: the default run ${options.conformanceRuns} times, then the run through a proxy adding 0-${MAX_DELAY_MS} ms per request`,
  );
  const scratch = mkdtempSync(join(tmpdir(), "bench-conformance-"));
  try {
    const runs: RunFigures[] = [];
    for (let i = 0; i < options.conformanceRuns; i++) {
      runs.push(await runCommand([], join(scratch, `default-${i}`)));
      process.stdout.write(`  default run ${i + 1}: ${formatNumber(runs[runs.length - 1]!.wallMs / 1000, 1)} s; ${loadDescription()}\n`);
    }
    printDefaultRuns(runs);
    const latency = await runBehindLatency(join(scratch, "latency"));
    printLatencyRun(latency);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `npm run conformance -- ...args`; its exit code, null when it was stopped after `timeoutMs`. */
export function conformanceCommand(args: readonly string[], timeoutMs: number = RUN_TIMEOUT_MS): Promise<number | null> {
  return new Promise<number | null>((resolve) => {
    const child = spawn("npm", ["run", "--silent", "conformance", "--", ...args], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.once("error", () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}

/** `npm run conformance -- --report-dir DIR --quiet ...args`, timed from spawn to exit. */
async function runCommand(args: readonly string[], reportDir: string): Promise<RunFigures> {
  const started = performance.now();
  const exitCode = await conformanceCommand(["--report-dir", reportDir, "--quiet", ...args]);
  const wallMs = performance.now() - started;
  let summary: {
    counts?: { failed?: number; warned?: number };
    requests?: number;
    phases?: Record<string, number>;
    requirements?: { id: string; status: string; failures?: { message?: string }[] }[];
  } = {};
  try {
    summary = JSON.parse(readFileSync(join(reportDir, "summary.json"), "utf8"));
  } catch {
    // No summary: the exit code says what happened.
  }
  return {
    wallMs,
    exitCode,
    failed: summary.counts?.failed,
    warned: summary.counts?.warned,
    requests: summary.requests,
    phases: summary.phases ?? {},
    problems: (summary.requirements ?? [])
      .filter((r) => r.status === "failed" || r.status === "warned")
      .map((r) => `${r.status} ${r.id}: ${(r.failures?.[0]?.message ?? "").split("\n").slice(0, 6).join(" / ")}`),
  };
}

/** The reference node as a child process, the latency proxy before it, and the command pointed at the proxy with the node's fixtures. */
async function runBehindLatency(dir: string): Promise<RunFigures & { delayed: number }> {
  const node = await startChildNode();
  const proxy = await startLatencyProxy(node.url, { maxDelayMs: MAX_DELAY_MS, seed: LATENCY_SEED });
  try {
    const fixtures = join(`${dir}-fixtures.json`);
    writeFileSync(fixtures, JSON.stringify(node.fixtures));
    const run = await runCommand(["--target", proxy.url, "--fixtures", fixtures], dir);
    return { ...run, delayed: proxy.delayed() };
  } finally {
    await proxy.close();
    await node.stop();
  }
}

const seconds = (ms: number) => formatNumber(ms / 1000, 1);
const count = (n: number | undefined) => (n === undefined ? "-" : String(n));

function printDefaultRuns(runs: readonly RunFigures[]): void {
  const phaseNames = [...new Set(runs.flatMap((r) => Object.keys(r.phases)))];
  const wall = median(runs.map((r) => r.wallMs));
  printTable({
    title: `default run (npm run conformance, embedded node): median ${seconds(wall)} s wall, goal <= ${DEFAULT_RUN_GOAL_S} s`,
    columns: [
      { header: "run" },
      { header: "wall (s)", align: "right" },
      { header: "exit", align: "right" },
      { header: "failed", align: "right" },
      { header: "warned", align: "right" },
      { header: "requests", align: "right" },
      ...phaseNames.map((name) => ({ header: `${name} (ms)`, align: "right" as const })),
    ],
    rows: [
      ...runs.map((r, i) => [
        String(i + 1),
        seconds(r.wallMs),
        count(r.exitCode ?? undefined),
        count(r.failed),
        count(r.warned),
        count(r.requests),
        ...phaseNames.map((n) => count(r.phases[n])),
      ]),
      ["median", seconds(wall), "", "", "", "", ...phaseNames.map((n) => formatNumber(median(runs.map((r) => r.phases[n] ?? 0))))],
    ],
    notes: [
      "phases (summary.json): processStart = node, tsx and the command's imports; target = the embedded node and its genesis;",
      "workers = vitest and its workers up to the first check; vitestClose = vitest's end of run (it closes while the reports are written);",
      "the wall time also holds npm's start and the process's exit, outside the phases",
    ],
  });
}

function printLatencyRun(run: RunFigures & { delayed: number }): void {
  printTable({
    title: `the reference node behind 0-${MAX_DELAY_MS} ms per request (loopback proxy, seed ${LATENCY_SEED}): goal <= ${LATENCY_RUN_GOAL_S} s, exit 0`,
    columns: [
      { header: "wall (s)", align: "right" },
      { header: "exit", align: "right" },
      { header: "failed", align: "right" },
      { header: "warned", align: "right" },
      { header: "requests", align: "right" },
      { header: "delayed bursts", align: "right" },
      { header: "checks (ms)", align: "right" },
    ],
    rows: [
      [
        seconds(run.wallMs),
        count(run.exitCode ?? undefined),
        count(run.failed),
        count(run.warned),
        count(run.requests),
        String(run.delayed),
        count(run.phases.checks),
      ],
    ],
  });
  for (const problem of run.problems) console.log(`  ${problem}`);
}
