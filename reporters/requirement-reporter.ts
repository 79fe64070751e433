// The vitest reporter of the conformance run: it reads what every check recorded in its test's meta,
// prints one progress line per file, and at the end aggregates results per requirement. Files that
// fail to load, checks that die outside the harness (a vitest timeout, a hook error) and unhandled
// errors become run errors or failures: never silence.

import type { SerializedError } from "vitest";
import type { Reporter, TestCase, TestModule, TestRunEndReason } from "vitest/node";
import type { RequirementCatalog } from "../src/harness/requirements.ts";
import type { CheckResult } from "../src/harness/results.ts";
import { aggregateRequirements, type Evidence, type RunError, type RunOutcome } from "./aggregate.ts";

export interface RequirementReporterOptions {
  readonly catalog: RequirementCatalog;
  readonly quiet?: boolean;
  /** Where progress goes (default stdout). */
  readonly write?: (text: string) => void;
  /** Reason given to requirements nothing exercised (default "untested"). */
  readonly untestedReason?: string;
}

export class RequirementReporter implements Reporter {
  readonly #options: RequirementReporterOptions;
  readonly #evidence: Evidence[] = [];
  readonly #errors: RunError[] = [];
  #requests = 0;
  #outcome: RunOutcome | undefined;

  constructor(options: RequirementReporterOptions) {
    this.#options = options;
  }

  /** Available after the run ended. */
  get outcome(): RunOutcome | undefined {
    return this.#outcome;
  }

  /** The outcome, even when vitest never reported the end of the run (it is then a run error). */
  finalize(): RunOutcome {
    if (!this.#outcome) {
      this.#errors.push({ message: "the run did not finish (hard cap or crash): results are partial" });
      this.#outcome = aggregateRequirements(this.#options.catalog, this.#evidence, this.#errors, this.#requests, this.#options.untestedReason);
    }
    return this.#outcome;
  }

  #print(line: string): void {
    if (this.#options.quiet) return;
    (this.#options.write ?? ((s: string) => process.stdout.write(s)))(`${line}\n`);
  }

  onTestCaseResult(testCase: TestCase): void {
    const file = testCase.module.relativeModuleId;
    const meta = testCase.meta().conformance;
    const result = testCase.result();
    if (meta) {
      this.#requests += meta.requests.length;
      for (const r of meta.results) this.#evidence.push({ test: testCase.name, file, result: r });
    }
    if (result.state !== "failed") return;
    // A failed test whose own requirement has no failure recorded died outside the harness.
    const id = requirementIdOf(testCase.name);
    const message = (result.errors ?? []).map((e) => e.message).join("\n") || "failed without an error message";
    const ownFailureRecorded = meta?.results.some((r) => r.requirement === id && r.status !== "passed");
    const anyFailureRecorded = meta?.results.some((r) => r.status === "failed");
    if (ownFailureRecorded || anyFailureRecorded) return;
    if (id !== undefined && this.#options.catalog.has(id)) {
      const level = this.#options.catalog.get(id).level;
      const r: CheckResult = {
        requirement: id,
        status: level === "MUST" ? "failed" : "warned",
        failures: [{ message: `[${id}] the check did not finish: ${message}`, curl: lastCurl(meta?.requests) }],
      };
      this.#evidence.push({ test: testCase.name, file, result: r });
    } else {
      this.#errors.push({ file, message: `${testCase.fullName}: ${message}` });
    }
  }

  onTestModuleEnd(testModule: TestModule): void {
    const file = testModule.relativeModuleId;
    const loadErrors = testModule.errors();
    if (loadErrors.length > 0) {
      this.#print(`✗ ${file}: failed to load or crashed: ${loadErrors.map((e) => e.message).join("; ")}`);
      return;
    }
    const counts = new Map<string, number>();
    for (const test of testModule.children.allTests()) {
      const results = test.meta().conformance?.results ?? [];
      const own = results[0]?.status ?? (test.result().state === "failed" ? "failed" : test.result().state === "skipped" ? "skipped" : "passed");
      const worst = results.some((r) => r.status === "failed") ? "failed" : own;
      counts.set(worst, (counts.get(worst) ?? 0) + 1);
    }
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const parts = ["passed", "failed", "warned", "skipped", "not_applicable"].filter((s) => counts.has(s)).map((s) => `${counts.get(s)} ${s.replace("_", " ")}`);
    const mark = counts.has("failed") ? "✗" : counts.has("warned") ? "!" : "✓";
    this.#print(`${mark} ${file}  ${total} check${total === 1 ? "" : "s"}: ${parts.join(", ") || "none"} (${Math.round(testModule.diagnostic().duration)} ms)`);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    for (const m of testModules) {
      const file = m.relativeModuleId;
      for (const e of m.errors()) this.#errors.push({ file, message: `failed to load or crashed: ${e.message}` });
      for (const suite of m.children.allSuites()) {
        for (const e of suite.errors()) this.#errors.push({ file, message: `${suite.fullName}: ${e.message}` });
      }
      const state = m.state();
      if (state === "queued" || state === "pending") this.#errors.push({ file, message: "did not run to its end" });
    }
    for (const e of unhandledErrors) this.#errors.push({ message: `unhandled error: ${e.message}` });
    if (reason === "interrupted") this.#errors.push({ message: "the run was interrupted before it finished" });
    this.#outcome = aggregateRequirements(this.#options.catalog, this.#evidence, this.#errors, this.#requests, this.#options.untestedReason);
  }
}

/** Check names are `${id}: ${text}`. */
export function requirementIdOf(testName: string): string | undefined {
  const match = /^([0-9]+(?:\.[0-9]+)*\/[a-z0-9-]+): /.exec(testName);
  return match?.[1];
}

function lastCurl(requests: readonly { curl: string }[] | undefined): string | null {
  return requests?.[requests.length - 1]?.curl ?? null;
}
