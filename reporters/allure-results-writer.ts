// The allure-vitest reporter, writing its results without fsync, and with a check's labels and evidence
// made here rather than in the workers. Its stock writer publishes every file atomically and fsyncs it
// (a temporary file, fsync, rename), a disk flush for every one of a run's hundreds of result files at
// its end, which is for results that must survive a crash. Here the results directory is the run's private scratch, read by the Allure generator right after the run
// and deleted with the run, so plain writes are enough.

import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestModule, Vitest } from "vitest/node";
import AllureVitestReporter from "allure-vitest/reporter";
import { FileSystemWriter } from "allure-js-commons/sdk/reporter";
import type { RequirementCatalog } from "../src/harness/requirements.ts";
import { allureEvidence } from "./allure-evidence.ts";

class ScratchWriter extends FileSystemWriter {
  readonly #dir: string;

  constructor(resultsDir: string) {
    super({ resultsDir });
    this.#dir = resultsDir;
    mkdirSync(resultsDir, { recursive: true });
  }

  override writeResult(result: { uuid: string }): void {
    writeFileSync(join(this.#dir, `${result.uuid}-result.json`), JSON.stringify(result));
  }

  override writeGroup(result: { uuid: string }): void {
    writeFileSync(join(this.#dir, `${result.uuid}-container.json`), JSON.stringify(result));
  }

  override writeAttachment(distFileName: string, content: Buffer): void {
    writeFileSync(join(this.#dir, distFileName), content);
  }

  override writeAttachmentFromPath(distFileName: string, from: string): void {
    copyFileSync(from, join(this.#dir, distFileName));
  }
}

export class AllureResultsReporter extends AllureVitestReporter {
  readonly #resultsDir: string;
  readonly #catalog: RequirementCatalog;

  constructor(resultsDir: string, catalog: RequirementCatalog) {
    super({ resultsDir });
    this.#resultsDir = resultsDir;
    this.#catalog = catalog;
    // No Allure runtime in the workers: allure-vitest would add its setup file and wrap the runner of
    // every project so that each check labels itself (about 1 CPU-s of a whole-suite run, most of it in
    // the worker that runs the checks). Its two steps are private in its types: switched off here, on
    // the instance. The labels and evidence are made from the task instead (handleTask).
    Object.assign(this, { registerSetupFile: () => undefined, enableConcurrencySupport: () => undefined });
  }

  override handleTask(task: Task): void {
    if (task.type === "test") {
      const id = task.meta.requirement;
      const meta = task.meta.conformance;
      if (id !== undefined && meta !== undefined && this.#catalog.has(id)) {
        (task.meta as { allureRuntimeMessages?: unknown }).allureRuntimeMessages = allureEvidence(
          this.#catalog.get(id),
          meta,
          task.result?.startTime,
        );
      }
    }
    super.handleTask(task);
  }

  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    // The runtime is private in allure-vitest's types; its writer is the one field replaced.
    const runtime = (this as unknown as { allureReporterRuntime?: { writer: unknown } }).allureReporterRuntime;
    if (runtime !== undefined) runtime.writer = new ScratchWriter(this.#resultsDir);
  }

  // allure-vitest writes every result at the run's end (0.4-0.7 s of this process's CPU between the last
  // check and the reports); a file's results are final when the file ends, so they are written then,
  // while the worker runs the next file, and the run's end writes only those of files it never ended.
  readonly #written = new Set<Task>();

  onTestModuleEnd(testModule: TestModule): void {
    const task = taskOf(testModule);
    this.handleTask(task);
    this.#written.add(task);
  }

  override onTestRunEnd(tests: ReadonlyArray<TestModule>): void {
    super.onTestRunEnd(tests.filter((test) => !this.#written.has(taskOf(test))));
  }
}

type Task = Parameters<AllureVitestReporter["handleTask"]>[0];

/** The runner's task behind a module: what allure-vitest reads (vitest keeps it off TestModule's public type). */
function taskOf(testModule: TestModule): Task {
  return (testModule as unknown as { readonly task: Task }).task;
}
