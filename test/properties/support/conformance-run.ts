// Runs the conformance command as a child process against a target, as a user would, and reads back
// what it wrote: exit status, output and summary.json; and what the property self-tests assert of a
// run, whether the command made it or a batch of law runs did (law-runs.ts).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { conformanceCommand } from "../../support/conformance-command.ts";

export interface SummaryRequirement {
  readonly id: string;
  readonly level: "MUST" | "SHOULD";
  readonly status: "passed" | "failed" | "warned" | "skipped" | "not_applicable";
  readonly checks: number;
  readonly failures: readonly { readonly message: string; readonly curl: string | null }[];
}

export interface Summary {
  readonly conforming: boolean;
  readonly requirements: readonly SummaryRequirement[];
}

export interface ConformanceRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly summary: Summary | undefined;
  readonly ms: number;
  /** The argument list given to the command (after the script). */
  readonly args: readonly string[];
}

const scratch: string[] = [];

/** A fixtures file for the run (the fixtures file's format). */
export function fixturesFile(fixtures: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "property-fixtures-"));
  scratch.push(dir);
  const file = join(dir, "fixtures.json");
  writeFileSync(file, JSON.stringify(fixtures));
  return file;
}

/** `ledger-conformance ARGS --report-dir <fresh>`; resolves when the command has exited. */
export async function conformance(
  args: readonly string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<ConformanceRun> {
  const reportDir = mkdtempSync(join(tmpdir(), "property-reports-"));
  scratch.push(reportDir);
  const full = [...args, "--report-dir", reportDir, "--quiet"];
  // Only summary.json is read: the Allure sub-report (seconds of CPU per run) is skipped where the command offers it.
  const run = await conformanceCommand(full, {
    timeoutMs: options.timeoutMs ?? 120_000,
    env: { LEDGER_CONFORMANCE_ALLURE: "off", ...options.env },
  });
  let summary: Summary | undefined;
  try {
    summary = JSON.parse(readFileSync(join(reportDir, "summary.json"), "utf8")) as Summary;
  } catch {
    summary = undefined;
  }
  return { code: run.code ?? -1, stdout: run.stdout, stderr: run.stderr, summary, ms: run.ms, args: full };
}

/** Removes every fixtures file and report directory made so far. */
export function removeScratch(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function requirementOf(run: ConformanceRun, id: string): SummaryRequirement {
  const r = run.summary?.requirements.find((x) => x.id === id);
  expect(r, `summary.json lists ${id} (exit ${run.code}; stderr: ${run.stderr.slice(0, 2000)})`).toBeDefined();
  return r as SummaryRequirement;
}

/**
 * The property of `id` caught the deviation: the run failed (a MUST; a SHOULD only warns and the run
 * exits 0), summary.json says so, and the failure names the seed, the shrunk path, the counterexample's
 * requests as curl lines, and the command that replays just that case.
 */
export function expectCaught(run: ConformanceRun, id: string): string {
  const r = requirementOf(run, id);
  const expectedStatus = r.level === "MUST" ? "failed" : "warned";
  expect(r.status, `${id} in summary.json\n${run.stdout.slice(-4000)}`).toBe(expectedStatus);
  expect(run.code, run.stdout.slice(-4000)).toBe(r.level === "MUST" ? 1 : 0);
  const message = r.failures.map((f) => f.message).find((m) => m.includes("property failed"));
  expect(message, `a property failure among the failures of ${id}: ${JSON.stringify(r.failures).slice(0, 3000)}`).toBeDefined();
  const text = message as string;
  expect(text).toMatch(/\n {2}seed: {5}-?\d+/);
  expect(text).toMatch(/\n {2}path: {5}\S+/);
  expect(text).toMatch(/\n {2}counterexample: /);
  expect(text).toMatch(/curl -sS/);
  expect(text).toContain(`--only '${id}'`);
  expect(text).toMatch(/\n {2}replay: {3}npx ledger-conformance .*--seed=-?\d+ --path '[0-9:]+'/);
  return text;
}

/** The replay command of a property failure, as arguments of the conformance command. */
export function replayArgs(message: string): string[] {
  const line = /\n {2}replay: {3}npx ledger-conformance (.*)/.exec(message)?.[1];
  expect(line, "a replay line").toBeDefined();
  // The line is POSIX-quoted words: 'a b' or bare words.
  const words: string[] = [];
  for (const m of (line as string).matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g))
    words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] as string));
  return words;
}

export function expectClean(run: ConformanceRun, ids: readonly string[]): void {
  expect(run.code, `${run.stdout.slice(-6000)}\n${run.stderr.slice(-2000)}`).toBe(0);
  for (const id of ids) {
    const r = requirementOf(run, id);
    expect(r.status, `${id}: ${JSON.stringify(r.failures).slice(0, 3000)}`).toBe("passed");
  }
}

/** The conformance command against `proxyUrl` with the node's fixtures, selecting `only` (a property file or a requirement id). */
export function conformanceAgainst(
  target: { readonly url: string; readonly fixtures: string },
  only: string,
  options: { extraArgs?: readonly string[]; env?: Record<string, string> } = {},
): Promise<ConformanceRun> {
  return conformance(
    ["--target", target.url, "--fixtures", target.fixtures, "--only", only, ...(options.extraArgs ?? [])],
    options.env === undefined ? {} : { env: options.env },
  );
}
