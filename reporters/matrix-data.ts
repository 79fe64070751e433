// The requirement-by-node matrix of a fleet: from each node's own summary.json (written by
// its run, here or on another machine) to one row per requirement with a cell per node, the fleet's
// summary.json (the one-node members over the whole fleet, the spec coverage of this version's map, and `targets[]`: each node's summary with its
// name), with the verdicts and each row's status the engine judged (src/outcome/fleet-verdict.ts,
// fleet-status.ts). A fleet run and `merge` both
// build it from summaries alone, so merging runs made elsewhere gives what one fleet run gives.

import type { ResultStatus } from "../src/harness/results.ts";
import type { Interruption } from "../src/outcome/run-outcome.ts";
import { FAILURES_KEPT } from "../src/outcome/aggregate.ts";
import { fleetStatus } from "../src/outcome/fleet-status.ts";
import { countStatuses } from "./status-counts.ts";
import type { Summary, SummaryRequirement } from "./summary.ts";
import { packageCoverage } from "./spec-coverage.ts";
import type { VerdictCounts, VerdictKind } from "../src/outcome/verdict.ts";

/** One node of the fleet: its name (its column), its summary, and its own full report page if any. */
export interface MatrixNode {
  readonly name: string;
  readonly summary: Summary;
  /** The exit status of its run: the child's own in a fleet run, summaryExitCode in a merge. */
  readonly exitCode: number;
  /** Its verdict (src/outcome/fleet-verdict.ts nodeVerdict). */
  readonly verdict: VerdictKind;
  /** Its own HTML report, relative to the matrix page (html/index.html). */
  readonly reportHref?: string;
}

/** A cell: the node's status for the requirement, or absent when its run's catalog has no such id. */
export type MatrixCell = { readonly status: ResultStatus; readonly expectedFailure: boolean } | { readonly status: "absent" };

export interface MatrixRow {
  readonly id: string;
  readonly level: SummaryRequirement["level"];
  readonly section: string;
  readonly endpoint: string;
  /** One per node, in the nodes' order. */
  readonly cells: readonly MatrixCell[];
}

export interface Matrix {
  readonly nodes: readonly string[];
  /** In the order the nodes' runs list them (the catalog's), ids only some nodes have at the end. */
  readonly rows: readonly MatrixRow[];
}

/** A per-node entry of `targets[]`: the node's own summary, the same shape, with its name. */
export type NodeSummary = Summary & { readonly name: string };

export type FleetSummary = Summary & { readonly targets: readonly NodeSummary[] };

export function buildMatrix(nodes: readonly MatrixNode[]): Matrix {
  const rows = new Map<string, { req: SummaryRequirement; cells: MatrixCell[] }>();
  nodes.forEach((node, i) => {
    for (const req of node.summary.requirements) {
      const row = rows.get(req.id) ?? { req, cells: nodes.map((): MatrixCell => ({ status: "absent" })) };
      row.cells[i] = { status: req.status, expectedFailure: req.expectedFailure === true };
      rows.set(req.id, row);
    }
  });
  return {
    nodes: nodes.map((n) => n.name),
    rows: [...rows.values()].map(({ req, cells }) => ({
      id: req.id,
      level: req.level,
      section: req.section,
      endpoint: req.endpoint,
      cells,
    })),
  };
}

/** A verdict kind in the words of the reports ("not conforming"). */
export function verdictWords(kind: VerdictKind): string {
  return kind === "conforming-with-baseline" ? "conforming with expected failures" : kind.replace(/-/g, " ");
}

/** The fleet's summary.json: the one-node members over the fleet, then every node's own summary. */
export function buildFleetSummary(
  nodes: readonly MatrixNode[],
  run: { readonly startedAt: Date; readonly durationMs: number; readonly verdict: VerdictKind },
): FleetSummary {
  const matrix = buildMatrix(nodes);
  const requirements = matrix.rows.map((row): SummaryRequirement => {
    const status = fleetStatus(row.cells);
    const own = nodes.map((n) => n.summary.requirements.find((r) => r.id === row.id));
    const failures = own
      .flatMap((r, i) => (r?.failures ?? []).map((f) => ({ message: `[${nodes[i]?.name}] ${f.message}`, curl: f.curl })))
      .slice(0, FAILURES_KEPT);
    const reasons = own.flatMap((r, i) => (r?.reason === undefined || r.status !== status ? [] : [`${nodes[i]?.name}: ${r.reason}`]));
    const failing = own.filter((r) => r?.status === "failed" || r?.status === "warned");
    return {
      id: row.id,
      level: row.level,
      section: row.section,
      endpoint: row.endpoint,
      status,
      checks: own.reduce((sum, r) => sum + (r?.checks ?? 0), 0),
      failures,
      ...((status === "skipped" || status === "not_applicable") && reasons.length > 0 ? { reason: reasons.join("; ") } : {}),
      ...(failing.length > 0 && failing.every((r) => r?.expectedFailure === true) ? { expectedFailure: true as const } : {}),
    };
  });
  const errors = nodes.flatMap((n) => (n.summary.errors ?? []).map((e) => ({ ...e, message: `[${n.name}] ${e.message}` })));
  const interruption = fleetInterruption(nodes);
  const { verdict } = run;
  return {
    target: nodes.map((n) => `${n.name} ${n.summary.target}`).join(", "),
    startedAt: run.startedAt.toISOString(),
    durationMs: Math.round(run.durationMs),
    conforming: verdict === "conforming" || verdict === "conforming-with-baseline",
    verdict,
    verdictText: `${verdictWords(verdict).toUpperCase()}: the worst node's verdict; ${nodes.map((n) => `${n.name}: ${verdictWords(n.verdict)}`).join(", ")}`,
    verdictCounts: sumCounts(nodes.map((n) => (n.summary as Partial<Summary>).verdictCounts)),
    counts: countStatuses(requirements),
    requirements,
    requests: nodes.reduce((sum, n) => sum + n.summary.requests, 0),
    retries: nodes.reduce((sum, n) => sum + n.summary.retries, 0),
    // The map of the version building the matrix; each node's summary keeps its own run's.
    coverage: packageCoverage(),
    ...(errors.length === 0 ? {} : { errors }),
    ...(interruption === undefined ? {} : { interruption }),
    targets: nodes.map((n) => ({ name: n.name, ...withoutName(n.summary) })),
  };
}

/** Each count over the fleet: the sum of the nodes' (a summary without verdictCounts adds nothing). */
function sumCounts(list: readonly (VerdictCounts | undefined)[]): VerdictCounts {
  const sum = (key: keyof VerdictCounts) => list.reduce((total, c) => total + (c?.[key] ?? 0), 0);
  return {
    requirements: sum("requirements"),
    run: sum("run"),
    mustFailed: sum("mustFailed"),
    expectedFailures: sum("expectedFailures"),
    unexpectedPasses: sum("unexpectedPasses"),
    warned: sum("warned"),
    errors: sum("errors"),
  };
}

/** not_started when some node could not be tested at all (its exit 2 is the fleet's), else stopped when some run was cut short. */
function fleetInterruption(nodes: readonly MatrixNode[]): Interruption | undefined {
  const interrupted = nodes.filter((n) => n.summary.interruption !== undefined);
  if (interrupted.length === 0) return undefined;
  const kind = interrupted.some((n) => n.summary.interruption?.kind === "not_started") ? "not_started" : "stopped";
  return { kind, reason: interrupted.map((n) => `${n.name}: ${n.summary.interruption?.reason}`).join("; ") };
}

/** A node summary read from a fleet's targets[] carries its old name: the node's name here replaces it. */
function withoutName(summary: Summary): Summary {
  const { name: _name, ...rest } = summary as Summary & { name?: string };
  return rest;
}
