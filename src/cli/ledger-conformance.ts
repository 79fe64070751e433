// `npm run conformance -- …` / `npx ledger-conformance …`: runs the conformance suites against a node
// and writes summary.json, junit.xml and html/ (design §3). Without --target it starts the reference
// node in-process on a free loopback port and tests that. Exit status: 0 every MUST holds; 1 some MUST
// failed (or a baseline entry passed, or the run had errors); 2 usage or configuration error, or the
// target cannot be reached at all. Flags: see USAGE in conformance-args.ts.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyBaseline, exitCode, notStartedOutcome, parseBaseline, type RunOutcome } from "../../reporters/aggregate.ts";
import type { JunitCase } from "../../reporters/junit-report.ts";
import { RequirementReporter } from "../../reporters/requirement-reporter.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { checkTimeoutMs, isLoopbackUrl } from "../harness/config.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { ApiContract } from "../harness/openapi.ts";
import { currentId, loadRequirementAliases, type RequirementAliases } from "../harness/requirement-aliases.ts";
import { loadRequirements, type RequirementCatalog } from "../harness/requirements.ts";
import { parseConformanceArgs, USAGE, UsageError, type ConformanceArgs } from "./conformance-args.ts";
import { writeReports, type ReportInput } from "./conformance-reports.ts";
import { resolveTarget, runConfigOf } from "./conformance-setup.ts";
import { startAllureGenerator, type AllureGenerator } from "./conformance-allure.ts";
import { probeTarget, type EmbeddedNode } from "./conformance-target.ts";
import { concurrencyPerWorker, LATENCY_BOUND_ANSWER_MS, runSuites, suiteWorkers } from "./conformance-vitest.ts";
import { ReportLayout } from "./report-layout.ts";
import { PhaseClock, PhaseReporter } from "./run-phases.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * SIGTERM or SIGINT (an outer time limit, Ctrl-C) stops the run like --max-duration does: the checks
 * that did not run are skipped, the reports are written, and the command exits 128 + the signal's
 * number. A second signal leaves at once.
 */
const interrupt = new AbortController();
for (const [signal, number] of [["SIGINT", 2], ["SIGTERM", 15]] as const) {
  process.on(signal, () => {
    if (interrupt.signal.aborted) process.exit(128 + number);
    interrupt.abort(`interrupted by ${signal}`);
  });
}

async function main(argv: readonly string[]): Promise<number> {
  let args: ConformanceArgs;
  try {
    const parsed = parseConformanceArgs(argv);
    if (parsed === "help") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    args = parsed;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(escapeControls(`ledger-conformance: ${e.message}\n${USAGE}\n`));
      return 2;
    }
    throw e;
  }
  const say = (line: string) => {
    if (!args.quiet) process.stdout.write(`${escapeControls(line)}\n`);
  };
  let node: EmbeddedNode | undefined;
  let scratch: string | undefined;
  let allureGenerator: AllureGenerator | undefined;
  try {
    const startedAt = new Date();
    const t0 = performance.now();
    const phases = new PhaseClock();
    phases.end("processStart", t0);
    const catalog = loadCatalog();
    const aliases = loadRequirementAliases();
    // An old requirement id given to --only selects the checks of the id that holds it now.
    if (args.only !== undefined) args = { ...args, only: currentId(args.only, aliases) };
    const baseline = args.baseline === undefined ? undefined : readBaseline(args.baseline, aliases);
    const resolved = await resolveTarget(args, say);
    phases.end("target");
    node = resolved.node;
    const { target } = resolved;
    const layout = new ReportLayout(args.reportDir);
    const report = (outcome: RunOutcome, junitCases: readonly JunitCase[], code: number, allure: ReportInput["allure"]) =>
      writeReports({ layout, outcome, junitCases, target, startedAt, durationMs: performance.now() - t0, exitCode: code, allure, say, phases });

    const probe = await probeTarget(target, args.timeoutMs);
    phases.end("probe");
    if (!probe.ok) {
      // Nothing can be tested: exit 2 as for a usage error, with the reports saying why.
      process.stderr.write(escapeControls(`ledger-conformance: ${probe.reason}\n`));
      const outcome = notStartedOutcome(catalog, probe.reason, probe.requests, probe.retries);
      await report(outcome, [{ file: "(target probe)", name: "the target can be tested", status: "error", durationMs: 0, detail: probe.reason }], 2, { skipped: "nothing ran" });
      return 2;
    }
    say(`target ${target}${node ? " (embedded reference node)" : ""}, profile ${args.profile}: ${probe.note}`);

    layout.create();
    // LEDGER_CONFORMANCE_ALLURE=off skips the Allure sub-report (about 2 s of CPU): the self-check runs
    // the command once per fault and reads only summary.json. Otherwise its generator starts loading
    // when the first check starts: earlier it would take CPU from the workers' start.
    const allureOff = process.env.LEDGER_CONFORMANCE_ALLURE === "off";
    scratch = mkdtempSync(join(tmpdir(), "ledger-conformance-"));
    const stateDir = join(scratch, "state");
    const allureResults = join(scratch, "allure-results");
    mkdirSync(stateDir);

    const selection = selectByOnly(args.only);
    if (args.only !== undefined) say(selection.files.length > 0 ? `--only: files ${selection.files.join(", ")}` : `--only: checks whose name contains ${JSON.stringify(args.only)}`);
    const reporter = new RequirementReporter({
      catalog,
      quiet: args.quiet,
      ...(args.only === undefined ? {} : { untestedReason: `not selected by --only ${args.only}` }),
      ...(selection.namePattern === undefined ? {} : { namePattern: selection.namePattern }),
      files: selection.files.length > 0 ? selection.files : suiteFiles(),
      before: { requests: probe.requests, retries: probe.retries },
    });
    const phaseReporter = new PhaseReporter();
    const startAllureAtFirstCheck = {
      onTestCaseReady: () => {
        if (!allureOff) allureGenerator ??= startAllureGenerator();
      },
    };
    // Remote, or slow to answer its probe: the run will wait on the network, not on this machine's CPU.
    // (The embedded node shares this process's CPU: never latency-bound.)
    const latencyBound = node === undefined && (!isLoopbackUrl(target) || probe.answerMs >= LATENCY_BOUND_ANSWER_MS);
    const workers = suiteWorkers(args.concurrency, { rateLimited: args.rateLimit !== undefined, latencyBound });
    const perWorker = concurrencyPerWorker(args.concurrency, workers);
    const run = await runSuites({
      root: ROOT,
      config: { ...runConfigOf(args, resolved, { stateDir, bodiesDir: layout.bodiesDir }), concurrency: perWorker },
      files: selection.files,
      ...(selection.namePattern === undefined ? {} : { testNamePattern: selection.namePattern }),
      requirementReporter: reporter,
      reporters: [phaseReporter, startAllureAtFirstCheck],
      allureResultsDir: allureResults,
      testTimeoutMs: Math.max(60_000, checkTimeoutMs(args.timeoutMs)),
      maxDurationMs: args.maxDurationMs,
      maxWorkers: workers,
      maxConcurrency: perWorker,
      interrupt: interrupt.signal,
      onStop: (reason) => reporter.stop(reason),
    });
    if (phaseReporter.firstCheckAt !== undefined) phases.end("workers", phaseReporter.firstCheckAt);
    if (phaseReporter.runEndAt !== undefined) phases.end("checks", phaseReporter.runEndAt);
    phases.end("vitestClose");

    let outcome = reporter.finalize();
    if (!run.capped && !run.interrupted && args.only !== undefined && outcome.errors.length === 0 && outcome.requirements.every((r) => r.checks === 0)) {
      throw new ConfigurationError(`--only ${args.only} selected no check (it matches no suite file path and no check name)`);
    }
    if (baseline !== undefined) outcome = applyBaseline(outcome, baseline.ids, baseline.file);
    // Stopped by a signal: the conventional 128 + its number, so that a caller sees the run was cut short.
    const code = run.interrupted ? 128 + (interrupt.signal.reason === "interrupted by SIGINT" ? 2 : 15) : exitCode(outcome);
    // After a signal there is no time for the Allure page.
    const allure: ReportInput["allure"] =
      allureOff
        ? { skipped: "LEDGER_CONFORMANCE_ALLURE=off" }
        : run.interrupted
          ? { skipped: String(interrupt.signal.reason) }
          : { resultsDir: allureResults, ...(allureGenerator === undefined ? {} : { generator: allureGenerator }) };
    await report(outcome, reporter.junitCases(), code, allure);
    return code;
  } catch (e) {
    // A configuration error (fixtures, catalog, baseline, a node that cannot start, --only): its message.
    const text = e instanceof ConfigurationError ? e.message : ((e as Error).stack ?? String(e));
    process.stderr.write(escapeControls(`ledger-conformance: ${text}\n`));
    return 2;
  } finally {
    allureGenerator?.dispose();
    await node?.close().catch(() => undefined);
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  }
}

function loadCatalog(): RequirementCatalog {
  let contract: ApiContract;
  try {
    contract = ApiContract.load();
  } catch (e) {
    throw new ConfigurationError(`cannot load schemas/openapi.yaml: ${(e as Error).message}`);
  }
  return loadRequirements(contract.operations.map((o) => o.id));
}

function readBaseline(file: string, aliases: RequirementAliases): { file: string; ids: string[] } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ConfigurationError(`cannot read baseline ${file}: ${(e as Error).message}`);
  }
  return { file, ids: parseBaseline(text, file, aliases) };
}

/** Every suite and property file, relative to the root. */
function suiteFiles(): string[] {
  const files: string[] = [];
  for (const dir of ["suites", "properties"]) {
    const abs = join(ROOT, dir);
    if (!existsSync(abs)) continue;
    for (const entry of readdirSync(abs, { recursive: true })) {
      const rel = `${dir}/${String(entry)}`;
      if (rel.endsWith(".test.ts")) files.push(rel);
    }
  }
  return files;
}

/** Files whose path contains the pattern; when none does, checks whose name (id: text) contains it. */
function selectByOnly(only: string | undefined): { files: string[]; namePattern?: RegExp } {
  if (only === undefined) return { files: [] };
  const files = suiteFiles().filter((rel) => rel.includes(only));
  if (files.length > 0) return { files };
  return { files: [], namePattern: new RegExp(only.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) };
}

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Keep-alive sockets or a stuck worker must not keep the command alive once the reports are written.
setTimeout(() => process.exit(code), 2_000).unref();
