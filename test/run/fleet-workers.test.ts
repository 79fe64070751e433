// How many workers a fleet's one vitest instance gets (src/run/workers.ts fleetWorkers): as many as its
// nodes would get alone, up to LATENCY_BOUND_WORKERS (or the cores) when their runs are bound by CPU,
// and up to what the cores carry when they wait on the network; --workers when given; never more than --concurrency. Which runs wait on the
// network is the probe's to say (target-probe-timing.test.ts).

import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import {
  CPU_BOUND_WORKERS_AT_LEAST,
  fleetWorkers,
  LATENCY_BOUND_FLEET_WORKERS_PER_CORE,
  LATENCY_BOUND_WORKERS,
  type RunBound,
} from "../../src/run/workers.ts";

const cores = availableParallelism();
const bounds = (n: number, bound: RunBound): RunBound[] => Array.from({ length: n }, () => bound);

describe("a fleet's workers", () => {
  it("are what the nodes bound by CPU would get alone, up to LATENCY_BOUND_WORKERS or the cores", () => {
    const each = Math.max(CPU_BOUND_WORKERS_AT_LEAST, cores - 1);
    for (const n of [1, 2, 10, 40])
      expect(fleetWorkers({ concurrency: 64 }, bounds(n, "cpu")), `${n} nodes`).toBe(
        Math.max(cores, Math.min(each * n, LATENCY_BOUND_WORKERS)),
      );
    expect(fleetWorkers({ concurrency: 64 }, bounds(1, "cpu"))).toBe(Math.max(cores, each));
    expect(fleetWorkers({ concurrency: 64 }, bounds(10, "cpu"))).toBe(Math.max(cores, LATENCY_BOUND_WORKERS));
  });

  it("are what the latency-bound nodes would get alone, up to what the cores carry", () => {
    const carried = cores * LATENCY_BOUND_FLEET_WORKERS_PER_CORE;
    expect(fleetWorkers({ concurrency: 64 }, ["latency"])).toBe(Math.min(LATENCY_BOUND_WORKERS, carried));
    expect(fleetWorkers({ concurrency: 64 }, ["latency", "cpu"])).toBe(Math.min(LATENCY_BOUND_WORKERS, carried));
    for (let n = 1; n <= 40; n++) {
      const workers = fleetWorkers({ concurrency: 1_000 }, bounds(n, "latency"));
      expect(workers, `${n} nodes`).toBe(Math.min(LATENCY_BOUND_WORKERS * n, carried));
    }
    expect(carried).toBeGreaterThan(cores);
  });

  it("are --workers when given, and never more than --concurrency or fewer than one", () => {
    expect(fleetWorkers({ concurrency: 16, workers: 3 }, bounds(10, "latency"))).toBe(3);
    expect(fleetWorkers({ concurrency: 16, workers: 3 }, bounds(10, "cpu"))).toBe(3);
    expect(fleetWorkers({ concurrency: 2 }, bounds(10, "latency"))).toBe(2);
    expect(fleetWorkers({ concurrency: 1 }, bounds(10, "cpu"))).toBe(1);
  });
});
