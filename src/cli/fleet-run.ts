// A fleet in one run (issue 13): each node is checked by a run of its own, a child process of this
// command with the same flags, writing its complete reports into REPORT_DIR/targets/NAME/; the runs go
// at once, and the matrix report is then built from their summary.json files exactly as `merge` builds
// it from runs made elsewhere (fleet-matrix-reports.ts). A child per node keeps nodes apart by
// construction: a worker's state (the harness, the sequence numbers a submission check has used, the
// property seed) is for one target, as in a one-node run. How many runs go at once depends on what
// bounds them (fleet-parallelism.ts, from a quick probe of each target). The exit status is the worst
// node's; a signal is passed on to the runs, which write their reports, and the command exits 128 + its
// number.

import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { aggregateRequirements, notStartedOutcome, type RunOutcome } from "../../reporters/aggregate.ts";
import type { MatrixNode } from "../../reporters/matrix-data.ts";
import { buildSummary } from "../../reporters/summary.ts";
import type { ProfileName } from "../harness/config.ts";
import type { RequirementCatalog } from "../harness/requirements.ts";
import type { ReportFormat } from "./conformance-args.ts";
import { writeMatrixReports } from "./fleet-matrix-reports.ts";
import { runBoundOf, runsAtOnce, workersPerRun, type RunBound } from "./fleet-parallelism.ts";
import { readRunSummary } from "./fleet-summary-reader.ts";
import type { FleetTarget } from "./fleet-targets.ts";
import { ReportLayout } from "./report-layout.ts";

/** What a child printed, kept for its console.txt: the end is what says why it stopped. */
const MAX_CONSOLE_BYTES = 256 * 1024;

/** The flags the fleet sets per node; every other flag is passed to each node's run as given. */
const PER_NODE_FLAGS = new Set(["--target", "--targets", "--report-dir", "--quiet", "--fixtures", "--profile"]);

export interface FleetRunInput {
  readonly targets: readonly FleetTarget[];
  /** The command line as given, without `merge`: the nodes' runs get the same flags. */
  readonly argv: readonly string[];
  readonly reportDir: string;
  /** --fixtures and --profile: for the nodes the targets file gives none. */
  readonly fixtures?: string;
  readonly profile: ProfileName;
  /** --format: with markdown, stdout gets the fleet's summary.md instead of the console table. */
  readonly format?: ReportFormat;
  /** To report a node whose run wrote no summary: every requirement skipped with the reason, never passed. */
  readonly catalog: RequirementCatalog;
  readonly interrupt: AbortSignal;
  readonly say: (line: string) => void;
}

/** A node waiting for its run, with its place in the matrix. */
interface Queued {
  readonly target: FleetTarget;
  readonly index: number;
}

export async function runFleet(input: FleetRunInput): Promise<number> {
  const startedAt = new Date();
  const t0 = performance.now();
  const layout = new ReportLayout(input.reportDir);
  layout.create();
  const shared = sharedFlags(input.argv);
  input.say(`fleet of ${input.targets.length}: ${input.targets.map((t) => `${t.name} ${t.url}`).join(", ")}; each node's own reports go to ${join(layout.display, "targets", "NAME")}/`);

  const running = new Set<ReturnType<typeof spawn>>();
  const onInterrupt = () => {
    const signal = String(input.interrupt.reason).endsWith("SIGINT") ? "SIGINT" : "SIGTERM";
    for (const child of running) child.kill(signal);
  };
  input.interrupt.addEventListener("abort", onInterrupt, { once: true });

  const bounds = await Promise.all(input.targets.map((t) => runBoundOf(t.url)));
  const pools = (["latency", "cpu"] as const).map((bound: RunBound) => {
    const queue = input.targets.flatMap((target, index): Queued[] => (bounds[index] === bound ? [{ target, index }] : []));
    return { bound, queue, together: Math.min(runsAtOnce(bound), queue.length) };
  });
  input.say(pools.filter((p) => p.queue.length > 0).map((p) => `${p.queue.length} ${p.bound}-bound, up to ${runsAtOnce(p.bound)} at once`).join("; "));

  const nodes: MatrixNode[] = [];
  try {
    const finished: MatrixNode[] = new Array(input.targets.length);
    const worker = async ({ bound, queue, together }: (typeof pools)[number]) => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const { target, index } = next;
        const dir = join(layout.dir, "targets", target.name);
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        const node = input.interrupt.aborted
          ? stoppedNode(target, input.catalog, String(input.interrupt.reason), startedAt)
          : await runNode({ ...target, fixtures: target.fixtures ?? input.fixtures, profile: target.profile ?? input.profile }, dir, withWorkers(shared, workersPerRun(bound, together)), running, input.catalog);
        finished[index] = node;
        input.say(`${node.exitCode === 0 ? "✓" : "✗"} ${target.name}: exit ${node.exitCode}, ${node.summary.counts.failed} failed, ${node.summary.counts.warned} warned, ${node.summary.counts.passed} passed (${(node.summary.durationMs / 1000).toFixed(1)} s)`);
      }
    };
    // Each kind of run has its own bound, and the two kinds go side by side.
    const workers = pools.flatMap((pool) => Array.from({ length: pool.together }, () => worker(pool)));
    await Promise.all(workers);
    nodes.push(...finished);
  } finally {
    input.interrupt.removeEventListener("abort", onInterrupt);
  }
  const code = writeMatrixReports({ layout, nodes, startedAt, durationMs: performance.now() - t0, ...(input.format === undefined ? {} : { format: input.format }) });
  if (input.interrupt.aborted) return String(input.interrupt.reason).endsWith("SIGINT") ? 130 : 143;
  return code;
}

/** The flags of a node's run: --workers as the fleet gives it (workersPerRun), unless the command line gives it. */
function withWorkers(shared: readonly string[], workers: number): readonly string[] {
  const given = shared.some((arg) => arg === "--workers" || arg.startsWith("--workers="));
  return given ? shared : [...shared, "--workers", String(workers)];
}

/** One node's run, as a child process of this same command; its summary, or why there is none. */
async function runNode(target: FleetTarget & { readonly fixtures: string | undefined; readonly profile: ProfileName }, dir: string, shared: readonly string[], running: Set<ReturnType<typeof spawn>>, catalog: RequirementCatalog): Promise<MatrixNode> {
  const started = new Date();
  const args = [
    ...shared,
    "--target", target.url,
    "--report-dir", dir,
    "--quiet",
    "--profile", target.profile,
    ...(target.fixtures === undefined ? [] : ["--fixtures", target.fixtures]),
  ];
  // The command that is running now, under the same runtime flags (tsx's loader from the sources, or none from dist/).
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1] as string, ...args], { stdio: ["ignore", "pipe", "pipe"], env: process.env });
  running.add(child);
  let output = "";
  const keep = (chunk: string) => {
    output = (output + chunk).slice(-MAX_CONSOLE_BYTES);
  };
  child.stdout?.setEncoding("utf8").on("data", keep);
  child.stderr?.setEncoding("utf8").on("data", keep);
  const exit = await new Promise<number>((resolve) => {
    child.once("error", (e) => {
      output += `\n${e.message}`;
      resolve(2);
    });
    child.once("close", (code, signal) => resolve(code ?? (signal === "SIGINT" ? 130 : 143)));
  });
  running.delete(child);
  writeFileSync(join(dir, "console.txt"), output);
  const reportHref = `../targets/${target.name}/html/index.html`;
  try {
    return { name: target.name, summary: readRunSummary(dir), exitCode: exit, reportHref };
  } catch (e) {
    // No report (a configuration error before the run, a crash): the node is reported not run, with why.
    const lastLine = output.trim().split("\n").slice(-1)[0] ?? "";
    const reason = `its run exited ${exit} without a report (${(e as Error).message})${lastLine === "" ? "" : `: ${lastLine}`}`;
    return { name: target.name, summary: summaryOf(notStartedOutcome(catalog, reason, 0), target, started), exitCode: Math.max(exit, 1) };
  }
}

/** A node the run never got to (a signal came first): every requirement skipped with the reason. */
function stoppedNode(target: FleetTarget, catalog: RequirementCatalog, reason: string, startedAt: Date): MatrixNode {
  const outcome: RunOutcome = { ...aggregateRequirements(catalog, [], [], 0, `not run: ${reason}`), interruption: { kind: "stopped", reason } };
  return { name: target.name, summary: summaryOf(outcome, target, startedAt), exitCode: 1 };
}

function summaryOf(outcome: RunOutcome, target: FleetTarget, startedAt: Date) {
  return buildSummary(outcome, { target: target.url, startedAt, durationMs: 0 });
}

/**
 * The command line without the flags the fleet sets per node. parseArgs has accepted it already, so a
 * value never looks like a flag and a flag is `--name value` or `--name=value`.
 */
export function sharedFlags(argv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const name = arg.split("=")[0] as string;
    if (!PER_NODE_FLAGS.has(name)) {
      kept.push(arg);
      continue;
    }
    // A flag with a value given apart (`--target URL`) drops the value too; --quiet has none.
    if (name !== "--quiet" && !arg.includes("=")) i++;
  }
  return kept;
}
