// The command's run shape: how many workers and what share of --concurrency each gets, and the phase
// clock behind summary.json's `phases`.

import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { nativeImports } from "../../src/run/vitest-run.ts";
import { concurrencyPerWorker, CPU_BOUND_WORKERS_AT_LEAST, LATENCY_BOUND_WORKERS, suiteWorkers } from "../../src/run/workers.ts";
import { PhaseClock } from "../../src/run/phases.ts";

describe("suiteWorkers and concurrencyPerWorker", () => {
  it("runs at least two workers on CPU, more when it waits on the network, and never more than --concurrency", () => {
    expect(suiteWorkers(1, { latencyBound: true })).toBe(1);
    expect(suiteWorkers(1, { latencyBound: false })).toBe(1);
    expect(suiteWorkers(16, { latencyBound: false })).toBe(Math.max(CPU_BOUND_WORKERS_AT_LEAST, availableParallelism() - 1));
    expect(suiteWorkers(16, { latencyBound: true })).toBe(Math.max(LATENCY_BOUND_WORKERS, availableParallelism() - 1));
  });

  it("takes --workers instead of its own choice, still within --concurrency", () => {
    expect(suiteWorkers(16, { latencyBound: true, asked: 2 })).toBe(2);
    expect(suiteWorkers(16, { latencyBound: false, asked: 3 })).toBe(3);
    expect(suiteWorkers(2, { latencyBound: false, asked: 3 })).toBe(2);
    expect(suiteWorkers(16, { latencyBound: false, asked: 1 })).toBe(1);
  });

  it("parses --workers as a positive integer", async () => {
    const { parseConformanceArgs } = await import("../../src/cli/args.ts");
    const { UsageError } = await import("../../src/harness/usage-error.ts");
    expect(parseConformanceArgs(["--workers", "2"], {})).toMatchObject({ workers: 2 });
    expect(parseConformanceArgs([], {})).not.toHaveProperty("workers");
    expect(() => parseConformanceArgs(["--workers", "0"], {})).toThrow(UsageError);
  });

  it("shares --concurrency among the workers so that together they keep within it", () => {
    for (const [concurrency, workers] of [
      [16, 4],
      [16, 3],
      [2, 4],
      [1, 1],
    ] as const) {
      const each = concurrencyPerWorker(concurrency, workers);
      expect(each).toBeGreaterThanOrEqual(1);
      if (concurrency >= workers) expect(each * workers).toBeLessThanOrEqual(concurrency);
    }
  });
});

describe("nativeImports", () => {
  it("names every compiled module under the root but the suite files, which vitest's runner collects", () => {
    const native = nativeImports("/opt/pkg/dist/");
    for (const file of ["src/harness/index.js", "src/codec/bcs.js", "reporters/summary.js", "suites/support/ledger-window.js"]) {
      expect(native.test(`/opt/pkg/dist/${file}`), file).toBe(true);
    }
    for (const file of [
      "/opt/pkg/dist/suites/get-table-item.test.js",
      "/opt/pkg/dist/properties/cursors.test.js",
      "/opt/pkg/dist/src/harness/index.ts",
      "/opt/pkg/distant/src/a.js",
      "/opt/other/src/a.js",
    ]) {
      expect(native.test(file), file).toBe(false);
    }
  });

  it("takes a root's special characters as they are", () => {
    expect(nativeImports("/tmp/a+b (1)").test("/tmp/a+b (1)/src/x.js")).toBe(true);
    expect(nativeImports("/tmp/a+b (1)").test("/tmp/aab 1/src/x.js")).toBe(false);
  });
});

describe("PhaseClock", () => {
  it("gives each phase the time since the end of the one before, and adds up repeated phases", () => {
    const clock = new PhaseClock();
    clock.end("processStart", 100);
    clock.end("target", 350);
    clock.end("checks", 1_000);
    clock.end("checks", 1_200);
    clock.end("reports", 1_190);
    expect(clock.phases).toEqual({ processStart: 100, target: 250, checks: 850, reports: 0 });
  });
});
