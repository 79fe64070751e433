// Whether a run's workers are known before its target answers (src/run/workers.ts): then they start
// at once and wait for the target's facts. Only a loopback target's answers choose them, and only when
// neither --workers nor --rate-limit does.

import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { LATENCY_BOUND_WORKERS, runWorkers, workersBeforeAnswers } from "../../src/run/workers.ts";

const flags = { concurrency: 16 };
const onCpu = Math.max(1, availableParallelism() - 1);

describe("workersBeforeAnswers", () => {
  it("the embedded node's run: chosen at once, as a run bound by this machine's CPU", () => {
    expect(workersBeforeAnswers(flags)).toBe(onCpu);
  });

  it("a remote target: chosen at once by its address, as a run that waits on the network", () => {
    expect(workersBeforeAnswers({ ...flags, target: "https://fullnode.example.org/v1" })).toBe(
      Math.max(LATENCY_BOUND_WORKERS, availableParallelism() - 1),
    );
    expect(workersBeforeAnswers({ ...flags, target: "http://10.0.0.7:8080/v1" })).toBe(
      Math.max(LATENCY_BOUND_WORKERS, availableParallelism() - 1),
    );
  });

  it("a loopback target: its answers choose, unless --workers or --rate-limit does", () => {
    for (const target of ["http://127.0.0.1:8080/v1", "http://localhost:8080/v1", "http://[::1]:8080/v1"]) {
      expect(workersBeforeAnswers({ ...flags, target }), target).toBeUndefined();
      expect(workersBeforeAnswers({ ...flags, target, workers: 3 }), target).toBe(3);
      expect(workersBeforeAnswers({ ...flags, target, rateLimit: 20 }), target).toBe(1);
    }
  });

  it("--workers holds whatever the target, within --concurrency", () => {
    expect(workersBeforeAnswers({ ...flags, workers: 2 })).toBe(2);
    expect(workersBeforeAnswers({ ...flags, target: "https://fullnode.example.org/v1", workers: 1 })).toBe(1);
    expect(runWorkers({ concurrency: 2, workers: 5 }, true)).toBe(2);
  });
});
