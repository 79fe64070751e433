// The self-check as figures: the whole conformance command against the clean reference node, and the
// fault self-check's runs as test/self-check/faults.test.ts makes them (every fault in the node profile,
// and in the aptos profile with the shipped baseline, each run holding the suite files of the fault's
// declared requirements (a cross-cutting rule's run with a sample of them first), in a few processes:
// test/self-check/fault-runs.ts), printing the fault by requirement matrix of the node profile (what
// each fault made fail), the kill rate and the fault self-check's wall time beside its goal. Nothing is asserted here: `npm test` does that.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { parseBaseline } from "../src/outcome/baseline-list.ts";
import { FAULTS, type Fault } from "../src/node/index.ts";
import { APTOS_CORE_BASELINE, ROOT, runConformance, type ConformanceRun } from "../test/self-check/conformance-run.ts";
import {
  FAULT_RUN_PROCESSES,
  fullPlan,
  proven,
  runFaultsInProcesses,
  type FaultRun,
  type FaultRunOutcome,
} from "../test/self-check/fault-runs.ts";
import { compileCommand } from "../test/support/test-build.ts";
import { formatNumber, printHeading, printTable } from "./format.ts";
import type { BenchOptions } from "./options.ts";
import { median } from "./stats.ts";

/** The goal: the fault self-check in at most a minute on 2 cores, so that `npm test` stays short. */
const GOAL_SECONDS = 60;

interface FaultOutcome {
  readonly fault: Fault;
  readonly run: FaultRunOutcome;
  readonly failed: ReadonlySet<string>;
  readonly warned: ReadonlySet<string>;
  /** Exit 1 with every declared requirement failed: what the self-check demands. */
  readonly caught: boolean;
}

export async function runSelfCheck(_options: BenchOptions): Promise<void> {
  const baselined = new Set(parseBaseline(readFileSync(join(ROOT, APTOS_CORE_BASELINE), "utf8"), APTOS_CORE_BASELINE));
  // The plan of test/self-check/faults.test.ts.
  const plan: FaultRun[] = [
    ...FAULTS.map((fault) => ({ fault: fault.name, profile: "node" as const, proves: fault.breaks })),
    ...FAULTS.map((fault) => ({
      fault: fault.name,
      profile: "aptos" as const,
      proves: fault.breaks.filter((id) => !baselined.has(id)),
      baseline: APTOS_CORE_BASELINE,
    })).filter((run) => run.proves.length > 0),
  ];
  printHeading(
    `self-check: the command against the clean node; ${plan.length} fault runs (${FAULTS.length} faults, both profiles) in ${FAULT_RUN_PROCESSES} processes and one for the runs that wait on commits`,
  );
  // The command as the tests run it, compiled (test/support/test-build.ts).
  compileCommand();
  const scratch = mkdtempSync(join(tmpdir(), "bench-self-check-"));
  try {
    const clean = await runConformance({ dir: join(scratch, "clean") });
    const started = performance.now();
    const runs = await runFaultsInProcesses(fullPlan(plan));
    const faultSeconds = (performance.now() - started) / 1000;
    const outcomes = runs.map((run): FaultOutcome => {
      const fault = FAULTS.find((f) => f.name === run.run.fault) as Fault;
      const ids = (status: string) => new Set(run.summary.requirements.filter((r) => r.status === status).map((r) => r.id));
      const failed = ids("failed");
      return { fault, run, failed, warned: ids("warned"), caught: proven(run) };
    });
    printCleanRun(clean);
    printFaults(outcomes);
    printMatrix(outcomes.filter((o) => o.run.run.profile === "node"));
    printFigures(outcomes, faultSeconds);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function printCleanRun(clean: ConformanceRun): void {
  const counts = clean.summary?.counts;
  printTable({
    title: "clean node",
    columns: [
      { header: "exit" },
      { header: "passed", align: "right" },
      { header: "failed", align: "right" },
      { header: "warned", align: "right" },
      { header: "n/a", align: "right" },
      { header: "time (s)", align: "right" },
    ],
    rows: [
      [
        String(clean.exitCode),
        String(counts?.passed ?? "-"),
        String(counts?.failed ?? "-"),
        String(counts?.warned ?? "-"),
        String(counts?.notApplicable ?? "-"),
        formatNumber(clean.durationMs / 1000, 1),
      ],
    ],
  });
}

function printFaults(outcomes: readonly FaultOutcome[]): void {
  printTable({
    title: "fault runs",
    columns: [
      { header: "#", align: "right" },
      { header: "fault" },
      { header: "profile" },
      { header: "area" },
      { header: "files", align: "right" },
      { header: "exit" },
      { header: "declared failed", align: "right" },
      { header: "caught" },
      { header: "time (s)", align: "right" },
    ],
    rows: outcomes.map((o, i) => [
      String(i + 1),
      o.fault.name,
      o.run.run.profile,
      o.fault.area,
      String(o.run.files.length),
      String(o.run.exitCode),
      `${o.run.run.proves.filter((id) => o.failed.has(id)).length}/${o.run.run.proves.length}`,
      o.caught ? "yes" : "NO",
      formatNumber(o.run.durationMs / 1000, 1),
    ]),
    notes: [
      "caught: exit 1 and every requirement the run must prove (the aptos profile: those the baseline does not list) among the failed ones",
      "files: the suite files that test the fault's declared requirements (the whole suite, 18, for a rule judged on every response)",
      "time: from the run's first file starting to its last ending; the runs overlap",
    ],
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
    title: "fault by requirement, node profile (columns: the run numbers of the table above)",
    columns: [{ header: "requirement" }, ...outcomes.map((_, i) => ({ header: String(i + 1), align: "right" as const }))],
    rows,
    notes: ["D failed, as declared   x failed, not declared   w warned (a SHOULD)   ! declared but not failed"],
  });
}

function printFigures(outcomes: readonly FaultOutcome[], faultSeconds: number): void {
  const caught = outcomes.filter((o) => o.caught).length;
  const failedRun = outcomes.filter((o) => o.run.exitCode === 1).length;
  const missed = outcomes.filter((o) => !o.caught).map((o) => `${o.fault.name} (${o.run.run.profile})`);
  process.stdout.write(
    [
      "",
      `kill rate: ${caught}/${outcomes.length} fault runs caught (${formatNumber((100 * caught) / outcomes.length, 1)}%); the run failed (exit 1) for ${failedRun}/${outcomes.length}`,
      ...(missed.length === 0 ? [] : [`not caught: ${missed.join(", ")}`]),
      `fault self-check wall: ${formatNumber(faultSeconds, 1)} s for ${outcomes.length} runs (goal ≤ ${GOAL_SECONDS} s on 2 cores: ${faultSeconds <= GOAL_SECONDS ? "met" : "NOT met"}; median run ${formatNumber(median(outcomes.map((o) => o.run.durationMs)) / 1000, 1)} s)`,
      "",
    ].join("\n"),
  );
}
