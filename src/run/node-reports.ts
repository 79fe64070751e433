// A node's outcome and reports, for a one-node run and for each node of a fleet alike: its checks'
// outcome settled (settle.ts: the level, the baseline, the recordings, the comparison, the exit status),
// its declines, the verdict, then its reports. A one-node run's console report goes to the terminal; a
// fleet node's to its console.txt. A node that cannot be tested is reported with every requirement
// skipped and why, never passed, and exit 2.

import { escapeControls } from "../../reporters/escape-controls.ts";
import { renderConsoleReport } from "../../reporters/console-report.ts";
import { writeReports, type ReportInput } from "../../reporters/run-reports.ts";
import { pacingOf } from "../harness/shared-rate-limit.ts";
import type { RunOutcome } from "../outcome/run-outcome.ts";
import { verdictOf } from "../outcome/verdict.ts";
import type { Comparison } from "./compare-phase.ts";
import type { EngineIo } from "./engine.ts";
import { dirsOf, type ReadyNode, type RunNode, type UntestableNode } from "./run-nodes.ts";
import type { NodeEnd } from "./execute.ts";
import { runConfigOf } from "./run-config.ts";
import type { RunPlan } from "./run-plan.ts";
import { settleRun, untestableRun } from "./settle.ts";

export interface ReportContext {
  readonly plan: RunPlan;
  readonly io: EngineIo;
  /** The compared node (--compare-to), when the run has one. */
  readonly comparison: Comparison | undefined;
}

/** A node's outcome as reported, and its exit status. */
export interface NodeReported {
  readonly outcome: RunOutcome;
  readonly exitCode: number;
}

/** The reports of a node whose checks ran. */
export async function reportNode(node: ReadyNode, end: NodeEnd, context: ReportContext): Promise<NodeReported> {
  const { plan, io } = context;
  const alone = node.name === undefined;
  const interruptReason = io.interrupt.aborted ? String(io.interrupt.reason) : undefined;
  end.reporter.countRequestsBefore(node.requests, node.retries);
  const config = runConfigOf(node.options, node.resolved, dirsOf(node), node.inputs.selection);
  const settled = await settleRun({
    reporter: end.reporter,
    run: end.run,
    selection: node.inputs.selection,
    ...(node.inputs.baseline === undefined ? {} : { baseline: node.inputs.baseline }),
    ...(end.recordDir === undefined ? {} : { recordDir: end.recordDir }),
    layout: node.layout,
    ...(context.comparison === undefined ? {} : { comparison: { with: context.comparison, config } }),
    failOnDiff: node.options.failOnDiff === true,
    ...(interruptReason === undefined ? {} : { interruptReason }),
    say: node.say,
  });
  const { code, differential } = settled;
  const declines = end.declineTally.declines(pacingOf(end.pace));
  const outcome = declines === undefined ? settled.outcome : { ...settled.outcome, declines };
  // After a signal there is no time for the Allure page.
  const allure: ReportInput["allure"] =
    end.allure === undefined
      ? { skipped: "LEDGER_CONFORMANCE_ALLURE=off" }
      : interruptReason !== undefined
        ? { skipped: interruptReason }
        : end.allure;
  const durationMs = (end.endedAt ?? performance.now()) - io.t0;
  const verdict = verdictOf(outcome);
  await writeReports({
    layout: node.layout,
    outcome,
    verdict,
    junitCases: end.reporter.junitCases(),
    junitPerCheck: plan.reports.junitPerCheck,
    ...placementOf(node, context),
    target: config.target,
    startedAt: io.startedAt,
    durationMs,
    exitCode: code,
    allure,
    say: node.say,
    ...(differential === undefined ? {} : { differential }),
  });
  if (!alone)
    node.say(renderConsoleReport(outcome, { target: config.target, durationMs, reportDir: node.layout.display, exitCode: code, verdict }));
  return { outcome, exitCode: code };
}

/** The reports of a node that cannot be tested: every requirement skipped with the reason, never passed; exit 2. */
export async function reportUntestable(node: UntestableNode, context: ReportContext): Promise<NodeReported> {
  const { plan, io } = context;
  const alone = node.name === undefined;
  // A one-node run: exit 2 as for a usage error, with the reason on stderr and the reports saying why.
  if (alone) process.stderr.write(escapeControls(`ledger-conformance: ${node.reason}\n`));
  else node.say(`ledger-conformance: ${node.reason}`);
  const { outcome, junitCases } = untestableRun(node.inputs.catalog, node.reason, node);
  await writeReports({
    layout: node.layout,
    outcome,
    verdict: verdictOf(outcome),
    junitCases,
    ...(alone ? { junitPerCheck: plan.reports.junitPerCheck } : {}),
    ...placementOf(node, context),
    target: node.target,
    startedAt: io.startedAt,
    durationMs: alone ? performance.now() - io.t0 : 0,
    exitCode: 2,
    allure: { skipped: "nothing ran" },
    say: node.say,
  });
  return { outcome, exitCode: 2 };
}

/**
 * What a node's reports get from where it stands: a one-node run's are the command's answer (the report
 * format, --write-baseline, the phases, and the console report unless the plan asks for none); a fleet
 * node's console report goes to its console.txt instead, written by reportNode.
 */
function placementOf(node: RunNode, { plan, io }: ReportContext): Pick<ReportInput, "format" | "writeBaseline" | "phases" | "console"> {
  if (node.name !== undefined) return { console: false };
  return {
    ...(plan.reports.format === undefined ? {} : { format: plan.reports.format }),
    ...(plan.reports.writeBaseline === undefined ? {} : { writeBaseline: plan.reports.writeBaseline }),
    phases: io.phases,
    ...(plan.reports.console === false ? { console: false } : {}),
  };
}
