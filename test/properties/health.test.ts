// The §4.7 health property against the reference node whose clock the test drives: the proxy sets the
// node's ManualClock to the wall clock as each request passes, and blocks come only every 10 s, so the
// ledger lags the clock by 0 to 10 s and generated thresholds fall on both sides of the boundary. With
// a clock tolerance of 0 the property holds (exact to the second and below), and nodes that answer 200
// whatever the lag, or move the boundary by one second either way, are caught.

import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/node/ledger/index.ts";
import { conformance, expectCaught, expectClean } from "./support/conformance-run.ts";
import {
  errorAnswer,
  jsonOf,
  startLawBreakingProxy,
  splitPath,
  unchanged,
  withJson,
  withQuery,
  type Alteration,
} from "./support/law-breaking-proxy.ts";
import { againstAltered, referenceNodeForFile } from "./support/reference-node.ts";

const THRESHOLD = "4.7/health-threshold-law";
const CODE = "4.7/unhealthy-code";
/** The boundary exact to the millisecond: the node and the suite read the same clock, which the test drives. */
const EXACT = ["--clock-tolerance", "0"];

const clock = new ManualClock(Date.now());
const target = referenceNodeForFile({ clock, blockIntervalMs: 10_000 });

/** The node's clock follows the wall clock, set as each request passes (the test drives it). */
function drivenClock(alteration: Alteration): Alteration {
  return (exchange, forward) => {
    clock.set(Date.now());
    return alteration(exchange, forward);
  };
}

const isHealth = (path: string) => splitPath({ method: "GET", path, headers: {}, body: Buffer.alloc(0) }).pathname === "/v1/-/healthy";

/** duration_secs moved by `delta` seconds on its way to the node (never below 0). */
function shiftedThreshold(delta: bigint): Alteration {
  return (exchange, forward) => {
    const d = splitPath(exchange).query.get("duration_secs");
    if (!isHealth(exchange.path) || d === null || !/^[0-9]+$/.test(d)) return forward();
    const shifted = BigInt(d) + delta;
    return forward({ path: withQuery(exchange, (q) => q.set("duration_secs", (shifted < 0n ? 0n : shifted).toString())) });
  };
}

/** The command against the node behind `alteration` with its clock driven, selecting `only` (a file, or an id). */
async function commandAgainst(alteration: Alteration, only: string, extra: string[] = []) {
  const proxy = await startLawBreakingProxy(target.url, drivenClock(alteration));
  try {
    return await conformance(["--target", proxy.url, "--fixtures", target.fixtures, "--only", only, ...EXACT, ...extra]);
  } finally {
    await proxy.close();
  }
}

/** The run of the law `id` against the node behind `alteration` with its clock driven (batched: law-runs.ts). */
function runAgainst(alteration: Alteration, id: string, extra: string[] = []) {
  return againstAltered(target, drivenClock(alteration), id, [...EXACT, ...extra]);
}

describe("4.7 health threshold property", () => {
  it("holds against the reference node, at a clock tolerance of 0, with its clock driven by the test", async () => {
    const run = await commandAgainst(unchanged, "properties/health", ["--depth", "2"]);
    expectClean(run, [THRESHOLD, CODE]);
    expect(run.stdout).toMatch(/properties: seed \d+ \(chosen for this run/);
  }, 120_000);

  it("catches a node that answers 200 however far the ledger lags", async () => {
    const always200: Alteration = async (exchange, forward) => {
      const answer = await forward();
      return isHealth(exchange.path) && answer.status === 503 ? withJson(answer, { message: "ok" }, 200) : answer;
    };
    expectCaught(await runAgainst(always200, THRESHOLD), THRESHOLD);
  }, 120_000);

  // About one run in five lands in the second a shifted boundary gets wrong: --depth 4 (100 runs) makes missing it a 1e-10 chance.
  it("catches a node whose boundary is one second late (a lag of duration_secs + 0.5 s is healthy)", async () => {
    expectCaught(await runAgainst(shiftedThreshold(1n), THRESHOLD, ["--depth", "4"]), THRESHOLD);
  }, 120_000);

  it("catches a node whose boundary is one second early (a lag of duration_secs - 0.5 s is unhealthy)", async () => {
    expectCaught(await runAgainst(shiftedThreshold(-1n), THRESHOLD, ["--depth", "4"]), THRESHOLD);
  }, 120_000);

  it("warns about a node that reports the lag with another status and code", async () => {
    const otherCode: Alteration = async (exchange, forward) => {
      const answer = await forward();
      if (!isHealth(exchange.path) || answer.status !== 503) return answer;
      const body = jsonOf(answer) as { message: string };
      return errorAnswer(answer, 500, "internal_error", body.message);
    };
    expectCaught(await runAgainst(otherCode, CODE), CODE);
  }, 120_000);
});
