// The validation proxy serving a client's traffic (src/harness/proxy/ judges each answer): it prints `listening on URL`
// once a client can use it, writes the reports (summary.json, junit.xml, html/) every writeEvery
// seconds and when stopped by SIGINT or SIGTERM, and then ends like a run: 1 when a MUST requirement
// failed on the traffic seen, else 0; 2 for a port it cannot listen on.

import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { RunOutcome } from "../outcome/run-outcome.ts";
import { exitCode } from "../outcome/exit-code.ts";
import { verdictOf } from "../outcome/verdict.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { ReportLayout } from "../../reporters/report-layout.ts";
import { writeReports } from "../../reporters/run-reports.ts";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../harness/config.ts";
import type { ApiContract } from "../harness/openapi.ts";
import { ValidationProxy } from "../harness/proxy/validation-proxy.ts";
import type { RequirementCatalog } from "../harness/requirements.ts";
import { TrafficTally } from "./traffic-tally.ts";

/** A request body larger than this is refused by the proxy (413); the node's own limit is 8 MiB by default. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

export interface ProxyServing {
  /** The node's base URL, normalized. */
  readonly target: string;
  /** On 127.0.0.1; 0: a free port. */
  readonly port: number;
  readonly contract: ApiContract;
  readonly catalog: RequirementCatalog;
  readonly headerPrefix: string;
  readonly timeoutMs: number;
  /** Seconds between the periodic writes; 0: only when stopped. */
  readonly writeEvery: number;
  readonly layout: ReportLayout;
  /** --baseline: the requirements expected to fail. */
  readonly baseline?: { readonly file: string; readonly ids: readonly string[] };
}

/** Serves until SIGINT or SIGTERM, then writes the final reports; the exit status. */
export async function serveProxy(input: ProxyServing): Promise<number> {
  const { target, port, catalog, baseline, layout } = input;
  const tally = new TrafficTally();
  const proxy = new ValidationProxy({
    upstream: target,
    port,
    contract: input.contract,
    catalog,
    headerPrefix: input.headerPrefix,
    timeoutMs: input.timeoutMs,
    maxRequestBytes: MAX_REQUEST_BYTES,
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
    onJudged: (label, results) => tally.add(label, results),
  });
  let url: string;
  try {
    url = await proxy.listen();
  } catch (e) {
    process.stderr.write(escapeControls(`ledger-conformance proxy: cannot listen on 127.0.0.1:${port}: ${(e as Error).message}\n`));
    return 2;
  }
  const staging = new ReportLayout(join(layout.dir, ".writing"));
  const startedAt = new Date();
  const t0 = performance.now();
  const write = async (final: boolean): Promise<number> => {
    const seen = tally.outcome(catalog);
    const outcome = baseline === undefined ? seen : expectFailures(seen, baseline.ids);
    const code = exitCode(outcome);
    // Periodic writes go through a staging directory and are renamed into place, so that a reader
    // (a CI step, a browser) never sees a half-written file; the final one is written in place.
    await writeReports({
      layout: final ? layout : staging,
      outcome,
      verdict: verdictOf(outcome),
      junitCases: tally.junitCases(outcome),
      target: `${target} (through the validation proxy)`,
      startedAt,
      durationMs: performance.now() - t0,
      exitCode: code,
      allure: { skipped: "not produced for proxied traffic" },
      say: () => undefined,
      console: final,
    });
    if (final) rmSync(staging.dir, { recursive: true, force: true });
    else {
      layout.create();
      for (const file of ["summary", "junit", "htmlIndex"] as const) renameSync(staging[file], layout[file]);
    }
    return code;
  };
  process.stdout.write(`listening on ${url}\n`);
  process.stdout.write(escapeControls(`forwarding to ${target}; reports in ${layout.display}\n`));
  let writing: Promise<unknown> = Promise.resolve();
  const timer =
    input.writeEvery > 0
      ? setInterval(() => (writing = writing.then(() => write(false)).catch(() => undefined)), input.writeEvery * 1000)
      : undefined;
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  clearInterval(timer);
  process.stdout.write(`${signal}: stopping after ${tally.exchanges} judged answers\n`);
  await proxy.close();
  await writing;
  return write(true);
}

/**
 * The baseline's failures are expected, as in a run; but a listed requirement that passed is not turned
 * into a failure as a run does: the traffic may simply not have touched the deviation.
 */
function expectFailures(outcome: RunOutcome, ids: readonly string[]): RunOutcome {
  const listed = new Set(ids);
  return {
    ...outcome,
    requirements: outcome.requirements.map((r) =>
      listed.has(r.requirement.id) && (r.status === "failed" || r.status === "warned") ? { ...r, expectedFailure: true } : r,
    ),
  };
}
