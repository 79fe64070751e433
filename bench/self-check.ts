// The self-check as figures: the whole conformance suite against the clean reference node and against
// the node with each named fault (src/node/faults/), as test/self-check/ runs it, printing the fault by
// requirement matrix (what each fault made fail), the kill rate and the time taken. Nothing is asserted
// here: `npm test` does that.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FAULTS, type Fault } from "../src/node/index.ts";
import { mapBounded, runConformance, type ConformanceRun } from "../test/self-check/conformance-run.ts";
import { formatNumber, printHeading, printTable } from "./format.ts";
import type { BenchOptions } from "./options.ts";
import { median } from "./stats.ts";

/** Runs at once, as in test/self-check/faults.test.ts. */
const PARALLEL_RUNS = 3;

interface FaultOutcome {
  readonly fault: Fault;
  readonly run: ConformanceRun;
  readonly failed: ReadonlySet<string>;
  readonly warned: ReadonlySet<string>;
  /** Exit 1 with every declared requirement failed: what the self-check demands. */
  readonly caught: boolean;
}

export async function runSelfCheck(_options: BenchOptions): Promise<void> {
  printHeading(`self-check: the whole suite against the clean node and ${FAULTS.length} faults, ${PARALLEL_RUNS} runs at a time`);
  const scratch = mkdtempSync(join(tmpdir(), "bench-self-check-"));
  try {
    const started = performance.now();
    const clean = await runConformance({ dir: join(scratch, "clean") });
    const outcomes = await mapBounded(FAULTS, PARALLEL_RUNS, async (fault): Promise<FaultOutcome> => {
      const run = await runConformance({ faults: [fault.name], dir: join(scratch, fault.name) });
      const ids = (status: string) => new Set(run.summary?.requirements.filter((r) => r.status === status).map((r) => r.id));
      const failed = ids("failed");
      return { fault, run, failed, warned: ids("warned"), caught: run.exitCode === 1 && fault.breaks.every((id) => failed.has(id)) };
    });
    const totalSeconds = (performance.now() - started) / 1000;
    printCleanRun(clean);
    printFaults(outcomes);
    printMatrix(outcomes);
    printFigures(outcomes, totalSeconds);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function printCleanRun(clean: ConformanceRun): void {
  const counts = clean.summary?.counts;
  printTable({
    title: "clean node",
    columns: [{ header: "exit" }, { header: "passed", align: "right" }, { header: "failed", align: "right" }, { header: "warned", align: "right" }, { header: "n/a", align: "right" }, { header: "time (s)", align: "right" }],
    rows: [[String(clean.exitCode), String(counts?.passed ?? "-"), String(counts?.failed ?? "-"), String(counts?.warned ?? "-"), String(counts?.notApplicable ?? "-"), formatNumber(clean.durationMs / 1000, 1)]],
  });
}

function printFaults(outcomes: readonly FaultOutcome[]): void {
  printTable({
    title: "faults",
    columns: [{ header: "#", align: "right" }, { header: "fault" }, { header: "area" }, { header: "exit" }, { header: "declared failed", align: "right" }, { header: "caught" }, { header: "time (s)", align: "right" }],
    rows: outcomes.map((o, i) => [
      String(i + 1),
      o.fault.name,
      o.fault.area,
      String(o.run.exitCode),
      `${o.fault.breaks.filter((id) => o.failed.has(id)).length}/${o.fault.breaks.length}`,
      o.caught ? "yes" : "NO",
      formatNumber(o.run.durationMs / 1000, 1),
    ]),
    notes: ["caught: exit 1 and every requirement the fault declares among the failed ones"],
  });
}

/** Requirements as rows (those any fault declared or made fail or warn), faults as numbered columns. */
function printMatrix(outcomes: readonly FaultOutcome[]): void {
  const touched = new Set<string>();
  for (const o of outcomes) for (const id of [...o.fault.breaks, ...o.failed, ...o.warned]) touched.add(id);
  const rows = [...touched].sort().map((id) => [
    id,
    ...outcomes.map((o) => {
      const declared = o.fault.breaks.includes(id);
      if (o.failed.has(id)) return declared ? "D" : "x";
      if (declared) return "!";
      return o.warned.has(id) ? "w" : "";
    }),
  ]);
  printTable({
    title: "fault by requirement (columns: the fault numbers of the table above)",
    columns: [{ header: "requirement" }, ...outcomes.map((_, i) => ({ header: String(i + 1), align: "right" as const }))],
    rows,
    notes: ["D failed, as declared   x failed, not declared   w warned (a SHOULD)   ! declared but not failed"],
  });
}

function printFigures(outcomes: readonly FaultOutcome[], totalSeconds: number): void {
  const caught = outcomes.filter((o) => o.caught).length;
  const failedRun = outcomes.filter((o) => o.run.exitCode === 1).length;
  const missed = outcomes.filter((o) => !o.caught).map((o) => o.fault.name);
  process.stdout.write(
    [
      "",
      `kill rate: ${caught}/${outcomes.length} faults caught (${formatNumber((100 * caught) / outcomes.length, 1)}%); the run failed (exit 1) for ${failedRun}/${outcomes.length}`,
      ...(missed.length === 0 ? [] : [`not caught: ${missed.join(", ")}`]),
      `time: ${formatNumber(totalSeconds, 1)} s for the clean run and ${outcomes.length} fault runs (median run ${formatNumber(median(outcomes.map((o) => o.run.durationMs)) / 1000, 1)} s, ${PARALLEL_RUNS} at a time)`,
      "",
    ].join("\n"),
  );
}
