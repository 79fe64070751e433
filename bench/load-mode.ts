// The load mode's goal: the reference node under `--load 32` for 20 s, every law decided and held, and
// the run's own CPU leaving the node at least half the machine. The node runs as a child process
// (`ledger-node`, blocks every 100 ms as the embedded node makes them) and the suite as another
// (`--only properties/under-load`), so that each one's CPU is read from /proc apart: both are sampled
// every half second, and the load's window is the --load-duration span in which the node used the most.
// The node's throughput under load is printed beside its idle figures (node-throughput.ts).

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatNumber, loadDescription, printHeading, printTable } from "./format.ts";
import { startChildNode } from "./node-process.ts";
import type { BenchOptions } from "./options.ts";
import type { LoadProfile } from "../src/harness/load-profile.ts";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const ENTRY = join(REPO_ROOT, "src", "cli", "ledger-conformance-entry.ts");
const CLIENTS = 32;
const LOAD_SECONDS = 20;
const SAMPLE_MS = 500;
/** A load run that takes this long is stuck. */
const RUN_TIMEOUT_MS = 300_000;
/** Clock ticks a second, for /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface Sample {
  readonly atMs: number;
  /** CPU seconds so far, user and system, of the node and of the suite. */
  readonly node: number;
  readonly suite: number;
}

/** CPU seconds a process has used, from /proc/<pid>/stat (fields 14 and 15); undefined once it is gone. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

export async function runLoadMode(_options: BenchOptions): Promise<void> {
  printHeading(`load mode: the reference node under --load ${CLIENTS} for ${LOAD_SECONDS} s (a child process each, CPU from /proc)`);
  const scratch = mkdtempSync(join(tmpdir(), "bench-load-"));
  const node = await startChildNode(["--block-interval", "100"]);
  try {
    const fixtures = join(scratch, "fixtures.json");
    writeFileSync(fixtures, JSON.stringify(node.fixtures));
    const reportDir = join(scratch, "reports");
    const args = ["--import", "tsx", ENTRY, "--target", node.url, "--fixtures", fixtures, "--report-dir", reportDir, "--quiet"];
    args.push("--load", String(CLIENTS), "--load-duration", String(LOAD_SECONDS), "--only", "properties/under-load");
    const samples: Sample[] = [];
    const started = performance.now();
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, args, {
        cwd: REPO_ROOT,
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, LEDGER_CONFORMANCE_ALLURE: "off" },
      });
      const sampler = setInterval(() => {
        const n = cpuSeconds(node.pid);
        const s = child.pid === undefined ? undefined : cpuSeconds(child.pid);
        if (n !== undefined && s !== undefined) samples.push({ atMs: performance.now() - started, node: n, suite: s });
      }, SAMPLE_MS);
      const timer = setTimeout(() => child.kill("SIGTERM"), RUN_TIMEOUT_MS);
      child.once("exit", (code) => {
        clearInterval(sampler);
        clearTimeout(timer);
        resolve(code);
      });
    });
    const wallMs = performance.now() - started;
    const summary = JSON.parse(readFileSync(join(reportDir, "summary.json"), "utf8")) as {
      load?: LoadProfile;
      requirements: readonly { id: string; status: string }[];
    };
    printFigures(summary, samples, wallMs, exitCode);
  } finally {
    await node.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The span of LOAD_SECONDS in which the node used the most CPU: the load itself, without start-up and settling. */
function loadWindow(samples: readonly Sample[]): { node: number; suite: number; seconds: number } | undefined {
  const span = (LOAD_SECONDS * 1000) / SAMPLE_MS;
  let best: { node: number; suite: number; seconds: number } | undefined;
  for (let i = 0; i + span < samples.length; i++) {
    const a = samples[i] as Sample;
    const b = samples[i + span] as Sample;
    const seconds = (b.atMs - a.atMs) / 1000;
    const window = { node: (b.node - a.node) / seconds, suite: (b.suite - a.suite) / seconds, seconds };
    if (best === undefined || window.node > best.node) best = window;
  }
  return best;
}

function printFigures(
  summary: { load?: LoadProfile; requirements: readonly { id: string; status: string }[] },
  samples: readonly Sample[],
  wallMs: number,
  exitCode: number | null,
): void {
  const load = summary.load;
  if (load === undefined) {
    process.stdout.write(`  no load profile in summary.json (exit ${exitCode})\n`);
    return;
  }
  const status = new Map(summary.requirements.map((r) => [r.id, r.status]));
  printTable({
    title: `laws under load (goal: every one decided and held); exit ${exitCode}, ${formatNumber(wallMs / 1000, 1)} s wall`,
    columns: [{ header: "law" }, { header: "status" }, { header: "decided", align: "right" }, { header: "anomalies", align: "right" }],
    rows: (load.laws ?? []).map((l) => [l.id, status.get(l.id) ?? "?", formatNumber(l.decided), formatNumber(l.anomalies)]),
  });
  printTable({
    title: `the node under load: ${load.clients} clients, ${load.writers} writers, ${formatNumber(load.durationMs / 1000, 1)} s, ${formatNumber(load.requests)} requests (${formatNumber(load.perSecond)}/s)`,
    columns: [
      { header: "endpoint" },
      { header: "req/s", align: "right" },
      { header: "p50 ms", align: "right" },
      { header: "p95 ms", align: "right" },
      { header: "p99 ms", align: "right" },
      { header: "5xx", align: "right" },
      { header: "no answer", align: "right" },
    ],
    rows: load.endpoints.map((e) => [
      e.endpoint,
      formatNumber(e.perSecond, 1),
      formatNumber(e.latencyMs?.p50 ?? Number.NaN),
      formatNumber(e.latencyMs?.p95 ?? Number.NaN),
      formatNumber(e.latencyMs?.p99 ?? Number.NaN),
      formatNumber(e.statuses["5xx"]),
      formatNumber(e.statuses.noAnswer),
    ]),
    notes: ["beside the idle figures of `npm run bench -- node` (8 connections, one endpoint at a time)"],
  });
  const window = loadWindow(samples);
  const cpu =
    window === undefined
      ? "too few CPU samples"
      : `node ${formatNumber(window.node, 2)} cores, suite ${formatNumber(window.suite, 2)} cores over the load's ${formatNumber(window.seconds, 1)} s (goal: the suite at most half the machine, ${formatNumber(availableParallelism() / 2, 1)} cores)`;
  process.stdout.write(`  CPU: ${cpu}; ${loadDescription()}\n`);
}
