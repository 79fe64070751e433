// The default run behind a gateway that declines requests, as a node's public endpoint may have: a
// token bucket of GATEWAY_RATE requests/s answering 429 with Retry-After: 1 beyond it (the allowed
// variation rate-limit-429, test/support/variations.ts). The run paces itself (src/harness/
// shared-rate-limit.ts) and must be conforming, not partial, in at most 1.5 times the time its requests
// need at the gateway's rate. Printed: the wall time, the requests and retries, what was declined,
// and the rate the run settled at.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Declines } from "../src/harness/decline-tally.ts";
import { startVariationProxy } from "../test/support/variation-proxy.ts";
import { GATEWAY_RATE } from "../test/support/variations.ts";
import { conformanceCommand } from "./conformance-run.ts";
import { formatNumber, loadDescription, printHeading } from "./format.ts";
import { startChildNode } from "./node-process.ts";
import type { BenchOptions } from "./options.ts";

/** A run that takes this long is stuck: it is stopped, and the figure says so. */
const RUN_TIMEOUT_MS = 300_000;
/** The goal: at most this many times the time the run's requests need at the gateway's rate. */
const GOAL_FACTOR = 1.5;

export async function runGatewayRun(_options: BenchOptions): Promise<void> {
  await runBehindVariation("rate-limit-429");
}

/** The default run behind the variation proxy applying `variation`, with its figures printed. */
export async function runBehindVariation(variation: string): Promise<void> {
  printHeading(`gateway run: the default run behind ${variation} (${GATEWAY_RATE} requests/s, 429 with Retry-After: 1 beyond it)`);
  const scratch = mkdtempSync(join(tmpdir(), "bench-gateway-"));
  const node = await startChildNode();
  const proxy = await startVariationProxy(node.url, variation);
  try {
    const fixtures = join(scratch, "fixtures.json");
    writeFileSync(fixtures, JSON.stringify(node.fixtures));
    const reportDir = join(scratch, "reports");
    const started = performance.now();
    const exitCode = await conformanceCommand(
      ["--target", proxy.url, "--fixtures", fixtures, "--report-dir", reportDir, "--quiet"],
      RUN_TIMEOUT_MS,
    );
    const wallS = (performance.now() - started) / 1000;
    const summary = JSON.parse(readFileSync(join(reportDir, "summary.json"), "utf8")) as {
      verdict?: string;
      requests?: number;
      retries?: number;
      declined?: Declines;
      requirements?: { id: string; status: string; failures: { message: string }[]; reason?: string }[];
    };
    const requests = summary.requests ?? 0;
    const sent = requests + (summary.retries ?? 0);
    const atLimitS = sent / GATEWAY_RATE;
    const pacing = summary.declined?.pacing;
    const lines = [
      `  verdict ${summary.verdict ?? "?"}, exit ${exitCode ?? "none"}; ${formatNumber(wallS, 1)} s wall`,
      `  ${formatNumber(requests)} requests, ${formatNumber(summary.retries ?? 0)} retries (${formatNumber(sent)} sent: ${formatNumber(atLimitS, 1)} s at ${GATEWAY_RATE}/s; goal <= ${formatNumber(GOAL_FACTOR * atLimitS, 1)} s)`,
      `  declined: ${formatNumber(summary.declined?.rateLimited ?? 0)} with 429, ${formatNumber(summary.declined?.shed ?? 0)} with 503; ${proxy.changed()} answers the proxy gave itself`,
      `  ${pacing === undefined ? "never paced" : `settled at ${formatNumber(pacing.settledPerSecond, 1)} requests/s after ${pacing.decreases} decreases`}`,
      `  ${loadDescription()}`,
    ];
    // What failed or was left undecided, so that a run that was not conforming says why.
    for (const r of summary.requirements ?? []) {
      if (r.status === "failed" || (r.status === "skipped" && r.reason !== undefined && r.reason !== "untested"))
        lines.push(`  ${r.id} ${r.status}: ${(r.failures[0]?.message ?? r.reason ?? "").slice(0, 600)}`);
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    await proxy.close();
    await node.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
