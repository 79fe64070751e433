// Whether a run against a loopback target waits on the network or on this machine's CPU
// (src/run/target-probe.ts latencyBound), which decides its workers: the probe's first answer is
// not timed (a new connection, code not yet compiled on either side), the next few are, and one slow
// answer among them is enough, unless the machine's CPU was busy meanwhile and the answer not very slow.
// Servers listen on 127.0.0.1 only.

import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { LATENCY_BOUND_ANSWER_MS, probeTarget, SLOW_LINK_ANSWER_MS, TIMED_ANSWERS, type CpuTime } from "../../src/run/target-probe.ts";

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

/** A node-like server whose n-th answer (from 1) is delayed by delayMs(n); it counts the answers. */
async function serving(delayMs: (n: number) => number): Promise<{ url: string; answers: () => number }> {
  let n = 0;
  const server = createServer((_req, res) => {
    n += 1;
    setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("{}"), delayMs(n));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, answers: () => n };
}

const SLOW = 2 * LATENCY_BOUND_ANSWER_MS;

/** A machine whose CPU stays idle, whatever else the tests' machine is doing: a second idle per call. */
function idleMachine(): () => CpuTime {
  let idle = 0;
  return () => ({ idle: (idle += 1000), total: idle, own: 0 });
}

describe("the probe's timing of a loopback target", () => {
  it("does not hold a slow first answer against it: a cold node that answers quickly once warm is CPU-bound", async () => {
    const target = await serving((n) => (n === 1 ? SLOW : 0));
    const probe = await probeTarget(target.url, 5_000, { cpuTime: idleMachine() });
    expect(probe).toMatchObject({ ok: true, latencyBound: false });
    expect(target.answers(), "the first answer and every timed one").toBe(1 + TIMED_ANSWERS);
  });

  it("finds a target that answers slowly once warm latency-bound, at its first slow answer", async () => {
    const target = await serving(() => SLOW);
    expect(await probeTarget(target.url, 5_000, { cpuTime: idleMachine() })).toMatchObject({ ok: true, latencyBound: true });
    expect(target.answers()).toBe(2);
  });

  it("finds a link whose delay varies latency-bound though some answers are quick", async () => {
    const target = await serving((n) => (n === 1 + TIMED_ANSWERS ? SLOW : 0));
    expect(await probeTarget(target.url, 5_000, { cpuTime: idleMachine() })).toMatchObject({ ok: true, latencyBound: true });
  });

  it("does not take slow answers for a slow link while other processes keep the CPU busy (measured: one spins on every core)", async () => {
    const target = await serving(() => SLOW);
    const spinners = Array.from({ length: availableParallelism() }, () =>
      spawn(process.execPath, ["-e", "process.stdout.write('spinning\\n'); for (;;) {}"], { stdio: ["ignore", "pipe", "ignore"] }),
    );
    try {
      await Promise.all(spinners.map((child) => new Promise((resolve) => child.stdout.once("data", resolve))));
      expect(await probeTarget(target.url, 5_000)).toMatchObject({ ok: true, latencyBound: false });
    } finally {
      for (const child of spinners) child.kill("SIGKILL");
    }
  });

  it("takes an answer slower than SLOW_LINK_ANSWER_MS for a slow link however busy the machine is", async () => {
    const target = await serving(() => SLOW_LINK_ANSWER_MS + 50);
    let busy = 0;
    const busyMachine = () => ({ idle: 0, total: (busy += 1000), own: 0 });
    expect(await probeTarget(target.url, 5_000, { cpuTime: busyMachine })).toMatchObject({ ok: true, latencyBound: true });
  });

  it("times nothing when the run's workers do not depend on it (--workers, the embedded node)", async () => {
    const target = await serving(() => SLOW);
    expect(await probeTarget(target.url, 5_000, { timeAnswers: false, cpuTime: idleMachine() })).toMatchObject({
      ok: true,
      requests: 1,
      latencyBound: false,
    });
    expect(target.answers()).toBe(1);
  });

  it("counts the timed answers among the run's requests", async () => {
    const target = await serving(() => 0);
    expect(await probeTarget(target.url, 5_000)).toMatchObject({ ok: true, requests: 1 + TIMED_ANSWERS, latencyBound: false });
  });
});
