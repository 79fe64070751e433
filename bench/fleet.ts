// A fleet in one run against one node (the goal: 10 nodes checked in at most twice the time of
// one), measured twice: 10 reference nodes on loopback, each a `ledger-node` child process, and the same
// 10 nodes each behind its own latency proxy (0-MAX_DELAY_MS ms per request, seeded), as nodes across a
// network are. Each time the command is run against one node alone, then once with --targets naming all
// 10, and the wall times are printed with their ratio, beside the CPU time the command (its threads, and
// any child process), the nodes and the latency proxies (this process) used. On loopback a fleet is bound
// by CPU (the CPU figures say by how much); behind the proxies its files wait on the network, many at
// once (src/run/workers.ts fleetWorkers). The one-node run behind a proxy uses node 1's proxy seed, so it
// sees the delays node 1 sees in the fleet. Both figures are always printed. The runs skip the Allure
// sub-report (LEDGER_CONFORMANCE_ALLURE=off), as the self-check does: it is a fixed cost per node either
// way. The command runs compiled, as the package runs it (test/support/test-build.ts compiles it first
// when the sources changed): a fleet in a checkout would pay tsx's loader in each of its node runs.
// Nothing is asserted.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { conformanceCommand, type CommandRun } from "../test/support/conformance-command.ts";
import { compileCommand } from "../test/support/test-build.ts";
import { LATENCY_SEED, MAX_DELAY_MS } from "./conformance-run.ts";
import { formatNumber, loadDescription, printHeading, printTable } from "./format.ts";
import { startLatencyProxy, type LatencyProxy } from "./latency-proxy.ts";
import { startChildNode, type ChildNode } from "./node-process.ts";
import type { BenchOptions } from "./options.ts";

const FLEET_SIZE = 10;
const RUN_TIMEOUT_MS = 600_000;
const ENV = { LEDGER_CONFORMANCE_ALLURE: "off" };

interface Target {
  readonly name: string;
  readonly url: string;
  readonly fixtures: string;
}

export async function runFleet(_options: BenchOptions): Promise<void> {
  printHeading(
    `fleet: the whole suite against 1 node, then against a fleet of ${FLEET_SIZE} in one run; on loopback, then each node behind a 0-${MAX_DELAY_MS} ms proxy`,
  );
  compileCommand();
  const scratch = mkdtempSync(join(tmpdir(), "bench-fleet-"));
  const nodes: ChildNode[] = [];
  try {
    for (let i = 0; i < FLEET_SIZE; i++) nodes.push(await startChildNode());
    const fixtures = nodes.map((node, i) => {
      const file = join(scratch, `fixtures-${i + 1}.json`);
      writeFileSync(file, JSON.stringify(node.fixtures));
      return file;
    });
    const loopback = await compared(nodes, scratch, "loopback", (use) => use(nodes.map((n) => n.url)), fixtures);
    const proxied = await compared(nodes, scratch, "proxied", behindProxies(nodes), fixtures);
    process.stdout.write(`${loadDescription()} at the end\n`);
    printTable({
      title: "the command's wall time, and the CPU time it and the nodes used",
      columns: [
        { header: "run" },
        { header: "exit", align: "right" },
        { header: "time (s)", align: "right" },
        { header: "x one node", align: "right" },
        { header: "command CPU (s)", align: "right" },
        { header: "nodes CPU (s)", align: "right" },
        { header: "proxies CPU (s)", align: "right" },
      ],
      rows: [
        row("loopback: 1 node", loopback.one, loopback.one),
        row(`loopback: fleet of ${FLEET_SIZE}`, loopback.fleet, loopback.one),
        row(`behind 0-${MAX_DELAY_MS} ms proxies: 1 node`, proxied.one, proxied.one),
        row(`behind 0-${MAX_DELAY_MS} ms proxies: fleet of ${FLEET_SIZE}`, proxied.fleet, proxied.one),
      ],
      notes: [
        `goal: a fleet of ${FLEET_SIZE} in at most 2x the time of one node; loopback ${formatNumber(loopback.fleet.ms / loopback.one.ms, 2)}x, behind proxies ${formatNumber(proxied.fleet.ms / proxied.one.ms, 2)}x`,
        `on C cores a fleet needs at least (command + nodes + proxies CPU) / C: on ${CORES} cores, ${floor(loopback, "all")} on loopback, ${floor(proxied, "all")} behind proxies`,
        `the command's CPU alone / C, what a fleet of nodes on other machines would need at least: ${floor(loopback, "command")} on loopback, ${floor(proxied, "command")} behind proxies`,
        `proxies CPU: this process's, where the proxies run (on loopback there are none)`,
        `behind the proxies (seeds ${LATENCY_SEED}..${LATENCY_SEED + FLEET_SIZE - 1}, the one-node run with node 1's) the nodes' files wait on the network, many at once`,
      ],
    });
    for (const run of [loopback.one, loopback.fleet, proxied.one, proxied.fleet]) {
      if (run.code !== 0) process.stdout.write(`note: a run did not exit 0 (${run.code}): ${run.stderr.slice(-2000)}\n`);
    }
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** How a run reaches the nodes: their URLs for the time of `use`. */
type Route = <T>(use: (urls: readonly string[]) => Promise<T>) => Promise<T>;

/** The command against node 1 alone, then against all nodes with --targets. */
async function compared(
  nodes: readonly ChildNode[],
  scratch: string,
  label: string,
  route: Route,
  fixtures: readonly string[],
): Promise<{ one: MeasuredRun; fleet: MeasuredRun }> {
  const targetsOf = (urls: readonly string[]): Target[] =>
    urls.map((url, i) => ({ name: `node-${i + 1}`, url, fixtures: fixtures[i] as string }));
  process.stdout.write(`${loadDescription()} before the ${label} one-node run\n`);
  const one = await route((urls) => {
    const first = targetsOf(urls)[0] as Target;
    return measured(nodes, () =>
      conformanceCommand(["--target", first.url, "--fixtures", first.fixtures, "--report-dir", join(scratch, `${label}-one`), "--quiet"], {
        env: ENV,
        timeoutMs: RUN_TIMEOUT_MS,
      }),
    );
  });
  process.stdout.write(`${loadDescription()} before the ${label} fleet run\n`);
  const fleet = await route((urls) => {
    const targetsFile = join(scratch, `targets-${label}.json`);
    writeFileSync(targetsFile, JSON.stringify({ targets: targetsOf(urls) }));
    return measured(nodes, () =>
      conformanceCommand(["--targets", targetsFile, "--report-dir", join(scratch, `${label}-fleet`), "--quiet"], {
        env: ENV,
        timeoutMs: RUN_TIMEOUT_MS,
      }),
    );
  });
  return { one, fleet };
}

/** Each node behind a proxy of its own (node i's seed LATENCY_SEED + i), started afresh for each run so that the seeded delays start over. */
function behindProxies(nodes: readonly ChildNode[]): Route {
  return async (use) => {
    const proxies: LatencyProxy[] = [];
    try {
      for (const [i, node] of nodes.entries())
        proxies.push(await startLatencyProxy(node.url, { maxDelayMs: MAX_DELAY_MS, seed: LATENCY_SEED + i }));
      return await use(proxies.map((p) => p.url));
    } finally {
      await Promise.all(proxies.map((p) => p.close()));
    }
  };
}

interface MeasuredRun extends CommandRun {
  readonly commandCpuS: number;
  readonly nodesCpuS: number;
  /** This process's CPU during the run: the latency proxies' when there are any, else next to nothing. */
  readonly proxiesCpuS: number;
}

/** The run with the CPU seconds of the command (this process's waited-for children), of the nodes, and of this process. */
async function measured(nodes: readonly ChildNode[], run: () => Promise<CommandRun>): Promise<MeasuredRun> {
  const children0 = childrenCpuTicks();
  const nodes0 = nodes.map((n) => processCpuTicks(n.pid));
  const self0 = process.cpuUsage();
  const result = await run();
  const self = process.cpuUsage(self0);
  const nodesTicks = nodes.reduce((sum, n, i) => sum + processCpuTicks(n.pid) - (nodes0[i] as number), 0);
  return {
    ...result,
    commandCpuS: (childrenCpuTicks() - children0) / TICKS_PER_SECOND,
    nodesCpuS: nodesTicks / TICKS_PER_SECOND,
    proxiesCpuS: (self.user + self.system) / 1e6,
  };
}

/** Linux's USER_HZ, in which /proc reports CPU times. */
const TICKS_PER_SECOND = 100;

/** /proc/PID/stat fields after the command name: utime is the 14th field of the line, cutime the 16th. */
function statFields(pid: number | "self"): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

function processCpuTicks(pid: number): number {
  const f = statFields(pid);
  return Number(f[11]) + Number(f[12]);
}

/** CPU of this process's children that have ended and been waited for (cutime + cstime). */
function childrenCpuTicks(): number {
  const f = statFields("self");
  return Number(f[13]) + Number(f[14]);
}

const CORES = availableParallelism();

/**
 * The least wall time the fleet's CPU allows on this machine's cores, and that as a multiple of one
 * node's time: of everything this machine ran ("all"), or of the command alone ("command").
 */
function floor(runs: { one: MeasuredRun; fleet: MeasuredRun }, of: "all" | "command"): string {
  const { commandCpuS, nodesCpuS, proxiesCpuS } = runs.fleet;
  const seconds = (of === "all" ? commandCpuS + nodesCpuS + proxiesCpuS : commandCpuS) / CORES;
  return `${formatNumber(seconds, 1)} s (${formatNumber((seconds * 1000) / runs.one.ms, 2)}x)`;
}

function row(name: string, run: MeasuredRun, one: MeasuredRun): string[] {
  return [
    name,
    String(run.code),
    formatNumber(run.ms / 1000, 1),
    formatNumber(run.ms / one.ms, 2),
    formatNumber(run.commandCpuS, 1),
    formatNumber(run.nodesCpuS, 1),
    formatNumber(run.proxiesCpuS, 1),
  ];
}
