// How a fleet classes its targets before choosing how many runs go at once (src/cli/fleet-parallelism.ts):
// a remote target is latency-bound without being contacted; a loopback one whose answers are slow is
// latency-bound; one whose probe fails is CPU-bound, the default. Servers listen on 127.0.0.1 only.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CPU_BOUND_RUNS, LATENCY_BOUND_RUNS, LATENCY_BOUND_WORKERS_PER_CORE, runBoundOf, runsAtOnce, workersPerRun } from "../../src/cli/fleet-parallelism.ts";
import { LATENCY_BOUND_WORKERS } from "../../src/cli/conformance-vitest.ts";
import { SLOW_LINK_ANSWER_MS } from "../../src/cli/conformance-target.ts";

let slow: Server;
let slowUrl: string;
let requests = 0;

beforeAll(async () => {
  // Answers every request after the time that is a slow link's whatever this machine is doing (the
  // finer rules of the probe's timing are target-probe-timing.test.ts's).
  slow = createServer((_req, res) => {
    requests += 1;
    setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("{}"), SLOW_LINK_ANSWER_MS + 100);
  });
  await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => slow.close(() => resolve())));

describe("a fleet's parallelism", () => {
  it("runs latency-bound targets many at once and CPU-bound ones by the cores", () => {
    expect(runsAtOnce("latency")).toBe(LATENCY_BOUND_RUNS);
    expect(runsAtOnce("cpu")).toBe(CPU_BOUND_RUNS);
    expect(LATENCY_BOUND_RUNS).toBeGreaterThan(CPU_BOUND_RUNS);
  });

  it("gives a node's run in a fleet one worker when bound by CPU, and when it waits on the network its share of what the cores carry", () => {
    const carried = availableParallelism() * LATENCY_BOUND_WORKERS_PER_CORE;
    expect(workersPerRun("cpu", 1)).toBe(1);
    expect(workersPerRun("cpu", 10)).toBe(1);
    // Few runs at once: each as many as a run alone gets.
    expect(workersPerRun("latency", 1)).toBe(LATENCY_BOUND_WORKERS);
    // Many: never more workers in all than the cores carry, and never none.
    expect(workersPerRun("latency", carried * 4)).toBe(1);
    for (let together = 1; together <= 40; together++) {
      const workers = workersPerRun("latency", together);
      expect(workers >= 1 && workers <= LATENCY_BOUND_WORKERS && (workers === 1 || workers * together <= carried), `${together} runs: ${workers} workers each`).toBe(true);
    }
  });

  it("classes a remote target latency-bound without contacting it", async () => {
    // A name under .invalid never resolves: had it been contacted, the probe would fail and say "cpu".
    expect(await runBoundOf("http://node.invalid:8080/v1")).toBe("latency");
  });

  it("classes a loopback target that answers slowly latency-bound, after probing it", async () => {
    const before = requests;
    expect(await runBoundOf(slowUrl)).toBe("latency");
    expect(requests).toBeGreaterThan(before);
  });

  it("classes a loopback target whose probe fails CPU-bound", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await runBoundOf(`http://127.0.0.1:${port}/v1`)).toBe("cpu");
  });
});
