// The recorded fault matrix (fault-matrix.json, committed, written by `npm run test:full`): for every
// fault and profile, the requirements its full run failed, and the checks that failed them (a few per
// requirement, none for a failure the baseline expects) with the suite files that hold them. `npm test`
// re-runs just those checks (`--only "ID:"`, ID the check's own requirement) against the faulty node, so that every fault is still proven caught live, never on
// the recording's word; a run whose recorded checks no longer catch its fault, or that has no row (a new
// fault), falls back to its full attempts (fault-runs.ts fullAttempts).

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApiContract } from "../../src/harness/openapi.ts";
import { loadRequirements } from "../../src/harness/requirements.ts";
import { ROOT } from "../support/conformance-command.ts";
import { fullAttempts, proven, runName, type Attempt, type FaultRun, type FaultRunOutcome, type PlannedRun } from "./fault-runs.ts";

export const FAULT_MATRIX = "test/self-check/fault-matrix.json";

/**
 * Checks recorded per failed requirement, the first in (file, name) order: more than one, so that one
 * check the node's timing lets pass does not send the run back to its full attempts.
 */
const CHECKS_PER_REQUIREMENT = 3;

export interface MatrixRow {
  readonly fault: string;
  readonly profile: "node" | "aptos";
  /** Every requirement the full run failed, sorted. */
  readonly failed: readonly string[];
  /** The suite files that hold `checks`, sorted. */
  readonly files: readonly string[];
  /**
   * The checks recorded as failing them, by their own requirement's id (a check is named `${id}: ${text}`,
   * and `--only "${id}:"` runs it, in every variant), sorted.
   */
  readonly checks: readonly string[];
}

/** Code-unit order, the same on every machine (localeCompare is not). */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sortedUnique = (texts: readonly string[]) => [...new Set(texts)].sort(byText);

export function readFaultMatrix(): MatrixRow[] {
  const path = join(ROOT, FAULT_MATRIX);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as MatrixRow[]) : [];
}

/** The row a run's outcome records. */
export function rowOf(outcome: FaultRunOutcome): MatrixRow {
  const failedRequirements = outcome.summary.requirements.filter((r) => r.status === "failed");
  // A failure the baseline expects (aptos-core's own deviation) shows nothing of the fault: no check for it.
  const unexpected = failedRequirements.filter((r) => r.expectedFailure !== true).map((r) => r.id);
  const caught = outcome.catching.map((check) => ({ ...check, checkId: check.name.slice(0, check.name.indexOf(":")) }));
  const inOrder = caught.sort((a, b) => byText(a.file, b.file) || byText(a.checkId, b.checkId));
  const chosen = unexpected.flatMap((id) => {
    const checks = inOrder.filter((check) => check.requirement === id);
    const distinct = checks.filter((check, i) => checks.findIndex((c) => c.file === check.file && c.checkId === check.checkId) === i);
    return distinct.slice(0, CHECKS_PER_REQUIREMENT);
  });
  return {
    fault: outcome.run.fault,
    profile: outcome.run.profile,
    failed: sortedUnique(failedRequirements.map((r) => r.id)),
    files: sortedUnique(chosen.map((check) => check.file)),
    checks: sortedUnique(chosen.map((check) => check.checkId)),
  };
}

/**
 * Writes the matrix with the rows of `outcomes`' runs replaced: a proven run's row recorded, an unproven
 * one's dropped; rows of faults not among `faults` dropped. Sorted by fault, then profile, so that a
 * refresh that changes nothing changes no byte.
 */
export function refreshFaultMatrix(outcomes: readonly FaultRunOutcome[], faults: readonly string[]): void {
  const ran = new Set(outcomes.map((outcome) => runName(outcome.run)));
  const rows = [
    ...readFaultMatrix().filter((row) => faults.includes(row.fault) && !ran.has(runName(row))),
    ...outcomes.filter(proven).map(rowOf),
  ].sort((a, b) => byText(a.fault, b.fault) || byText(a.profile, b.profile));
  writeFileSync(join(ROOT, FAULT_MATRIX), `${JSON.stringify(rows, null, 2)}\n`);
}

/** The recorded checks of a row, as an attempt: its files, and `--only "ID:"` for each check. */
function recordedAttempt(row: MatrixRow): Attempt {
  return { kind: "recorded checks", files: row.files, extraArgs: row.checks.flatMap((id) => ["--only", `${id}:`]) };
}

/** Every run with its recorded checks first (when the matrix has them), then its full attempts. */
export function recordedPlan(runs: readonly FaultRun[]): PlannedRun[] {
  const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));
  const rows = new Map(readFaultMatrix().map((row) => [runName(row), row]));
  return runs.map((run) => {
    const row = rows.get(runName(run));
    const recorded = row === undefined || row.checks.length === 0 ? [] : [recordedAttempt(row)];
    return { run, attempts: [...recorded, ...fullAttempts(run, catalog)] };
  });
}
