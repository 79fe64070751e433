// One self-check run: the reference node started in-process (with faults or none) on a free loopback
// port, its fixtures written to a file, and the conformance command run against it as a node team runs
// it, the whole suite, as a child process (test/support/conformance-command.ts): `--target URL
// --fixtures F --report-dir D [--baseline B]`. Spawned asynchronously, since the node it tests answers
// from this process's event loop. The Allure sub-report is skipped (LEDGER_CONFORMANCE_ALLURE=off): only
// summary.json is read.
// Used by test/self-check/clean-node.test.ts and by bench/self-check.ts (the fault self-check's runs are
// fault-runs.ts).

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startNode } from "../../src/node/index.ts";
import type { Summary, SummaryRequirement } from "../../reporters/summary.ts";
import { parseBaseline } from "../../src/outcome/baseline-list.ts";
import { conformanceCommand, ROOT } from "../support/conformance-command.ts";

export { ROOT };

/** aptos-core's deviations from the spec, as shipped for node teams; the aptos profile's runs use it. */
export const APTOS_CORE_BASELINE = "baselines/aptos-core.txt";

/** The catalog ids the shipped baseline lists: what the clean aptos-profile node fails or warns. */
export function aptosCoreBaselined(): ReadonlySet<string> {
  return new Set(parseBaseline(readFileSync(join(ROOT, APTOS_CORE_BASELINE), "utf8"), APTOS_CORE_BASELINE));
}

/** A whole-suite run takes ~20 s on an idle machine; this bounds a hung one. */
export const RUN_TIMEOUT_MS = 240_000;

export interface RunOptions {
  /** Fault names (src/node/faults/); none for the clean node. */
  readonly faults?: readonly string[];
  readonly profile?: "node" | "aptos";
  /** The profile the run is told (`--profile`), when it is not the node's: a run pointed at the wrong family. */
  readonly runProfile?: "node" | "aptos";
  /** An expected-failures file, relative to the project root (`--baseline`). */
  readonly baseline?: string;
  /** A fresh directory for the fixtures file and the reports. */
  readonly dir: string;
  /** More flags for the command (--load, --only…). */
  readonly args?: readonly string[];
  /** The node's block interval (default the node's); a load needs blocks to commit while it reads. */
  readonly blockIntervalMs?: number;
}

export interface ConformanceRun {
  /** The command's exit status (null when it was killed). */
  readonly exitCode: number | null;
  readonly summary: Summary | undefined;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

export async function runConformance(options: RunOptions): Promise<ConformanceRun> {
  const started = performance.now();
  mkdirSync(options.dir, { recursive: true });
  const fixturesFile = join(options.dir, "fixtures.json");
  const reportDir = join(options.dir, "reports");
  const profile = options.profile ?? "node";
  const node = await startNode({
    port: 0,
    host: "127.0.0.1",
    profile,
    faults: options.faults ?? [],
    ...(options.blockIntervalMs === undefined ? {} : { blockIntervalMs: options.blockIntervalMs }),
    // Faults that make 500s would fill the test output with stack traces: the 500 itself is the point.
    onInternalError: () => undefined,
    beforeListen: (fixtures) => writeFileSync(fixturesFile, `${JSON.stringify(fixtures, null, 2)}\n`),
  });
  try {
    const args = [
      "--target",
      node.url,
      "--fixtures",
      fixturesFile,
      "--report-dir",
      reportDir,
      "--profile",
      options.runProfile ?? profile,
      "--quiet",
    ];
    if (options.baseline !== undefined) args.push("--baseline", options.baseline);
    args.push(...(options.args ?? []));
    const {
      code: exitCode,
      stdout,
      stderr,
    } = await conformanceCommand(args, { timeoutMs: RUN_TIMEOUT_MS, env: { LEDGER_CONFORMANCE_ALLURE: "off" } });
    const summaryFile = join(reportDir, "summary.json");
    const summary = existsSync(summaryFile) ? (JSON.parse(readFileSync(summaryFile, "utf8")) as Summary) : undefined;
    return { exitCode, summary, stdout, stderr, durationMs: performance.now() - started };
  } finally {
    await node.close();
  }
}

/** The requirements of a run with the given status. */
export function requirementsWith(summary: Summary | undefined, status: SummaryRequirement["status"]): SummaryRequirement[] {
  return (summary?.requirements ?? []).filter((r) => r.status === status);
}
