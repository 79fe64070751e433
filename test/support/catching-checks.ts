// Which checks of a run failed which requirements: every failed result a check recorded (its own, or
// a cross-cutting rule's judged on a response it received), and a check that did not finish failing
// its own requirement, as the run's RequirementReporter counts them. The fault self-check records them
// (test/self-check/fault-matrix.json) to re-run just those checks against each faulty node.

import type { Reporter, TestCase } from "vitest/node";

export interface CatchingCheck {
  /** The suite file, relative to the root (suites/x.test.ts). */
  readonly file: string;
  /** The check's name, `${id}: ${text}`, as `--only` matches it. */
  readonly name: string;
  /** A requirement the check's results failed. */
  readonly requirement: string;
}

export class CatchingChecks implements Reporter {
  readonly found: CatchingCheck[] = [];

  /** `fileOf` names a module of the run as the checkout does (suites/x.test.ts). */
  constructor(private readonly fileOf: (moduleId: string) => string) {}

  onTestCaseResult(testCase: TestCase): void {
    const failed = new Set((testCase.meta().conformance?.results ?? []).filter((r) => r.status === "failed").map((r) => r.requirement));
    const own = testCase.meta().requirement;
    if (own !== undefined && testCase.result().state === "failed") failed.add(own);
    const file = this.fileOf(testCase.module.moduleId);
    for (const requirement of failed) this.found.push({ file, name: testCase.name, requirement });
  }
}
