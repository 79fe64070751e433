// The run engine: every run goes through it, whether of one node (the embedded reference node, or a
// target) or of a fleet. From a plan (run-plan.ts): each node's directories and reports' place, its
// target resolved and probed, the checks of every node that answered in one vitest instance on shared
// workers (execute.ts), then each node's outcome settled and reported (node-reports.ts), and a fleet's
// matrix. A one-node run is a fleet of one whose reports are the report directory's own, whose lines
// go to the terminal, and whose workers start before its target answers when its answers do not
// choose them. A node that cannot be tested is reported with every requirement skipped and why (exit 2).

import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { Reporter } from "vitest/node";
import { ReportLayout } from "../../reporters/report-layout.ts";
import { TargetHandoff } from "../harness/target-handoff.ts";
import { writeFleetReports } from "../fleet/fleet-reports.ts";
import type { Comparison } from "./compare-phase.ts";
import type { EmbeddedNode } from "./embedded-node.ts";
import { startExecution, type Execution, type NodeEnd } from "./execute.ts";
import { type NodeReported, reportNode, reportUntestable } from "./node-reports.ts";
import type { PhaseClock } from "./phases.ts";
import { runConfigOf, runConfigWithoutTarget, targetFactsOf } from "./run-config.ts";
import type { RunPlan } from "./run-plan.ts";
import { aloneNode, dirsOf, fleetNodes, probeNode, type ReadyNode, type RunNode, type UntestableNode } from "./run-nodes.ts";
import { describeSelection } from "./selection.ts";
import { signalExitCode } from "./settle.ts";
import { fleetWorkers, runWorkers, workersBeforeAnswers, type RunSizing } from "./workers.ts";

/** What the command gives the engine besides the plan. */
export interface EngineIo {
  /** The run's lines (stdout, or stderr under --format markdown); nothing when quiet. */
  readonly say: (line: string) => void;
  /** The terminal's progress line, of a one-node run: a reporter of the run, and where its lines are printed. */
  readonly progress: Reporter & { print(text: string): void };
  /** Aborted by SIGINT or SIGTERM: the run stops like at its maximum duration, and its reports are written. */
  readonly interrupt: AbortSignal;
  /** The reference node the command's entry started for a run without a target (else the engine starts it). */
  readonly started?: Promise<EmbeddedNode>;
  readonly startedAt: Date;
  /** When the command started (performance.now()). */
  readonly t0: number;
  readonly phases: PhaseClock;
}

/** A node's result: its name in a fleet, where its reports are, its outcome and exit status. */
export interface NodeResult extends NodeReported {
  readonly name?: string;
  readonly reportDir: string;
}

/** A run's result: its exit status (a fleet's, the worst node's), and each node's. */
export interface RunResult {
  readonly exitCode: number;
  readonly nodes: readonly NodeResult[];
}

/** Runs the plan. Throws a ConfigurationError for what makes it a configuration error (exit 2). */
export async function runPlan(plan: RunPlan, io: EngineIo): Promise<RunResult> {
  const layout = new ReportLayout(plan.reports.dir);
  const alone = "one" in plan.targets;
  const scratch = mkdtempSync(join(tmpdir(), alone ? "ledger-conformance-" : "ledger-conformance-fleet-"));
  let embedded: EmbeddedNode | undefined;
  let execution: Execution | undefined;
  try {
    const nodes =
      "one" in plan.targets
        ? [aloneNode(plan, plan.targets.one, layout, scratch, io)]
        : fleetNodes(plan, plan.targets.fleet, layout, scratch, io);
    const early = alone ? startEarly(plan, nodes[0] as RunNode, io) : undefined;
    const handoff = early?.handoff;
    execution = early?.execution;
    /** The target did not come up: the early run's workers stop waiting, and the run ends at once. */
    const abandonEarly = async (reason: string) => {
      handoff?.cancel(reason);
      await execution?.cancel(reason);
    };

    let probed: (ReadyNode | UntestableNode)[];
    let comparison: Comparison | undefined;
    try {
      probed = await Promise.all(
        nodes.map((node) =>
          probeNode(node, {
            ...(alone && io.started !== undefined ? { started: io.started } : {}),
            // A loopback target's answers are timed when they choose the run's workers.
            timeAnswers: early === undefined,
            onResolved: (resolved) => {
              embedded = resolved.node;
              if (alone) io.phases.end("target");
            },
          }),
        ),
      );
      if (alone) io.phases.end("probe");
      // The compared node (--compare-to) is probed once, before any check.
      if (plan.options.compareTo !== undefined && probed.some((n) => "resolved" in n))
        comparison = await (await import("./compare-phase.ts")).prepareComparison(
          plan.options.compareTo,
          plan.options.compareFixtures,
          plan.options.timeoutMs,
        );
    } catch (e) {
      await abandonEarly(e instanceof Error ? e.message : String(e));
      throw e;
    }
    const ready = probed.filter((n): n is ReadyNode => "resolved" in n);
    if (ready.length === 0) await abandonEarly((probed[0] as UntestableNode | undefined)?.reason ?? "no node to test");
    else {
      if (alone) {
        layout.create();
        for (const line of describeSelection(plan.inputs.selection)) io.say(line);
      }
      if (handoff !== undefined) {
        // The early run's workers get the target's facts: its URL, its fixtures, its clock tolerance.
        const [only] = ready;
        if (only !== undefined) handoff.handOver(targetFactsOf(only.options, only.resolved));
      } else {
        const configs = ready.map((node) => ({
          node,
          config: runConfigOf(node.options, node.resolved, dirsOf(node), node.inputs.selection),
        }));
        execution = startExecution(plan, configs, sizingOf(plan, ready), io);
      }
    }
    const ends: ReadonlyMap<string, NodeEnd> = execution === undefined || ready.length === 0 ? new Map() : await execution.ended();
    const reportContext = { plan, io, comparison };
    // The nodes' reports, a few at once: each may make an Allure page.
    const reported = await inTurns(probed, availableParallelism(), (node) => {
      if (!("resolved" in node)) return reportUntestable(node, reportContext);
      const end = ends.get(node.stateDir);
      if (end === undefined) throw new Error(`no end of the checks of ${node.options.target ?? "the embedded node"}`);
      return reportNode(node, end, reportContext);
    });
    await execution?.closing();
    const results: NodeResult[] = probed.map((node, i) => ({
      ...(reported[i] as NodeReported),
      ...(node.name === undefined ? {} : { name: node.name }),
      reportDir: node.layout.dir,
    }));
    if (alone) return { exitCode: (results[0] as NodeResult).exitCode, nodes: results };
    const fleetCode = writeFleetReports({
      layout,
      nodes: results.map((node) => ({ name: node.name as string, dir: node.reportDir, exitCode: node.exitCode })),
      startedAt: io.startedAt,
      durationMs: performance.now() - io.t0,
      ...(plan.reports.format === undefined ? {} : { format: plan.reports.format }),
      ...(plan.reports.console === false ? { console: false } : {}),
      say: io.say,
    });
    return { exitCode: io.interrupt.aborted ? signalExitCode(String(io.interrupt.reason)) : fleetCode, nodes: results };
  } finally {
    execution?.dispose();
    // The node, also when the run ended before it was awaited.
    await (embedded ?? (alone ? await io.started?.catch(() => undefined) : undefined))?.close().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A one-node run's workers, started before its target answers when its answers do not choose them
 * (src/run/workers.ts): while the embedded node makes its genesis, or while a remote one is probed
 * across the network. They load and collect the suites meanwhile (collection reads nothing of the
 * target), and get its URL and fixtures once it answers the probe (target-handoff.ts). Undefined when
 * the probe's timing chooses the workers.
 */
function startEarly(plan: RunPlan, node: RunNode, io: EngineIo): { execution: Execution; handoff: TargetHandoff } | undefined {
  const sizing = workersBeforeAnswers(plan.options, node.options);
  if (sizing === undefined) return undefined;
  const handoff = new TargetHandoff(node.stateDir);
  const config = { ...runConfigWithoutTarget(node.options, dirsOf(node), node.inputs.selection), awaitsTarget: true as const };
  const execution = startExecution(plan, [{ node, config }], sizing, io);
  // A signal while the target comes up: the workers stop waiting for it (the run is being stopped).
  io.interrupt.addEventListener("abort", () => handoff.cancel(String(io.interrupt.reason)), { once: true });
  return { execution, handoff };
}

/**
 * The workers and requests in flight once the nodes answered: a one-node run's chosen by whether it will
 * wait on the network (its probe's timing), a fleet's by all its nodes' (src/run/workers.ts).
 */
function sizingOf(plan: RunPlan, ready: readonly ReadyNode[]): RunSizing {
  if ("one" in plan.targets) return runWorkers(plan.options, ready[0]?.latencyBound === true);
  const bounds = ready.map((n) => (n.latencyBound ? ("latency" as const) : ("cpu" as const)));
  return { workers: fleetWorkers(plan.options, bounds), concurrency: plan.options.concurrency };
}

/** `work` for every item, at most `together` at once; the results in the items' order. */
async function inTurns<T, R>(items: readonly T[], together: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const turn = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(together, items.length) }, turn));
  return results;
}
