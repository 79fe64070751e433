// The run engine's vitest reporter: it reads what every check recorded in its test's meta, prints one
// progress line per file, and at the end makes the run's outcome (src/outcome/aggregate.ts) and lists
// every check with its status for junit.xml's --junit-per-check form. Files that fail to load, checks that die outside the harness (a
// vitest timeout, a hook error) and unhandled errors become run errors or failures: never silence. A
// check that never ran (the run was stopped, or --only left it out) is skipped with the reason, never
// passed.

import { relative, sep } from "node:path";
import type { SerializedError } from "vitest";
import type { Reporter, TestCase, TestModule, TestRunEndReason } from "vitest/node";
import type { RequirementCatalog } from "../harness/requirements.ts";
import { failingStatus, type CheckResult, type ResultStatus } from "../harness/results.ts";
import type { Evidence, Interruption, RunError, RunOutcome } from "../outcome/run-outcome.ts";
import { aggregateRequirements } from "../outcome/aggregate.ts";
import type { JunitCase } from "../../reporters/junit-report.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { UnknownMemberTally } from "../harness/unknown-member-tally.ts";
import { ForeignPrefixTally } from "../harness/foreign-header-prefix.ts";
import { ContentCodingTally } from "../harness/content-coding-tally.ts";
import type { LoadProfile } from "../harness/load-profile.ts";

export interface RequirementReporterOptions {
  readonly catalog: RequirementCatalog;
  readonly quiet?: boolean;
  /** Where progress goes (default stdout). */
  readonly write?: (text: string) => void;
  /** Reason given to requirements nothing exercised (default "untested"). */
  readonly untestedReason?: string;
  /** The suite files the run was to run (relative to the root), so that files vitest never started are listed too. */
  readonly files?: readonly string[];
  /**
   * The folder the run's files are named relative to, when it is not vitest's root: a fleet's node runs
   * its own copy of the suites (src/run/run-folders.ts), whose files it names as a one-node run does.
   */
  readonly root?: string;
}

/** What one check came to, for the progress line and junit.xml. */
interface CaseStatus {
  readonly status: ResultStatus;
  readonly detail?: string;
}

export class RequirementReporter implements Reporter {
  readonly #options: RequirementReporterOptions;
  readonly #evidence: Evidence[] = [];
  readonly #errors: RunError[] = [];
  /** Every module vitest queued, in order, so that files it never started are still listed. */
  readonly #modules = new Map<string, TestModule>();
  /** The junit cases of every file that ended, taken when it ended. */
  readonly #endedCases = new Map<string, JunitCase[]>();
  /** What every check's task meta said of members not in the contract, summed (bounded like each check's). */
  readonly #unknownMembers = new UnknownMemberTally();
  /** Ledger-header prefixes other than the run's that any check's responses carried. */
  readonly #foreignPrefixes = new ForeignPrefixTally();
  /** The content codings any check's answers came in, asked or not. */
  readonly #contentCodings = new ContentCodingTally();
  /** The load mode's figures, from the one check of the run that ran the load. */
  #loadProfile: LoadProfile | undefined;
  #requests = 0;
  #retries = 0;
  #stopped: string | undefined;
  #outcome: RunOutcome | undefined;

  constructor(options: RequirementReporterOptions) {
    this.#options = options;
  }

  /** Requests the command sent besides the suites' (the target probe), counted with theirs. */
  countRequestsBefore(requests: number, retries: number): void {
    this.#requests += requests;
    this.#retries += retries;
  }

  /** Available after the run ended. */
  get outcome(): RunOutcome | undefined {
    return this.#outcome;
  }

  /** The run is being cut short (--max-duration, a signal): checks that did not run are skipped with `reason`. */
  stop(reason: string): void {
    this.#stopped ??= reason;
  }

  /** The outcome, even when vitest never reported the end of the run (it is then a run error, unless the run was stopped). */
  finalize(): RunOutcome {
    if (!this.#outcome) {
      if (this.#stopped === undefined) this.#errors.push({ message: "the run did not finish (crash): results are partial" });
      this.#outcome = this.#aggregate();
    }
    return this.#outcome;
  }

  /** A file's name in the reports: relative to vitest's root, or to the run's own folder. */
  #fileOf(m: TestModule): string {
    const root = this.#options.root;
    return root === undefined ? m.relativeModuleId : relative(root, m.moduleId).split(sep).join("/");
  }

  /** Every check vitest knew of, with its status; files never collected appear as one skipped entry. Call after finalize. */
  junitCases(): JunitCase[] {
    const files = [...new Set([...this.#modules.keys(), ...(this.#options.files ?? [])])];
    const cases = files.flatMap((file) => {
      const ended = this.#endedCases.get(file);
      if (ended !== undefined) return ended;
      const m = this.#modules.get(file);
      const live = m === undefined ? [] : this.#casesOf(m);
      return live.length > 0
        ? live
        : [{ file, name: "(every check of the file)", status: "skipped" as const, durationMs: 0, detail: this.#notRunReason() }];
    });
    for (const e of this.#errors.filter((e) => e.file === undefined))
      cases.push({ file: "(run)", name: "run error", status: "error", durationMs: 0, detail: e.message });
    return cases;
  }

  #casesOf(m: TestModule): JunitCase[] {
    const file = this.#fileOf(m);
    const cases: JunitCase[] = [];
    const loadErrors = m.errors();
    if (loadErrors.length > 0)
      cases.push({ file, name: "(loading the file)", status: "error", durationMs: 0, detail: loadErrors.map((e) => e.message).join("\n") });
    for (const test of m.children.allTests()) {
      const { status, detail } = this.#caseStatus(test);
      const requirement = test.meta().requirement;
      cases.push({
        file,
        name: test.fullName,
        ...(requirement === undefined ? {} : { requirement }),
        status,
        durationMs: Math.round(test.diagnostic()?.duration ?? 0),
        ...(detail === undefined ? {} : { detail }),
      });
    }
    return cases;
  }

  #aggregate(): RunOutcome {
    const stopped = this.#stopped;
    const untested = this.#options.untestedReason ?? "untested";
    const untestedReason =
      stopped === undefined ? untested : untested === "untested" ? `not run: ${stopped}` : `${untested}, or not run: ${stopped}`;
    const outcome = aggregateRequirements(
      this.#options.catalog,
      this.#evidence,
      this.#errors,
      this.#requests,
      untestedReason,
      this.#retries,
    );
    const interruption: Interruption | undefined = stopped === undefined ? undefined : { kind: "stopped", reason: stopped };
    const unknownMembers = this.#unknownMembers.size === 0 ? undefined : this.#unknownMembers.seen();
    const foreignHeaderPrefixes = this.#foreignPrefixes.seen();
    const contentCodings = this.#contentCodings.seen();
    return {
      ...outcome,
      ...(interruption === undefined ? {} : { interruption }),
      ...(unknownMembers === undefined ? {} : { unknownMembers }),
      ...(foreignHeaderPrefixes === undefined ? {} : { foreignHeaderPrefixes }),
      ...(contentCodings === undefined ? {} : { contentCodings }),
      ...(this.#loadProfile === undefined ? {} : { loadProfile: this.#loadProfile }),
    };
  }

  #notRunReason(): string {
    return this.#stopped === undefined ? "not run" : `not run: ${this.#stopped}`;
  }

  /** A check's own status: from what it recorded; one that recorded nothing did not run. */
  #caseStatus(test: TestCase): CaseStatus {
    const results = test.meta().conformance?.results ?? [];
    const state = test.result().state;
    const failed = results.filter((r) => r.status === "failed");
    if (failed.length > 0) return { status: "failed", detail: failed.flatMap((r) => r.failures.map((f) => f.message)).join("\n\n") };
    const own = results[0];
    if (own !== undefined) {
      if (own.status === "warned") return { status: "warned", detail: own.failures.map((f) => f.message).join("\n\n") };
      return own.reason === undefined ? { status: own.status } : { status: own.status, detail: own.reason };
    }
    if (state === "failed") return { status: "failed", detail: (test.result().errors ?? []).map((e) => e.message).join("\n") || "failed" };
    if (state === "passed") return { status: "passed" };
    // Left out by --only, --skip or --level: "not selected", not "not run".
    const notSelected = test.meta().notSelected;
    if (notSelected !== undefined) return { status: "skipped", detail: notSelected };
    return { status: "skipped", detail: this.#notRunReason() };
  }

  #print(line: string): void {
    if (this.#options.quiet) return;
    (this.#options.write ?? ((s: string) => process.stdout.write(s)))(`${escapeControls(line)}\n`);
  }

  onTestModuleQueued(testModule: TestModule): void {
    this.#modules.set(this.#fileOf(testModule), testModule);
  }

  onTestModuleCollected(testModule: TestModule): void {
    this.#modules.set(this.#fileOf(testModule), testModule);
  }

  onTestCaseResult(testCase: TestCase): void {
    const file = this.#fileOf(testCase.module);
    const meta = testCase.meta().conformance;
    const result = testCase.result();
    if (meta) {
      this.#requests += meta.requests.length;
      for (const r of meta.requests) this.#retries += r.retries ?? 0;
      for (const r of meta.results) this.#evidence.push({ test: testCase.name, file, result: r });
      if (meta.unknownMembers !== undefined) this.#unknownMembers.merge(meta.unknownMembers);
      if (meta.foreignHeaderPrefixes !== undefined) this.#foreignPrefixes.merge(meta.foreignHeaderPrefixes);
      if (meta.contentCodings !== undefined) this.#contentCodings.merge(meta.contentCodings);
      // One check per run runs the load. Figures of two loads cannot be summed (each has its own wall
      // time), so were there ever more than one, the last one seen is the one reported.
      if (meta.loadProfile !== undefined) {
        this.#loadProfile = meta.loadProfile;
        // The load's exchanges are counted by its profile, not kept as records.
        this.#requests += meta.loadProfile.requests;
      }
    }
    if (result.state !== "failed") return;
    // A failed test whose own requirement has no failure recorded died outside the harness.
    const id = testCase.meta().requirement;
    const message = (result.errors ?? []).map((e) => e.message).join("\n") || "failed without an error message";
    const ownFailureRecorded = meta?.results.some((r) => r.requirement === id && r.status !== "passed");
    const anyFailureRecorded = meta?.results.some((r) => r.status === "failed");
    if (ownFailureRecorded || anyFailureRecorded) return;
    if (id !== undefined && this.#options.catalog.has(id)) {
      const r: CheckResult = {
        requirement: id,
        status: failingStatus(this.#options.catalog.get(id).level),
        failures: [{ message: `[${id}] the check did not finish: ${message}`, curl: lastCurl(meta?.requests) }],
      };
      this.#evidence.push({ test: testCase.name, file, result: r });
    } else {
      this.#errors.push({ file, message: `${testCase.fullName}: ${message}` });
    }
  }

  onTestModuleEnd(testModule: TestModule): void {
    const file = this.#fileOf(testModule);
    this.#endedCases.set(file, this.#casesOf(testModule));
    const loadErrors = testModule.errors();
    if (loadErrors.length > 0) {
      this.#print(`✗ ${file}: failed to load or crashed: ${loadErrors.map((e) => e.message).join("; ")}`);
      return;
    }
    this.#modules.set(file, testModule);
    const counts = new Map<string, number>();
    const notRun = new Set<string>();
    for (const test of testModule.children.allTests()) {
      const { status, detail } = this.#caseStatus(test);
      counts.set(status, (counts.get(status) ?? 0) + 1);
      if (status === "skipped" && detail !== undefined && detail.startsWith("not run")) notRun.add(detail);
    }
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const parts = ["passed", "failed", "warned", "skipped", "not_applicable"]
      .filter((s) => counts.has(s))
      .map((s) => `${counts.get(s)} ${s.replace("_", " ")}${s === "skipped" && notRun.size > 0 ? ` (${[...notRun].join("; ")})` : ""}`);
    const mark = counts.has("failed") ? "✗" : counts.has("warned") ? "!" : counts.has("passed") ? "✓" : "–";
    this.#print(
      `${mark} ${file}  ${total} check${total === 1 ? "" : "s"}: ${parts.join(", ") || "none"} (${Math.round(testModule.diagnostic().duration)} ms)`,
    );
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    for (const m of testModules) {
      const file = this.#fileOf(m);
      for (const e of m.errors()) this.#errors.push({ file, message: `failed to load or crashed: ${e.message}` });
      for (const suite of m.children.allSuites()) {
        for (const e of suite.errors()) this.#errors.push({ file, message: `${suite.fullName}: ${e.message}` });
      }
      const state = m.state();
      // A stopped run is reported once, as its interruption; its unfinished files are not errors each.
      if ((state === "queued" || state === "pending") && this.#stopped === undefined)
        this.#errors.push({ file, message: "did not run to its end" });
    }
    for (const e of unhandledErrors) this.#errors.push({ message: `unhandled error: ${e.message}` });
    if (reason === "interrupted" && this.#stopped === undefined)
      this.#errors.push({ message: "the run was interrupted before it finished" });
    this.#outcome = this.#aggregate();
  }
}

/** Check names are `${id}: ${text}`. */
function lastCurl(requests: readonly { curl: string }[] | undefined): string | null {
  return requests?.[requests.length - 1]?.curl ?? null;
}
