// Two recorded runs compared offline (`ledger-conformance diff RUN_A RUN_B`, release N-1 against N):
// the requirements whose verdict changed (from each run's summary.json), and the exchanges whose answer
// changed shape: for one request key (method, path and query, Accept, Content-Type, request body), the
// statuses seen, or the JSON members and their types. Values are not compared: versions, timestamps and
// hashes move from run to run.

import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { firstShapeDifference, mergeShapes, type Shape } from "./differential/json-diff.ts";
import { EXCHANGES_FILE, type RecordedExchange } from "./recording.ts";
import { currentIds, type RequirementAliases } from "./requirement-aliases.ts";
import { aggregateStatus, type ResultStatus } from "./results.ts";

/** A query that names a ledger version (§4.2–§4.5 parameters). */
const NAMES_A_VERSION = /[?&](ledger_version|start_version|end_version)=/;

/** A recording larger than this is not read (it would not fit the diff's memory). */
const MAX_RECORDING_BYTES = 512 * 1024 * 1024;

/** A run directory could not be read as a run. */
export class UnreadableRun extends Error {
  override readonly name = "UnreadableRun";
}

export interface RecordedRun {
  readonly dir: string;
  readonly target: string;
  readonly startedAt: string;
  readonly requirements: ReadonlyMap<string, { readonly level: string; readonly status: string }>;
  /** Undefined when the run was not recorded (no exchanges.jsonl). */
  readonly exchanges?: readonly RecordedExchange[];
}

export interface RequirementChange {
  readonly id: string;
  readonly level: string;
  /** "absent" when the run's catalog did not have it. */
  readonly from: string;
  readonly to: string;
  /** passed in A, failed in B: the gate's regression. */
  readonly regression: boolean;
}

export interface ExchangeChange {
  readonly key: string;
  readonly change: "status" | "shape";
  /** Where the shape differs (a JSON path). */
  readonly at?: string;
  readonly a: string;
  readonly b: string;
  readonly requirements: readonly string[];
  readonly curlA: string;
  readonly curlB: string;
}

export interface RunDiff {
  readonly runA: { readonly dir: string; readonly target: string; readonly startedAt: string };
  readonly runB: { readonly dir: string; readonly target: string; readonly startedAt: string };
  readonly requirements: readonly RequirementChange[];
  readonly regressions: number;
  /** Undefined when a run was not recorded (its reason instead). */
  readonly exchanges:
    | { readonly matched: number; readonly onlyInA: number; readonly onlyInB: number; readonly changed: readonly ExchangeChange[] }
    | { readonly notCompared: string };
}

/**
 * Reads a run directory. Requirement ids are read as the ids that hold them now (the alias table), so
 * that a requirement renamed or merged between two releases of the suite is compared with itself; ids
 * merged into one take the status the aggregation rules give them together, and each part of a split id
 * takes the status the whole had (the old run cannot tell which part failed).
 */
export function readRecordedRun(dir: string, aliases: RequirementAliases = new Map()): RecordedRun {
  const summaryFile = join(dir, "summary.json");
  let summary: { target?: unknown; startedAt?: unknown; requirements?: unknown };
  try {
    summary = JSON.parse(readFileSync(summaryFile, "utf8")) as typeof summary;
  } catch (e) {
    throw new UnreadableRun(`${summaryFile}: ${(e as Error).message}`);
  }
  if (!Array.isArray(summary.requirements)) throw new UnreadableRun(`${summaryFile}: no requirements[] (not a ledger-conformance summary)`);
  const byId = new Map<string, { level: string; statuses: string[] }>();
  for (const r of summary.requirements as unknown[]) {
    const { id, level, status } = (r ?? {}) as { id?: unknown; level?: unknown; status?: unknown };
    if (typeof id !== "string" || typeof status !== "string") throw new UnreadableRun(`${summaryFile}: a requirement without id or status`);
    for (const now of currentIds(id, aliases)) {
      const entry = byId.get(now) ?? { level: typeof level === "string" ? level : "?", statuses: [] };
      entry.statuses.push(status);
      byId.set(now, entry);
    }
  }
  const requirements = new Map<string, { level: string; status: string }>();
  for (const [id, { level, statuses }] of byId) {
    const status =
      statuses.length === 1 ? (statuses[0] as string) : aggregateStatus(statuses.map((s) => ({ status: s as ResultStatus }))).status;
    requirements.set(id, { level, status });
  }
  const base = { dir, target: String(summary.target ?? "?"), startedAt: String(summary.startedAt ?? "?"), requirements };
  const exchangesFile = join(dir, EXCHANGES_FILE);
  if (!existsSync(exchangesFile)) return base;
  if (statSync(exchangesFile).size > MAX_RECORDING_BYTES)
    throw new UnreadableRun(`${exchangesFile}: larger than ${MAX_RECORDING_BYTES} bytes`);
  const exchanges: RecordedExchange[] = [];
  const lines = readFileSync(exchangesFile, "utf8").split("\n");
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    try {
      const x = JSON.parse(line) as RecordedExchange;
      if (typeof x.request?.method !== "string" || typeof x.request.path !== "string") throw new Error("no request method and path");
      exchanges.push(x);
    } catch (e) {
      throw new UnreadableRun(`${exchangesFile} line ${i + 1}: ${(e as Error).message}`);
    }
  }
  return { ...base, exchanges };
}

/** What identifies a request across runs: method, path with query, Accept, Content-Type, request body. */
export function requestKey(x: RecordedExchange): string {
  const h = x.request.headers;
  const body = x.request.body === undefined ? "" : ` body=${x.request.body.sha256.slice(0, 16)}`;
  return `${x.request.method} ${x.request.path} accept=${h.accept ?? "-"} content-type=${h["content-type"] ?? "-"}${body}`;
}

interface KeyedAnswers {
  statuses: Set<number>;
  shape: Shape | undefined;
  requirements: Set<string>;
  curl: string;
}

function byKey(exchanges: readonly RecordedExchange[]): Map<string, KeyedAnswers> {
  const map = new Map<string, KeyedAnswers>();
  for (const x of exchanges) {
    if (x.response === null) continue; // no answer: nothing about the node's answers
    const key = requestKey(x);
    const entry = map.get(key) ?? { statuses: new Set<number>(), shape: undefined, requirements: new Set<string>(), curl: x.curl };
    entry.statuses.add(x.response.status);
    entry.requirements.add(x.requirement);
    if (x.response.shape !== undefined)
      entry.shape = entry.shape === undefined ? x.response.shape : mergeShapes(entry.shape, x.response.shape);
    map.set(key, entry);
  }
  return map;
}

export function diffRuns(a: RecordedRun, b: RecordedRun): RunDiff {
  const requirements: RequirementChange[] = [];
  for (const id of [...new Set([...a.requirements.keys(), ...b.requirements.keys()])].sort()) {
    const from = a.requirements.get(id);
    const to = b.requirements.get(id);
    if (from?.status === to?.status) continue;
    requirements.push({
      id,
      level: to?.level ?? from?.level ?? "?",
      from: from?.status ?? "absent",
      to: to?.status ?? "absent",
      regression: from?.status === "passed" && to?.status === "failed",
    });
  }
  const info = (r: RecordedRun) => ({ dir: r.dir, target: r.target, startedAt: r.startedAt });
  const head = { runA: info(a), runB: info(b), requirements, regressions: requirements.filter((r) => r.regression).length };
  if (a.exchanges === undefined || b.exchanges === undefined) {
    const missing = [a, b].filter((r) => r.exchanges === undefined).map((r) => r.dir);
    return { ...head, exchanges: { notCompared: `not recorded (run with --record): ${missing.join(", ")}` } };
  }
  const ka = byKey(a.exchanges);
  const kb = byKey(b.exchanges);
  const changed: ExchangeChange[] = [];
  let matched = 0;
  for (const [key, x] of ka) {
    const y = kb.get(key);
    if (y === undefined) continue;
    matched += 1;
    const requirementIds = [...new Set([...x.requirements, ...y.requirements])].sort();
    const sa = [...x.statuses].sort().join(", ");
    const sb = [...y.statuses].sort().join(", ");
    const common = { key, requirements: requirementIds, curlA: x.curl, curlB: y.curl };
    // A version number names another point of another ledger in each run (a future version in one is a
    // retained one in the other): such a request's status may change without the node changing.
    if (sa !== sb && !NAMES_A_VERSION.test(key)) {
      changed.push({ ...common, change: "status", a: sa, b: sb });
      continue;
    }
    if (sa !== sb) continue;
    if (x.shape === undefined && y.shape === undefined) continue;
    if (x.shape === undefined || y.shape === undefined) {
      changed.push({
        ...common,
        change: "shape",
        a: x.shape === undefined ? "not JSON" : "JSON",
        b: y.shape === undefined ? "not JSON" : "JSON",
      });
      continue;
    }
    const d = firstShapeDifference(x.shape, y.shape);
    if (d !== undefined) changed.push({ ...common, change: "shape", at: d.path, a: d.a, b: d.b });
  }
  const onlyInB = [...kb.keys()].filter((k) => !ka.has(k)).length;
  return { ...head, exchanges: { matched, onlyInA: ka.size - matched, onlyInB, changed } };
}
