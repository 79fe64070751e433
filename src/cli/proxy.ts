// `ledger-conformance proxy --upstream URL [--port P] [--report-dir DIR] [--write-every SECONDS]`: the
// validation proxy (src/harness/proxy/). It prints `listening on URL` once a client can use it, writes
// the run's reports (summary.json, junit.xml, html/) every --write-every seconds and when stopped by
// SIGINT or SIGTERM, and then exits like a run: 1 when a MUST requirement failed on the traffic seen,
// else 0; 2 on a usage error or a port it cannot listen on.

import { parseArgs } from "node:util";
import { exitCode, parseBaseline, type RunOutcome } from "../../reporters/aggregate.ts";
import { readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { loadRequirementAliases } from "../harness/requirement-aliases.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, isProfileName, normalizeHeaderPrefix, normalizeTarget, WIRE_PROFILES } from "../harness/config.ts";
import { ApiContract } from "../harness/openapi.ts";
import { ValidationProxy } from "../harness/proxy/validation-proxy.ts";
import { loadRequirements } from "../harness/requirements.ts";
import { writeReports } from "../../reporters/run-reports.ts";
import { defaultOf, parseOptionsOf } from "./flags.ts";
import { usageOf } from "./usage.ts";
import { TrafficTally } from "../proxy/traffic-tally.ts";
import { ReportLayout } from "../../reporters/report-layout.ts";

export const PROXY_USAGE = usageOf("proxy");

/** A request body larger than this is refused by the proxy (413); the node's own limit is 8 MiB by default. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** What parseArgs gives for the proxy's flags. */
interface ProxyFlagValues {
  upstream?: string;
  port?: string;
  "report-dir"?: string;
  "write-every"?: string;
  profile?: string;
  "header-prefix"?: string;
  timeout?: string;
  baseline?: string;
  help?: boolean;
}

export async function proxyCommand(argv: readonly string[]): Promise<number> {
  let values: ProxyFlagValues;
  try {
    ({ values } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: parseOptionsOf("proxy") }) as { values: ProxyFlagValues });
  } catch (e) {
    return usageError((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${PROXY_USAGE}\n`);
    return 0;
  }
  if (values.upstream === undefined) return usageError("--upstream is required");
  let upstream: URL;
  try {
    upstream = new URL(values.upstream);
  } catch {
    return usageError(`--upstream must be a URL such as http://127.0.0.1:8080/v1, got '${values.upstream}'`);
  }
  if (upstream.protocol !== "http:" && upstream.protocol !== "https:") return usageError(`--upstream must be http or https, got '${upstream.protocol}'`);
  const port = wholeNumber(values.port ?? defaultOf("proxy", "port"));
  if (port === undefined || port > 65535) return usageError(`--port needs a port number, got '${values.port}'`);
  const writeEvery = wholeNumber(values["write-every"] ?? defaultOf("proxy", "write-every"));
  if (writeEvery === undefined) return usageError(`--write-every needs a whole number of seconds, got '${values["write-every"]}'`);
  const timeoutMs = wholeNumber(values.timeout ?? defaultOf("proxy", "timeout"));
  if (timeoutMs === undefined || timeoutMs === 0) return usageError(`--timeout needs a positive number of milliseconds, got '${values.timeout}'`);
  const profileName = values.profile ?? defaultOf("proxy", "profile");
  if (!isProfileName(profileName)) return usageError(`--profile must be node or aptos, got '${profileName}'`);
  if (values["header-prefix"] !== undefined && !/^[A-Za-z0-9-]+$/.test(values["header-prefix"])) return usageError(`--header-prefix must be letters, digits and dashes, got '${values["header-prefix"]}'`);
  const headerPrefix = values["header-prefix"] === undefined ? WIRE_PROFILES[profileName].headerPrefix : normalizeHeaderPrefix(values["header-prefix"]);

  let baseline: { file: string; ids: string[] } | undefined;
  if (values.baseline !== undefined) {
    try {
      baseline = { file: values.baseline, ids: parseBaseline(readFileSync(values.baseline, "utf8"), values.baseline, loadRequirementAliases()) };
    } catch (e) {
      return usageError(`cannot read baseline ${values.baseline}: ${(e as Error).message}`);
    }
  }
  const contract = ApiContract.load(undefined, headerPrefix);
  const catalog = loadRequirements(contract.operations.map((o) => o.id));
  const unknown = baseline?.ids.filter((id) => !catalog.has(id)) ?? [];
  if (unknown.length > 0) return usageError(`${values.baseline} lists ids that are not in the catalog: ${unknown.join(", ")}`);
  const tally = new TrafficTally();
  const target = normalizeTarget(values.upstream);
  const proxy = new ValidationProxy({
    upstream: target,
    port,
    contract,
    catalog,
    headerPrefix,
    timeoutMs,
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
  const layout = new ReportLayout(values["report-dir"] ?? defaultOf("proxy", "report-dir"));
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
  const timer = writeEvery > 0 ? setInterval(() => (writing = writing.then(() => write(false)).catch(() => undefined)), writeEvery * 1000) : undefined;
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
    requirements: outcome.requirements.map((r) => (listed.has(r.requirement.id) && (r.status === "failed" || r.status === "warned") ? { ...r, expectedFailure: true } : r)),
  };
}

function usageError(message: string): number {
  process.stderr.write(escapeControls(`ledger-conformance proxy: ${message}\n${PROXY_USAGE}\n`));
  return 2;
}

function wholeNumber(value: string): number | undefined {
  return /^[0-9]+$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : undefined;
}
