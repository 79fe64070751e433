// Whether a run's workers are known before its target answers (src/run/workers.ts): then they start
// at once and wait for the target's facts. Only a loopback target's answers choose them, and only when
// --workers does not (--rate-limit leaves the choice to them: the workers keep to the one rate together).

import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import {
  CPU_BOUND_WORKERS_AT_LEAST,
  LATENCY_BOUND_CONCURRENCY,
  LATENCY_BOUND_WORKERS,
  runConcurrency,
  runWorkers,
  workersBeforeAnswers,
} from "../../src/run/workers.ts";

const flags = { concurrency: 16 };
const onCpu = Math.max(CPU_BOUND_WORKERS_AT_LEAST, availableParallelism() - 1);

describe("workersBeforeAnswers", () => {
  it("the embedded node's run: chosen at once, as a run bound by this machine's CPU", () => {
    expect(workersBeforeAnswers(flags, {})).toEqual({ workers: onCpu, concurrency: 16 });
  });

  it("a remote target: chosen at once by its address, as a run that waits on the network", () => {
    const waiting = { workers: Math.max(LATENCY_BOUND_WORKERS, availableParallelism() - 1), concurrency: LATENCY_BOUND_CONCURRENCY };
    expect(workersBeforeAnswers(flags, { target: "https://fullnode.example.org/v1" })).toEqual(waiting);
    expect(workersBeforeAnswers(flags, { target: "http://10.0.0.7:8080/v1" })).toEqual(waiting);
  });

  it("a loopback target: its answers choose, unless --workers does", () => {
    for (const target of ["http://127.0.0.1:8080/v1", "http://localhost:8080/v1", "http://[::1]:8080/v1"]) {
      expect(workersBeforeAnswers(flags, { target }), target).toBeUndefined();
      expect(workersBeforeAnswers({ ...flags, workers: 3 }, { target }), target).toEqual({ workers: 3, concurrency: 16 });
      expect(workersBeforeAnswers({ ...flags, rateLimit: 20 } as typeof flags, { target }), target).toBeUndefined();
    }
  });

  it("--workers holds whatever the target, within --concurrency", () => {
    expect(workersBeforeAnswers({ ...flags, workers: 2 }, {})?.workers).toBe(2);
    expect(workersBeforeAnswers({ ...flags, workers: 1 }, { target: "https://fullnode.example.org/v1" })?.workers).toBe(1);
    expect(runWorkers({ concurrency: 2, concurrencyGiven: true, workers: 5 }, true)).toEqual({ workers: 2, concurrency: 2 });
  });
});

describe("runConcurrency", () => {
  it("a run that waits on the network keeps more requests in flight, unless --concurrency says otherwise", () => {
    expect(runConcurrency(flags, false)).toBe(16);
    expect(runConcurrency(flags, true)).toBe(LATENCY_BOUND_CONCURRENCY);
    expect(runConcurrency({ concurrency: 16, concurrencyGiven: true }, true)).toBe(16);
    expect(runConcurrency({ concurrency: 100, concurrencyGiven: true }, true)).toBe(100);
    expect(runConcurrency({ ...flags, rateLimit: 20 } as typeof flags, true)).toBe(LATENCY_BOUND_CONCURRENCY);
  });
});
