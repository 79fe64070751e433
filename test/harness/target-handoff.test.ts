// The target's facts reach a run's workers after they start (src/harness/target-handoff.ts): a worker
// thread started once the handoff exists waits, without blocking, until the command hands the facts
// over, and gets them; a cancelled handoff ends its wait with the reason; the first of the two wins.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import type { TargetFacts } from "../../src/harness/config.ts";
import { receiveTarget, TargetHandoff } from "../../src/harness/target-handoff.ts";
import { ROOT } from "../support/test-build.ts";

const scratch = mkdtempSync(join(tmpdir(), "target-handoff-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let runs = 0;
function stateDir(): string {
  runs += 1;
  return mkdtempSync(join(scratch, `run-${runs}-`));
}

const FACTS: TargetFacts = { target: "http://127.0.0.1:4321/v1", fixtures: { chainId: 4, accounts: [] }, clockToleranceMs: 25 };

/** A worker thread, as vitest starts one for the run: it posts "waiting", then what receiveTarget gave or threw. */
function waitingWorker(dir: string): { readonly worker: Worker; readonly messages: unknown[]; readonly next: () => Promise<unknown> } {
  const handoff = pathToFileURL(join(ROOT, "src", "harness", "target-handoff.ts")).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  const program = `
    const { register } = await import(${JSON.stringify(tsx)});
    register();
    const { parentPort } = await import("node:worker_threads");
    const { receiveTarget } = await import(${JSON.stringify(handoff)});
    // Listening on its port, as vitest's workers do: a pending Atomics.waitAsync alone does not keep a thread alive.
    parentPort.on("message", () => undefined);
    parentPort.postMessage("waiting");
    receiveTarget(${JSON.stringify(dir)}).then(
      (facts) => parentPort.postMessage({ facts }),
      (error) => parentPort.postMessage({ error: error.message }),
    );
  `;
  // No execArgv of the test process (vitest's own flags): the thread starts as the command's workers do.
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(program)}`), { execArgv: [] });
  const messages: unknown[] = [];
  const waiters: ((m: unknown) => void)[] = [];
  const deliver = (m: unknown) => {
    const waiter = waiters.shift();
    if (waiter) waiter(m);
    else messages.push(m);
  };
  worker.on("message", deliver);
  worker.on("error", (e: Error) => deliver({ workerError: e.message }));
  const next = () => (messages.length > 0 ? Promise.resolve(messages.shift()) : new Promise<unknown>((resolve) => waiters.push(resolve)));
  return { worker, messages, next };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the target handoff between the command and its workers", () => {
  it("keeps a worker waiting until the facts are handed over, then gives it them", async () => {
    const dir = stateDir();
    const handoff = new TargetHandoff(dir);
    const { worker, messages, next } = waitingWorker(dir);
    try {
      expect(await next()).toBe("waiting");
      await pause(200);
      expect(messages, "what the worker had before the handover").toEqual([]);
      handoff.handOver(FACTS);
      expect(await next()).toEqual({ facts: FACTS });
    } finally {
      await worker.terminate();
    }
  });

  it("ends the wait with the reason when the command cancels, and keeps the first of a cancel and a handover", async () => {
    const dir = stateDir();
    const handoff = new TargetHandoff(dir);
    const { worker, next } = waitingWorker(dir);
    try {
      expect(await next()).toBe("waiting");
      handoff.cancel("cannot start the reference node: genesis failed");
      handoff.handOver(FACTS);
      expect(await next()).toEqual({ error: "the run's target did not come up: cannot start the reference node: genesis failed" });
    } finally {
      await worker.terminate();
    }
    // Settled already: a worker that asks later gets the same answer at once.
    await expect(receiveTarget(dir)).rejects.toThrow(/genesis failed/);
  });

  it("tells a worker of a run without a handoff so, instead of waiting for ever", async () => {
    await expect(receiveTarget(join(scratch, "no-such-run"))).rejects.toThrow(
      /no shared target handoff for the run in .*no-such-run: the command shares it before the run's workers start/,
    );
  });
});
