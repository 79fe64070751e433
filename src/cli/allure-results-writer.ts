// The allure-vitest reporter, writing its results without fsync. Its stock writer publishes every file
// atomically and fsyncs it (a temporary file, fsync, rename): about 2 s at the end of a conformance run
// for its ~300 files. Here the results directory is the run's private scratch, read by the Allure
// generator right after the run and deleted with the run, so plain writes are enough.

import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Vitest } from "vitest/node";
import AllureVitestReporter from "allure-vitest/reporter";
import { FileSystemWriter } from "allure-js-commons/sdk/reporter";

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

  constructor(resultsDir: string) {
    super({ resultsDir });
    this.#resultsDir = resultsDir;
  }

  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    // The runtime is private in allure-vitest's types; its writer is the one field replaced.
    const runtime = (this as unknown as { allureReporterRuntime?: { writer: unknown } }).allureReporterRuntime;
    if (runtime !== undefined) runtime.writer = new ScratchWriter(this.#resultsDir);
  }
}
