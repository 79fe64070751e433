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
  it("lowers an unlimited rate to 0.7 of the sending rate when a quarter of the answers are declined, once a second, and raises it as answers come", () => {
    const limit = new SharedRateLimit(SharedRateLimit.buffer());
    let now = 10_000;
    // 200 requests in a second, then the next window begins.
    for (let i = 0; i < 200; i++) void limit.wait(() => now);
    now += 1000;
    void limit.wait(() => now);
    expect(limit.rate).toBeUndefined();
    // A few declines among many answers (a node shedding one in twenty) lower nothing.
    for (let i = 0; i < 100; i++) limit.answered(now);
    for (let i = 0; i < 5; i++) limit.declined(now);
    expect(limit.rate).toBeUndefined();
    for (let i = 0; i < 40; i++) limit.declined(now);
    expect(limit.decreases).toBe(1);
    expect(limit.rate).toBeCloseTo(140, 0);
    // Declines of requests sent at the old rate, within the second: no second decrease.
    for (let i = 0; i < 40; i++) limit.declined(now + 10);
    expect(limit.decreases).toBe(1);
    // A second of answers at 140/s raises it by INCREASE_PER_SECOND (20).
    for (let i = 0; i < 140; i++) limit.answered(now + 20);
    expect(limit.rate).toBeGreaterThan(158);
    expect(limit.rate).toBeLessThan(162);
  });

  it("never raises a paced rate above --rate-limit", () => {
    const limit = new SharedRateLimit(SharedRateLimit.buffer(), 50);
    for (let i = 0; i < 10; i++) limit.declined(1000);
    expect(limit.rate).toBeCloseTo(35, 0);
    for (let i = 0; i < 10_000; i++) limit.answered(1500);
    expect(limit.rate).toBe(50);
  });
});
