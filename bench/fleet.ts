// A fleet in one run against one node (issue 13's goal: 10 nodes checked in at most twice the time of
// one): 10 reference nodes, each a `ledger-node` child process as a remote node would be; the command
// is run once against one of them alone, then once with --targets naming all 10, and the wall times are
// printed with their ratio. Both runs skip the Allure sub-report (LEDGER_CONFORMANCE_ALLURE=off), as the
// self-check does: it is a fixed cost per node either way. Nothing is asserted.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
    const one = await conformanceCommand(["--target", first.url, "--fixtures", first.fixtures, "--report-dir", join(scratch, "one"), "--quiet"], { env, timeoutMs: RUN_TIMEOUT_MS });
    process.stdout.write(`${loadDescription()} before the fleet run\n`);
    const fleet = await conformanceCommand(["--targets", targetsFile, "--report-dir", join(scratch, "fleet"), "--quiet"], { env, timeoutMs: RUN_TIMEOUT_MS });
    printTable({
      title: "wall time of the command",
      columns: [{ header: "run" }, { header: "exit", align: "right" }, { header: "time (s)", align: "right" }, { header: "x one node", align: "right" }],
      rows: [row("1 node", one, one), row(`fleet of ${FLEET_SIZE} (--targets)`, fleet, one)],
      notes: [`goal: a fleet of ${FLEET_SIZE} in at most 2x the time of one node`],
    });
    if (fleet.code !== 0 || one.code !== 0) process.stdout.write(`note: a run did not exit 0: ${(fleet.code !== 0 ? fleet : one).stderr.slice(-2000)}\n`);
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}

function row(name: string, run: CommandRun, one: CommandRun): string[] {
  return [name, String(run.code), formatNumber(run.ms / 1000, 1), formatNumber(run.ms / one.ms, 2)];
}
