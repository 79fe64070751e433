// One --rate-limit for all the workers that run a fleet node's files (src/harness/shared-rate-limit.ts):
// limits that share a buffer send no faster together than the rate, each request waits no longer than
// its turn, and the buffer reaches a worker thread started after the command shared it as the same memory.

import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { shareRateLimit, SharedRateLimit, sharedRateLimit } from "../../src/harness/shared-rate-limit.ts";
import { workerSharedKey } from "../../src/harness/worker-shared.ts";

describe("SharedRateLimit", () => {
  it("spaces the requests of every limit on its buffer by 1/rate, whichever limit they go through", async () => {
    const buffer = SharedRateLimit.buffer();
    const limits = [0, 1, 2].map(() => new SharedRateLimit(buffer, 50));
    const sent: number[] = [];
    const started = Date.now();
    await Promise.all(Array.from({ length: 12 }, (_, i) => (limits[i % 3] as SharedRateLimit).wait().then(() => sent.push(Date.now()))));
    sent.sort((a, b) => a - b);
    // 12 requests at 50 per second: the k-th goes no sooner than k gaps of 20 ms after the first could
    // (measured from the start: the first's own time is taken only once the calls above have all run),
    // and none waits far longer (a loaded machine delays timers by hundreds of milliseconds).
    sent.forEach((at, k) => expect(at - started, `request ${k}`).toBeGreaterThanOrEqual(k * 20));
    expect((sent.at(-1) as number) - started).toBeLessThan(11 * 20 + 800);
  });

  it("lets a request go at once when none went for a while", async () => {
    const limit = new SharedRateLimit(SharedRateLimit.buffer(), 1);
    await limit.wait();
    let now = Date.now() + 5_000;
    const before = Date.now();
    await limit.wait(() => now++);
    // At once: the limit's turn would have been a second away.
    expect(Date.now() - before).toBeLessThan(500);
  });

  it("refuses a rate that is not a positive number", () => {
    for (const rate of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new SharedRateLimit(SharedRateLimit.buffer(), rate), String(rate)).toThrow(RangeError);
  });

  it("is shared with the worker threads started after the command shares it, as the same memory", async () => {
    const stateDir = `/nonexistent/rate-${process.pid}-${Date.now()}`;
    shareRateLimit(stateDir, 1);
    const program = `
      const { getEnvironmentData, parentPort } = require("node:worker_threads");
      const next = new BigInt64Array(getEnvironmentData(${JSON.stringify(workerSharedKey("rate", stateDir))}).buffer);
      parentPort.postMessage(String(next[0]));
    `;
    const limit = sharedRateLimit(stateDir);
    const before = Date.now();
    await limit.wait();
    const worker = new Worker(program, { eval: true });
    try {
      const seen = await new Promise<string>((resolve, reject) => worker.once("message", resolve).once("error", reject));
      // The worker reads the time the request above reserved for the next one: a second after it went.
      expect(Number(seen) - before).toBeGreaterThanOrEqual(1000);
    } finally {
      await worker.terminate();
    }
    expect(() => sharedRateLimit("/nonexistent/never-shared")).toThrow(/no shared rate limit/);
  });
});

describe("SharedRateLimit pacing", () => {
  it("lowers an unlimited rate on a 429 to the rate answers came at, once a second, and raises it only while requests wait their turns", async () => {
    const limit = new SharedRateLimit(SharedRateLimit.buffer());
    let now = 10_000;
    for (let i = 0; i < 200; i++) await limit.wait(() => now);
    expect(limit.rate).toBeUndefined();
    // 100 answers in the 900 ms before the first 429: the rate limiter let about 111/s through.
    for (let i = 0; i < 100; i++) limit.answered(now);
    now += 900;
    limit.declined("rate_limited", now);
    expect(limit.decreases).toBe(1);
    expect(limit.rate).toBeCloseTo(1000 / 9, 0);
    // More declines within the second (of requests sent at the old rate): no second decrease.
    for (let i = 0; i < 40; i++) limit.declined("rate_limited", now + 10);
    expect(limit.decreases).toBe(1);
    // Answers while no request waits for its turn raise nothing (the pace is not what holds the run back).
    for (let i = 0; i < 100; i++) limit.answered(now + 5_000);
    expect(limit.rate).toBeCloseTo(1000 / 9, 0);
  });

  it("lowers the rate on 503s only when one answer in ten is one: a few shed at random lower nothing", () => {
    const limit = new SharedRateLimit(SharedRateLimit.buffer(), 200);
    const now = 5_000;
    for (let i = 0; i < 100; i++) limit.answered(now);
    for (let i = 0; i < 5; i++) limit.declined("shed", now);
    expect(limit.decreases).toBe(0);
    for (let i = 0; i < 10; i++) limit.declined("shed", now);
    expect(limit.decreases).toBe(1);
  });

  it("never raises a paced rate above --rate-limit", () => {
    const limit = new SharedRateLimit(SharedRateLimit.buffer(), 50);
    limit.declined("rate_limited");
    expect(limit.rate).toBeLessThan(50);
    // Requests waiting their turns (the pace holds them back), and a stream of answers.
    for (let i = 0; i < 20; i++) void limit.wait();
    for (let i = 0; i < 10_000; i++) limit.answered();
    expect(limit.rate).toBe(50);
  });
});
