// Runs the suites with vitest's Node API and an inline configuration (the project's vitest.config.ts
// is for the self-tests and is not loaded): suites/ and properties/, worker threads, the requirement
// reporter, vitest's JUnit reporter and allure-vitest's. A hard cap cancels the run, and closing vitest
// is itself time-limited, so the command always gets to write its reports.

import { Writable } from "node:stream";
import type { Reporter } from "vitest/node";
import { createVitest } from "vitest/node";
import AllureVitestReporter from "allure-vitest/reporter";

export const SUITE_GLOBS = ["suites/**/*.test.ts", "properties/**/*.test.ts"];

export interface SuiteRunInput {
  readonly root: string;
  /** Globs of the suite files under root (default SUITE_GLOBS). */
  readonly include?: readonly string[];
  /** File filters (substrings of paths); empty: every file. */
  readonly files: readonly string[];
  readonly testNamePattern?: RegExp;
  readonly requirementReporter: Reporter;
  readonly junitFile: string;
  readonly allureResultsDir: string;
  /** vitest's own test timeout; checks set their own below it. */
  readonly testTimeoutMs: number;
  readonly maxDurationMs: number;
  /** 1 with --rate-limit, so the limit holds for the whole run. */
  readonly maxWorkers?: number;
}

export interface SuiteRunResult {
  /** The hard cap fired and the run was cancelled. */
  readonly capped: boolean;
  /** Closing vitest did not finish in time (workers left behind; the command exits anyway). */
  readonly closeTimedOut: boolean;
}

const CLOSE_GRACE_MS = 15_000;

export async function runSuites(input: SuiteRunInput): Promise<SuiteRunResult> {
  const vitest = await createVitest(
    "test",
    {
      config: false,
      root: input.root,
      include: [...(input.include ?? SUITE_GLOBS)],
      watch: false,
      run: true,
      passWithNoTests: true,
      // Threads (forks measured the same) without per-file isolation: importing the harness, codec and
      // validators takes ~0.7 s per file when every file re-imports them; shared, a worker pays it once
      // and its HTTP client, compiled contract and ledger mark serve every file it runs.
      pool: "threads",
      isolate: false,
      ...(input.maxWorkers === undefined ? {} : { maxWorkers: input.maxWorkers }),
      testTimeout: input.testTimeoutMs,
      hookTimeout: input.testTimeoutMs,
      teardownTimeout: 5_000,
      ...(input.testNamePattern === undefined ? {} : { testNamePattern: input.testNamePattern }),
      reporters: [
        input.requirementReporter,
        ["junit", { outputFile: input.junitFile, suiteName: "ledger-conformance" }],
        new AllureVitestReporter({ resultsDir: input.allureResultsDir }),
      ],
    },
    {},
    // vitest's own stdout (the JUnit reporter's "report written" line, banners) is not ours to print;
    // its errors go to stderr, which is kept.
    { stdout: new Writable({ write: (_chunk, _enc, done) => done() }) },
  );
  let capped = false;
  let cap: NodeJS.Timeout | undefined;
  // Resolves once the cap has fired and the cancelled run had a grace period to wind down.
  const capReached = new Promise<"capped">((resolve) => {
    cap = setTimeout(() => {
      capped = true;
      void vitest.cancelCurrentRun("keyboard-input");
      setTimeout(() => resolve("capped"), CLOSE_GRACE_MS).unref();
    }, input.maxDurationMs);
  });
  const run = vitest.start([...input.files]).then(
    () => "done" as const,
    (e: unknown) => {
      // No files matching the filters is not an error here: the report shows everything untested.
      if ((e as { code?: string }).code !== "VITEST_FILES_NOT_FOUND") throw e;
      return "done" as const;
    },
  );
  const ended = await Promise.race([run, capReached]);
  clearTimeout(cap);
  if (ended === "capped") return { capped, closeTimedOut: true };
  const closed = await Promise.race([
    vitest.close().then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), CLOSE_GRACE_MS).unref()),
  ]);
  return { capped, closeTimedOut: !closed };
}
