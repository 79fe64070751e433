// The run's ledger mark (src/harness/ledger-tracker.ts), which §2.7's "the ledger does not go back" is
// judged against: trackers on one buffer share it, each value only rises, the first chain id stays,
// a curl line too long for its room is kept cut and says so, the buffer reaches a worker thread started
// after the command shared it, a raise waits while another writer holds the lock, and four threads
// raising at once lose no raise (without the lock that race test failed in 2 of 5 runs; the lock test
// fails every time).

import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { LedgerTracker, shareLedgerTracker, sharedLedgerTracker } from "../../src/harness/ledger-tracker.ts";
import { sharedWithWorker, workerSharedKey } from "../../src/harness/worker-shared.ts";

/** Raises per thread in the race below: enough that four threads meet in the same write many times. */
const RACE_RAISES = 100_000;

describe("LedgerTracker", () => {
  it("shares the mark between trackers on one buffer; each value only rises, and the ledger version's request names it", () => {
    const buffer = LedgerTracker.buffer();
    const a = new LedgerTracker(buffer);
    const b = new LedgerTracker(buffer);
    expect(b.mark()).toBeUndefined();
    expect(b.chainId()).toBeUndefined();
    a.observe({ ledgerVersion: 10n, blockHeight: 3n, timestampUsec: 99n, chainId: 4 }, "curl a");
    expect(b.mark()).toEqual({ ledgerVersion: 10n, blockHeight: 3n, timestampUsec: 99n, curl: "curl a" });
    b.observe({ ledgerVersion: 8n, blockHeight: 5n, chainId: 7 }, "curl b");
    expect(a.mark()).toEqual({ ledgerVersion: 10n, blockHeight: 5n, timestampUsec: 99n, curl: "curl a" });
    expect(a.chainId()).toEqual({ chainId: 4, curl: "curl a" });
    b.observe({ ledgerVersion: 11n }, "curl c");
    expect(a.mark()).toEqual({ ledgerVersion: 11n, blockHeight: 5n, timestampUsec: 99n, curl: "curl c" });
    // Another buffer, another run.
    expect(new LedgerTracker().mark()).toBeUndefined();
  });

  it("holds any u64, and a chain id of 0", () => {
    const t = new LedgerTracker();
    const max = 2n ** 64n - 1n;
    t.observe({ ledgerVersion: max - 1n, chainId: 0 }, "curl a");
    t.observe({ ledgerVersion: max }, "curl b");
    expect(t.mark()).toMatchObject({ ledgerVersion: max, curl: "curl b" });
    expect(t.chainId()).toEqual({ chainId: 0, curl: "curl a" });
  });

  it("starts a mark with the first response that has a ledger header, and none without", () => {
    const t = new LedgerTracker();
    t.observe({}, "curl none");
    expect(t.mark()).toBeUndefined();
    t.observe({ blockHeight: 2n }, "curl a");
    expect(t.mark()).toEqual({ ledgerVersion: 0n, blockHeight: 2n, timestampUsec: 0n, curl: "curl a" });
  });

  it("keeps a curl line too long for its room cut, valid UTF-8, and saying how long it was", () => {
    const t = new LedgerTracker();
    const line = `curl -sS --data-binary '${"é".repeat(60_000)}' http://node/v1/transactions`;
    t.observe({ ledgerVersion: 1n }, line);
    const kept = t.mark()?.curl ?? "";
    expect(kept.length).toBeLessThan(line.length);
    expect(line.startsWith(kept.slice(0, kept.indexOf(" … (cut")))).toBe(true);
    expect(kept).toMatch(new RegExp(` … \\(cut: the whole line is ${Buffer.byteLength(line)} bytes\\)$`));
    expect(kept).not.toContain("\uFFFD");
  });

  it("is shared with the worker threads started after the command shares it, as the same memory", async () => {
    const stateDir = `/nonexistent/ledger-mark-${process.pid}-${Date.now()}`;
    shareLedgerTracker(stateDir);
    const tracker = sharedLedgerTracker(stateDir);
    tracker.observe({ ledgerVersion: 5n, chainId: 2 }, "curl from the command");
    const program = `
      const { getEnvironmentData, parentPort } = require("node:worker_threads");
      const buffer = getEnvironmentData(${JSON.stringify(workerSharedKey("ledger-mark", stateDir))});
      const cells = new BigUint64Array(buffer, 0, 7);
      parentPort.postMessage(String(cells[3]));
    `;
    const worker = new Worker(program, { eval: true });
    try {
      const seen = await new Promise<string>((resolve, reject) => worker.once("message", resolve).once("error", reject));
      expect(seen, "the ledger version the worker reads from the shared buffer").toBe("5");
    } finally {
      await worker.terminate();
    }
    expect(() => sharedLedgerTracker("/nonexistent/never-shared")).toThrow(/no shared ledger mark/);
  });

  it("makes a raise wait while another writer holds the lock", async () => {
    const stateDir = `/nonexistent/ledger-mark-lock-${process.pid}-${Date.now()}`;
    shareLedgerTracker(stateDir);
    const buffer = sharedWithWorker("ledger-mark", stateDir) as SharedArrayBuffer;
    const lock = new Int32Array(buffer, 0, 1);
    // The test holds the writers' lock (cell 0) as a writer would, while a worker raises the mark.
    Atomics.store(lock, 0, 1);
    const worker = trackerThread(
      stateDir,
      `
      parentPort.postMessage("raising");
      tracker.observe({ ledgerVersion: 7n }, "curl w");
      parentPort.postMessage("raised");
    `,
    );
    try {
      expect(await nextMessage(worker)).toBe("raising");
      let raised = false;
      const raising = nextMessage(worker).then(() => (raised = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(raised, "the raise waits for the lock").toBe(false);
      expect(sharedLedgerTracker(stateDir).mark()).toBeUndefined();
      Atomics.store(lock, 0, 0);
      Atomics.notify(lock, 0);
      await raising;
      expect(sharedLedgerTracker(stateDir).mark()).toMatchObject({ ledgerVersion: 7n, curl: "curl w" });
    } finally {
      await worker.terminate();
    }
  });

  it("loses no raise when several threads raise the mark at once, and names each ledger version by its own request", async () => {
    const stateDir = `/nonexistent/ledger-mark-race-${process.pid}-${Date.now()}`;
    shareLedgerTracker(stateDir);
    // Thread k raises the ledger version through k, k+4, k+8, …; after each raise the mark must be at least
    // its own value (else another thread's write undid it) and name the request of the version it holds.
    // All four start together: each says it is ready, then waits for the go.
    const start = new Int32Array(new SharedArrayBuffer(8));
    const workers = [0, 1, 2, 3].map((k) =>
      trackerThread(
        stateDir,
        `
        const start = new Int32Array(workerData);
        Atomics.add(start, 0, 1);
        Atomics.notify(start, 0);
        Atomics.wait(start, 1, 0);
        let lost = 0, misnamed = 0;
        for (let v = ${k}; v < ${4 * RACE_RAISES}; v += 4) {
          tracker.observe({ ledgerVersion: BigInt(v) }, "curl " + v);
          const mark = tracker.mark();
          if (mark.ledgerVersion < BigInt(v)) lost++;
          if (mark.curl !== "curl " + mark.ledgerVersion) misnamed++;
        }
        parentPort.postMessage({ lost, misnamed });
      `,
        start.buffer,
      ),
    );
    let results: unknown[];
    try {
      const ended = Promise.all(workers.map(nextMessage));
      for (let ready = 0; ready < 4; ready = Atomics.load(start, 0)) await new Promise((resolve) => setTimeout(resolve, 5));
      Atomics.store(start, 1, 1);
      Atomics.notify(start, 1);
      results = await ended;
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
    expect(results).toEqual([0, 1, 2, 3].map(() => ({ lost: 0, misnamed: 0 })));
    expect(sharedLedgerTracker(stateDir).mark()).toMatchObject({
      ledgerVersion: BigInt(4 * RACE_RAISES - 1),
      curl: `curl ${4 * RACE_RAISES - 1}`,
    });
  });
});

/** A worker thread that runs `body` with `tracker` (the run's shared mark), `parentPort` and `workerData` in scope. */
function trackerThread(stateDir: string, body: string, workerData?: unknown): Worker {
  const tsx = import.meta.resolve("tsx/esm/api");
  const trackerUrl = new URL("../../src/harness/ledger-tracker.ts", import.meta.url).href;
  const program = `
    const { register } = await import(${JSON.stringify(tsx)});
    register();
    const { parentPort, workerData } = await import("node:worker_threads");
    const { sharedLedgerTracker } = await import(${JSON.stringify(trackerUrl)});
    const tracker = sharedLedgerTracker(${JSON.stringify(stateDir)});
    ${body}
  `;
  // No execArgv of the test process (vitest's own flags): the thread starts as the command's workers do.
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(program)}`), { execArgv: [], workerData });
}

/** The worker's next message; rejects when the worker fails first. */
function nextMessage(worker: Worker): Promise<unknown> {
  return new Promise((resolve, reject) => worker.once("message", resolve).once("error", reject));
}
