// The reporter of a vitest instance that holds several conformance runs (src/run/run-folders.ts): it hands
// each event about a file, or a check of a file, to the reporters of the run that file belongs to, and
// the run's start and end to every run's, each run's end with its own files only.

import type { SerializedError } from "vitest";
import type { Reporter, TestCase, TestModule, TestRunEndReason, Vitest } from "vitest/node";

export class ReporterPerRun implements Reporter {
  /**
   * `runs`: each run's reporters by its name; `runOf`: the name of the run a file (an absolute path)
   * belongs to. An event about a file of no run is a bug of the caller, and throws.
   */
  constructor(
    private readonly runs: ReadonlyMap<string, readonly Reporter[]>,
    private readonly runOf: (file: string) => string | undefined,
  ) {}

  #nameOf(testModule: TestModule): string {
    const name = this.runOf(testModule.moduleId);
    if (name === undefined || !this.runs.has(name)) throw new Error(`no run holds ${testModule.moduleId}`);
    return name;
  }

  #of(testModule: TestModule): readonly Reporter[] {
    return this.runs.get(this.#nameOf(testModule)) ?? [];
  }

  onInit(vitest: Vitest): void {
    for (const reporters of this.runs.values()) for (const r of reporters) r.onInit?.(vitest);
  }

  onTestModuleQueued(testModule: TestModule): void {
    for (const r of this.#of(testModule)) void r.onTestModuleQueued?.(testModule);
  }

  onTestModuleCollected(testModule: TestModule): void {
    for (const r of this.#of(testModule)) void r.onTestModuleCollected?.(testModule);
  }

  onTestModuleStart(testModule: TestModule): void {
    for (const r of this.#of(testModule)) void r.onTestModuleStart?.(testModule);
  }

  onTestCaseReady(testCase: TestCase): void {
    for (const r of this.#of(testCase.module)) void r.onTestCaseReady?.(testCase);
  }

  onTestCaseResult(testCase: TestCase): void {
    for (const r of this.#of(testCase.module)) void r.onTestCaseResult?.(testCase);
  }

  onTestModuleEnd(testModule: TestModule): void {
    for (const r of this.#of(testModule)) void r.onTestModuleEnd?.(testModule);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    // An unhandled error belongs to no run in particular, so every run reports it (a run error, never a pass).
    for (const [name, reporters] of this.runs) {
      const own = testModules.filter((m) => this.#nameOf(m) === name);
      for (const r of reporters) void r.onTestRunEnd?.(own, unhandledErrors, reason);
    }
  }
}
