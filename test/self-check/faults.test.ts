// The suite tests itself: for every named fault of the reference node (src/node/faults/), the node is
// started with that fault alone, and the suite is run against it as a node team would run it: the run
// must fail (exit 1), and every requirement the fault declares must be among the failed ones. A fault
// the suite does not catch fails the test that carries its name.
//
// Both profiles: the node profile as is, and the aptos profile (the node behaving like aptos-core) run
// as an Aptos-family team runs the suite, with the shipped baseline baselines/aptos-core.txt. There a
// fault must fail (exit 1, despite the baseline) every declared requirement, as in the node profile, and
// where both runs ran the same files, fail outside the baseline all it failed in the node profile: the
// baseline lists only aptos-core's own deviations, each under an id of its own, so it masks no fault. A fault whose deviation is aptos-core's would declare a baselined id; none does.
//
// A run holds the suite files that test the fault's declared requirements, derived from the catalog
// (test/self-check/suite-files.ts: the whole suite for a rule judged on every response, else the files
// whose checks name the id): the other files cannot fail them. A rule judged on every response is run
// with a sample of the suite first, and with the whole suite only when the sample did not prove it. The
// runs go in child processes (test/self-check/fault-runs.ts: two shares, and the runs that wait on
// commits beside them), each serving its faulty nodes on their own ports and running its runs in one
// vitest instance and one worker (test/support/suite-runs.ts), instead of the command as a child process per run.
//
// Two tiers (test/support/test-tier.ts). `npm run test:full` runs every fault as above and records, in
// test/self-check/fault-matrix.json, the checks that failed each run's requirements. `npm test`
// re-runs just those checks against each faulty node, live, and asserts the same; a run whose recorded
// checks no longer catch its fault, or that has no row (a new fault), falls back to its full run, and
// says so (test/self-check/fault-matrix.ts).

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiContract } from "../../src/harness/openapi.ts";
import { loadRequirements } from "../../src/harness/requirements.ts";
import { FAULTS, FAULT_NAMES } from "../../src/node/index.ts";
import { APTOS_CORE_BASELINE, aptosCoreBaselined, ROOT, requirementsWith } from "./conformance-run.ts";
import { FAULT_RUNS_MAX_MS, fullPlan, runFaultsInProcesses, runName, type FaultRun, type FaultRunOutcome } from "./fault-runs.ts";
import { FAULT_MATRIX, recordedPlan, refreshFaultMatrix } from "./fault-matrix.ts";
import { compiledEntry } from "../support/test-build.ts";
import { FULL_TIER } from "../support/test-tier.ts";
import { allSuiteFiles, CROSS_CUTTING_SAMPLE, sampleFilesFor, suiteFilesFor } from "./suite-files.ts";

describe("the fault registry", () => {
  it("has at least 25 faults with distinct names, covering every area", () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(FAULT_NAMES).size).toBe(FAULT_NAMES.length);
    for (const name of FAULT_NAMES) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const areas = new Set(FAULTS.map((f) => f.area));
    expect([...areas].sort()).toEqual(
      [
        "concurrency",
        "errors",
        "gas",
        "headers",
        "health",
        "media",
        "modules",
        "pagination",
        "signatures",
        "payload-forms",
        "spec-pages",
        "statuses",
        "submission",
        "versions",
      ].sort(),
    );
  });

  it("declares for every fault at least one requirement, each an id of the catalog, at least one a MUST", () => {
    const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));
    const problems: string[] = [];
    for (const fault of FAULTS) {
      if (fault.breaks.length === 0) problems.push(`${fault.name}: declares no requirement`);
      const unknown = fault.breaks.filter((id) => !catalog.has(id));
      if (unknown.length > 0) problems.push(`${fault.name}: unknown ${unknown.join(", ")}`);
      // A fault is a deviation that makes the node non-conforming: a SHOULD alone would only warn, exit 0.
      if (!fault.breaks.some((id) => catalog.has(id) && catalog.get(id).level === "MUST"))
        problems.push(`${fault.name}: breaks no MUST requirement`);
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("samples, for a rule judged on every response, suite files that exist and submit nothing", () => {
    for (const file of CROSS_CUTTING_SAMPLE) expect(allSuiteFiles(), file).toContain(file);
    expect(CROSS_CUTTING_SAMPLE.filter((file) => /submit|submission/.test(file))).toEqual([]);
  });

  it("is what `ledger-node --list-faults` prints, one `name  description` a line", () => {
    const result = spawnSync(process.execPath, [compiledEntry("ledger-node"), "--list-faults"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(FAULTS.map((f) => `${f.name}  ${f.description}\n`).join(""));
  });
});

/** aptos-core's deviations: requirements the aptos-profile node fails without any fault. */
const BASELINED = aptosCoreBaselined();

/**
 * The faults an idle run must catch: all but those that show only under concurrency, which an idle run
 * must miss and the load mode's self-check proves caught.
 */
const IDLE_FAULTS = FAULTS.filter((fault) => fault.area !== "concurrency");

/** Every such fault in both profiles, each proving all its declared requirements (aptos: with the shipped baseline). */
const RUNS: readonly FaultRun[] = [
  ...IDLE_FAULTS.map((fault) => ({ fault: fault.name, profile: "node" as const, proves: fault.breaks })),
  ...IDLE_FAULTS.map((fault) => ({ fault: fault.name, profile: "aptos" as const, proves: fault.breaks, baseline: APTOS_CORE_BASELINE })),
];

describe("the suite catches every fault", () => {
  let outcomes: Map<string, FaultRunOutcome>;
  beforeAll(async ({}, suite) => {
    // Only the runs whose tests are selected (`-t "<fault-name>"` runs one fault in both profiles).
    const selected = new Set(suite.tasks.filter((task) => task.mode === "run").map((task) => task.name));
    const runs = RUNS.filter((run) => selected.has(runName(run)));
    const outcomesInOrder = await runFaultsInProcesses(FULL_TIER ? fullPlan(runs) : recordedPlan(runs));
    outcomes = new Map(outcomesInOrder.map((outcome) => [runName(outcome.run), outcome]));
    if (FULL_TIER)
      refreshFaultMatrix(
        outcomesInOrder,
        IDLE_FAULTS.map((fault) => fault.name),
      );
  }, FAULT_RUNS_MAX_MS + 120_000);

  it.each(RUNS.map((run) => [runName(run), run] as const))("%s", (label, run) => {
    const outcome = outcomes.get(label);
    expect(outcome, `no outcome for ${label}`).toBeDefined();
    const { summary, exitCode, attempt, unproven } = outcome as FaultRunOutcome;
    // The fast tier's runs that could not go by the recording: proven (or not) all the same, by their full run.
    if (!FULL_TIER && attempt.kind !== "recorded checks")
      console.warn(
        unproven.includes("recorded checks")
          ? `${label}: its recorded checks no longer catch it; run with its ${attempt.kind} (npm run test:full refreshes ${FAULT_MATRIX})`
          : `${label}: no row in ${FAULT_MATRIX} (a new fault?); run with its ${attempt.kind} (npm run test:full records it)`,
      );
    const context = `${label}: exit ${exitCode}, files ${outcome?.files.join(" ")}\n${JSON.stringify(summary.errors ?? []).slice(0, 2000)}`;
    const failed = requirementsWith(summary, "failed").map((r) => r.id);
    // The status, and for one skipped or not applicable why: a run the machine's load starved shows here.
    const statusOf = (id: string) => {
      const entry = summary.requirements.find((r) => r.id === id);
      return entry === undefined ? "absent" : entry.reason === undefined ? entry.status : `${entry.status}: ${entry.reason}`;
    };
    const missed = run.proves.filter((id) => !failed.includes(id)).map((id) => `${id} (${statusOf(id)})`);
    expect(
      missed,
      `${label}: declared requirements not failed: ${missed.join(", ")}; failed: ${failed.join(", ") || "none"}\n${context}`,
    ).toEqual([]);
    expect(exitCode, context).toBe(1);
  });

  it("declares for no fault a requirement the shipped baseline lists: the baseline masks none of them", () => {
    const masked = FAULTS.filter((f) => f.breaks.some((id) => BASELINED.has(id))).map((f) => f.name);
    expect(masked).toEqual([]);
    expect(RUNS.filter((r) => r.profile === "aptos").length).toBe(IDLE_FAULTS.length);
  });

  // Not the converse; and a fault that races the ledger (lagging-replica) fails a few more checks in one
  // run than in another, whatever the profile: of it, the test above demands its declared requirements
  // in both profiles.
  it("fails in the aptos profile, outside the baseline, all it fails in the node profile", () => {
    const failedOutsideBaseline = (outcome: FaultRunOutcome) =>
      outcome.summary.requirements
        .filter((r) => r.status === "failed" && !BASELINED.has(r.id))
        .map((r) => r.id)
        .sort();
    let compared = 0;
    for (const fault of IDLE_FAULTS.filter((f) => f.racesTheLedger !== true)) {
      const node = outcomes.get(runName({ fault: fault.name, profile: "node" }));
      const aptos = outcomes.get(runName({ fault: fault.name, profile: "aptos" }));
      if (node === undefined || aptos === undefined) continue;
      // Each ran its own recorded checks: compared on the requirements the aptos run's checks judged.
      const bothRecorded = node.attempt.kind === "recorded checks" && aptos.attempt.kind === "recorded checks";
      // A rule judged on every response may have needed the whole suite in one profile and its sample in the other.
      if (!bothRecorded && node.files.join() !== aptos.files.join()) continue;
      compared += 1;
      const aptosFailed = new Set(failedOutsideBaseline(aptos));
      const judged = new Set(aptos.summary.requirements.filter((r) => r.checks > 0).map((r) => r.id));
      expect(
        failedOutsideBaseline(node).filter((id) => (!bothRecorded || judged.has(id)) && !aptosFailed.has(id)),
        `${fault.name}: failed in the node profile, not in the aptos profile`,
      ).toEqual([]);
    }
    expect(compared).toBeGreaterThan(0);
  });

  it("runs for each fault the suite files that test its declared requirements (or its recorded checks, some of them): for a rule judged on every response its sample, and the whole suite when the sample did not prove it", () => {
    const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));
    expect(outcomes.size).toBeGreaterThan(0);
    for (const outcome of outcomes.values()) {
      const { run } = outcome;
      const everywhere = run.proves.some((id) => catalog.get(id).endpoint === "*");
      // The sample first; the whole suite only after a sample that did not prove the fault caught.
      const sample = sampleFilesFor(run.proves, catalog);
      const whole = suiteFilesFor(run.proves, catalog);
      // The recorded checks: some of those files, the ones that hold them.
      if (outcome.attempt.kind === "recorded checks") for (const file of outcome.files) expect(whole, runName(run)).toContain(file);
      else if (everywhere && outcome.files.length === sample.length) expect(outcome.files, runName(run)).toEqual(sample);
      else expect(outcome.files, runName(run)).toEqual(whole);
      if (everywhere && outcome.attempt.kind !== "recorded checks")
        for (const file of CROSS_CUTTING_SAMPLE) expect(outcome.files, runName(run)).toContain(file);
      for (const id of everywhere ? [] : run.proves) {
        const naming = outcome.files.filter((file) => readFileSync(join(ROOT, file), "utf8").includes(`"${id}"`));
        expect(naming.length, `${runName(run)}: a file of the run names ${id}`).toBeGreaterThan(0);
      }
      // The requirements the run's files leave out are reported skipped, never passed or failed.
      const outside = outcome.summary.requirements.filter((r) => r.checks === 0 && r.status !== "skipped" && r.status !== "not_applicable");
      expect(
        outside.map((r) => r.id),
        runName(run),
      ).toEqual([]);
    }
  });
});
