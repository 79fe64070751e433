// A fleet in one run against one node (issue 13's goal: 10 nodes checked in at most twice the time of
// one): 10 reference nodes, each a `ledger-node` child process as a remote node would be; the command
// is run once against one of them alone, then once with --targets naming all 10, and the wall times are
// printed with their ratio, beside the CPU time the command (with its child runs) and the nodes used:
// on a machine with few cores the fleet is bound by CPU, and the CPU figures say by how much. Both runs
// skip the Allure sub-report (LEDGER_CONFORMANCE_ALLURE=off), as the self-check does: it is a fixed cost
// per node either way. Nothing is asserted.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conformanceCommand, type CommandRun } from "../test/support/conformance-command.ts";
import { formatNumber, loadDescription, printHeading, printTable } from "./format.ts";
import { startChildNode, type ChildNode } from "./node-process.ts";
import type { BenchOptions } from "./options.ts";

const FLEET_SIZE = 10;
const RUN_TIMEOUT_MS = 600_000;

export async function runFleet(_options: BenchOptions): Promise<void> {
  printHeading(`fleet: the whole suite against 1 node, then against a fleet of ${FLEET_SIZE} in one run`);
  const scratch = mkdtempSync(join(tmpdir(), "bench-fleet-"));
  const nodes: ChildNode[] = [];
  try {
    for (let i = 0; i < FLEET_SIZE; i++) nodes.push(await startChildNode());
    const targets = nodes.map((node, i) => {
      const fixtures = join(scratch, `fixtures-${i + 1}.json`);
      writeFileSync(fixtures, JSON.stringify(node.fixtures));
      return { name: `node-${i + 1}`, url: node.url, fixtures };
    });
    const targetsFile = join(scratch, "targets.json");
    writeFileSync(targetsFile, JSON.stringify({ targets }));
    const env = { LEDGER_CONFORMANCE_ALLURE: "off" };
    const first = targets[0] as (typeof targets)[number];
    process.stdout.write(`${loadDescription()} before the one-node run\n`);
    const one = await measured(nodes, () => conformanceCommand(["--target", first.url, "--fixtures", first.fixtures, "--report-dir", join(scratch, "one"), "--quiet"], { env, timeoutMs: RUN_TIMEOUT_MS }));
    process.stdout.write(`${loadDescription()} before the fleet run\n`);
    const fleet = await measured(nodes, () => conformanceCommand(["--targets", targetsFile, "--report-dir", join(scratch, "fleet"), "--quiet"], { env, timeoutMs: RUN_TIMEOUT_MS }));
    process.stdout.write(`${loadDescription()} at the end\n`);
    printTable({
      title: "the command's wall time, and the CPU time it (with its child runs) and the nodes used",
      columns: [
        { header: "run" },
        { header: "exit", align: "right" },
        { header: "time (s)", align: "right" },
        { header: "x one node", align: "right" },
        { header: "command CPU (s)", align: "right" },
        { header: "nodes CPU (s)", align: "right" },
      ],
      rows: [row("1 node", one, one), row(`fleet of ${FLEET_SIZE} (--targets)`, fleet, one)],
      notes: [`goal: a fleet of ${FLEET_SIZE} in at most 2x the time of one node; on C cores the fleet needs at least (command CPU + nodes CPU) / C`],
    });
    if (fleet.code !== 0 || one.code !== 0) process.stdout.write(`note: a run did not exit 0: ${(fleet.code !== 0 ? fleet : one).stderr.slice(-2000)}\n`);
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface MeasuredRun extends CommandRun {
  readonly commandCpuS: number;
  readonly nodesCpuS: number;
}

/** The run with the CPU seconds of the command and its children (this process's waited-for children), and of the nodes. */
async function measured(nodes: readonly ChildNode[], run: () => Promise<CommandRun>): Promise<MeasuredRun> {
  const children0 = childrenCpuTicks();
  const nodes0 = nodes.map((n) => processCpuTicks(n.pid));
  const result = await run();
  const nodesTicks = nodes.reduce((sum, n, i) => sum + processCpuTicks(n.pid) - (nodes0[i] as number), 0);
  return { ...result, commandCpuS: (childrenCpuTicks() - children0) / TICKS_PER_SECOND, nodesCpuS: nodesTicks / TICKS_PER_SECOND };
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

function row(name: string, run: MeasuredRun, one: MeasuredRun): string[] {
  return [name, String(run.code), formatNumber(run.ms / 1000, 1), formatNumber(run.ms / one.ms, 2), formatNumber(run.commandCpuS, 1), formatNumber(run.nodesCpuS, 1)];
}
