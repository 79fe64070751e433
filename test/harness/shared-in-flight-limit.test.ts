// One --concurrency for all the workers of a run (src/harness/shared-in-flight-limit.ts): limits that
// share a buffer never have more than `max` tasks running together, admit them in the order they were
// asked for, give a slot back when a task throws, and the buffer reaches a worker thread started after
// the command shared it as memory shared with it, not as a copy. A worker's gate takes its own slot
// first, so its one request at a time never waits behind the others'.

import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import {
  SharedInFlightLimit,
  sharedSlots,
  shareInFlightLimit,
  sharedInFlightLimit,
  WorkerInFlightGate,
} from "../../src/harness/shared-in-flight-limit.ts";
import { workerSharedKey } from "../../src/harness/worker-shared.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("SharedInFlightLimit", () => {
  it("runs at most max tasks at once across the limits that share its buffer, and every task", async () => {
    const buffer = SharedInFlightLimit.buffer();
    const limits = [0, 1, 2].map(() => new SharedInFlightLimit(buffer, 4));
    let running = 0;
    let most = 0;
    let finished = 0;
    const tasks = limits.flatMap((limit, l) =>
      Array.from({ length: 20 }, (_, i) =>
        limit.run(async () => {
          running += 1;
          most = Math.max(most, running);
          await pause(1 + ((i * 7 + l * 3) % 5));
          running -= 1;
          finished += 1;
        }),
      ),
    );
    await Promise.all(tasks);
    expect(finished).toBe(60);
    expect(most, "tasks running at once").toBe(4);
  });

  it("admits the tasks in the order they asked, whichever limit they came through", async () => {
    const buffer = SharedInFlightLimit.buffer();
    const [a, b] = [new SharedInFlightLimit(buffer, 1), new SharedInFlightLimit(buffer, 1)] as const;
    const order: string[] = [];
    const task = (name: string) => async () => {
      order.push(name);
      await pause(2);
    };
    await Promise.all([a.run(task("1")), b.run(task("2")), a.run(task("3")), b.run(task("4")), b.run(task("5"))]);
    expect(order).toEqual(["1", "2", "3", "4", "5"]);
  });

  it("gives the slot back when a task throws", async () => {
    const limit = new SharedInFlightLimit(SharedInFlightLimit.buffer(), 1);
    await expect(limit.run(async () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    await expect(Promise.race([limit.run(async () => "next"), pause(1_000).then(() => "still waiting")])).resolves.toBe("next");
  });

  it("is shared with the worker threads started after the command shares it, as the same memory", async () => {
    const stateDir = `/nonexistent/state-${process.pid}-${Date.now()}`;
    shareInFlightLimit(stateDir, 1);
    // The worker holds the one slot as a limit does (a ticket, then a finished one when told), on the
    // buffer it got with the environment data.
    const program = `
      const { getEnvironmentData, parentPort } = require("node:worker_threads");
      const cells = new Int32Array(getEnvironmentData(${JSON.stringify(workerSharedKey("in-flight", stateDir))}).buffer);
      Atomics.add(cells, 0, 1);
      parentPort.postMessage("holding");
      parentPort.once("message", () => { Atomics.add(cells, 1, 1); Atomics.notify(cells, 1); parentPort.postMessage("released"); });
    `;
    const worker = new Worker(program, { eval: true });
    try {
      await new Promise((resolve, reject) => worker.once("message", resolve).once("error", reject));
      let admitted = false;
      const task = sharedInFlightLimit(stateDir).run(async () => {
        admitted = true;
      });
      await pause(200);
      expect(admitted, "admitted while the worker holds the only slot").toBe(false);
      worker.postMessage("release");
      await task;
      expect(admitted).toBe(true);
    } finally {
      await worker.terminate();
    }
  });

  it("gives a worker its own slot at once while the shared ones are taken, and keeps the workers within --concurrency", async () => {
    const concurrency = 6;
    const workers = 2;
    const shared = SharedInFlightLimit.buffer();
    const slots = sharedSlots(concurrency, workers);
    expect(slots).toBe(4);
    const [busy, quiet] = [0, 1].map(() => new WorkerInFlightGate(new SharedInFlightLimit(shared, slots))) as [
      WorkerInFlightGate,
      WorkerInFlightGate,
    ];
    let running = 0;
    let most = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = () => async () => {
      running += 1;
      most = Math.max(most, running);
      await held;
      running -= 1;
    };
    // The busy worker asks for ten slots: its own and the four shared run, the rest wait.
    const floods = Array.from({ length: 10 }, () => busy.run(hold()));
    await pause(20);
    expect(running, "the busy worker's requests in flight").toBe(5);
    // The quiet worker's one request runs at once, on its own slot.
    let quietRan = false;
    await Promise.race([quiet.run(async () => (quietRan = true)), pause(500)]);
    expect(quietRan, "the quiet worker's request ran while the shared slots were taken").toBe(true);
    release();
    await Promise.all(floods);
    expect(most).toBeLessThanOrEqual(concurrency);
  });

  it("shares --concurrency less one slot per worker, and nothing with one worker or no slot to spare", () => {
    expect(sharedSlots(16, 4)).toBe(12);
    expect(sharedSlots(16, 1)).toBe(0);
    expect(sharedSlots(4, 4)).toBe(0);
  });

  it("refuses a limit that is not a positive integer, and a run without a shared limit", () => {
    expect(() => new SharedInFlightLimit(SharedInFlightLimit.buffer(), 0)).toThrow(RangeError);
    expect(() => sharedInFlightLimit("/nonexistent/never-shared")).toThrow(/no shared in-flight limit/);
    expect(() => sharedInFlightLimit(undefined)).toThrow(/state directory/);
  });
});
