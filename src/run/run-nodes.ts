// A run's nodes before their checks: where each one's reports, lines and state go (a one-node run's
// are the report directory's and the terminal's; a fleet node's are under targets/NAME/ and in its
// console.txt), and each one's target resolved and probed: ready, or untestable and why.

import { appendFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { ReportLayout } from "../../reporters/report-layout.ts";
import { isLoopbackUrl } from "../harness/config.ts";
import type { EmbeddedNode } from "./embedded-node.ts";
import type { EngineIo } from "./engine.ts";
import { resolveTarget, type ResolvedTarget } from "./run-config.ts";
import type { RunInputs } from "./run-inputs.ts";
import type { FleetNodePlan, NodeOptions, NodePlan, RunPlan } from "./run-plan.ts";
import { probeTarget } from "./target-probe.ts";

/** A node of the run: its options, where its reports and lines go, and its private directory. */
export interface RunNode {
  /** Its name in a fleet; undefined for a one-node run's node. */
  readonly name?: string;
  readonly options: NodeOptions;
  /** Its catalog, selection, suite files and baseline: the run's, or the node's own. */
  readonly inputs: RunInputs;
  readonly layout: ReportLayout;
  /** Its run's state, Allure results and recorded exchanges. */
  readonly scratch: string;
  readonly stateDir: string;
  /** Its lines: the terminal's for a one-node run, its console.txt for a fleet's node. */
  readonly say: (line: string) => void;
}

/** A node whose target answered its probe. */
export interface ReadyNode extends RunNode {
  readonly resolved: ResolvedTarget;
  readonly latencyBound: boolean;
  readonly requests: number;
  readonly retries: number;
}

/** A node that cannot be tested, and why. */
export interface UntestableNode extends RunNode {
  /** Its URL as resolved, else as given ("" for a reference node that did not start). */
  readonly target: string;
  readonly reason: string;
  readonly requests: number;
  readonly retries: number;
}

/** The state and bodies directories the workers write to. */
export function dirsOf(node: RunNode): { readonly stateDir: string; readonly bodiesDir: string } {
  return { stateDir: node.stateDir, bodiesDir: node.layout.bodiesDir };
}

/** A one-node run's node: its reports are the report directory's, its lines the terminal's. */
export function aloneNode(plan: RunPlan, node: NodePlan, layout: ReportLayout, scratch: string, io: EngineIo): RunNode {
  const stateDir = join(scratch, "state");
  mkdirSync(stateDir);
  return {
    options: { ...plan.options, ...node, ...(plan.reports.format === undefined ? {} : { format: plan.reports.format }) },
    inputs: plan.inputs,
    layout,
    scratch,
    stateDir,
    say: io.say,
  };
}

/** A fleet's nodes: each one's reports under targets/NAME/, its lines in its console.txt. */
export function fleetNodes(plan: RunPlan, nodes: readonly FleetNodePlan[], layout: ReportLayout, scratch: string, io: EngineIo): RunNode[] {
  layout.create();
  io.say(
    `fleet of ${nodes.length}: ${nodes.map((t) => `${t.name} ${t.target}`).join(", ")}; each node's own reports go to ${join(layout.display, "targets", "NAME")}/`,
  );
  return nodes.map((node, i) => {
    const nodeLayout = new ReportLayout(join(layout.dir, "targets", node.name));
    rmSync(nodeLayout.dir, { recursive: true, force: true });
    nodeLayout.create();
    const nodeScratch = join(scratch, `node-${i + 1}`);
    const stateDir = join(nodeScratch, "state");
    mkdirSync(stateDir, { recursive: true });
    const consoleFile = join(nodeLayout.dir, "console.txt");
    appendFileSync(consoleFile, "");
    const { own, ...where } = node;
    return {
      name: node.name,
      options: { ...(own?.options ?? plan.options), ...where },
      inputs: own?.inputs ?? plan.inputs,
      layout: nodeLayout,
      scratch: nodeScratch,
      stateDir,
      say: (text: string) => appendFileSync(consoleFile, escapeControls(text.endsWith("\n") ? text : `${text}\n`)),
    };
  });
}

/** Its fixtures read and its target resolved (the embedded node started) and probed. */
export async function probeNode(
  node: RunNode,
  how: { readonly started?: Promise<EmbeddedNode>; readonly timeAnswers: boolean; readonly onResolved: (resolved: ResolvedTarget) => void },
): Promise<ReadyNode | UntestableNode> {
  let resolved: ResolvedTarget;
  try {
    resolved = await resolveTarget(node.options, node.say, how.started);
  } catch (e) {
    // A one-node run's target that cannot be reached at all is a configuration error; a fleet's node is reported untestable.
    if (node.name === undefined) throw e;
    return { ...node, target: node.options.target ?? "", reason: (e as Error).message, requests: 0, retries: 0 };
  }
  how.onResolved(resolved);
  const probe = await probeTarget(resolved.target, node.options.timeoutMs, {
    secretHeaders: node.options.secretHeaders,
    timeAnswers: how.timeAnswers && (node.name === undefined || isLoopbackUrl(resolved.target)),
  });
  if (!probe.ok) return { ...node, target: resolved.target, reason: probe.reason, requests: probe.requests, retries: probe.retries };
  node.say(`target ${resolved.target}${resolved.node ? " (embedded reference node)" : ""}, profile ${node.options.profile}: ${probe.note}`);
  return { ...node, resolved, latencyBound: probe.latencyBound, requests: probe.requests, retries: probe.retries };
}
