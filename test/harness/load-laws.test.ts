// The laws the harness judges over a load's history (src/harness/load/): each fails on the history that
// breaks it, with the exchanges that show it, and holds on the histories a conforming node may give,
// concurrent requests included; the profile's figures from a known history.

import { describe, expect, it } from "vitest";
import { answeredUnderLoad } from "../../src/harness/load/answered-law.ts";
import { lawFailure, LawTally, KEPT_ANOMALIES } from "../../src/harness/load/law-tally.ts";
import type { LoadExchange } from "../../src/harness/load/load-exchange.ts";
import { loadProfileOf } from "../../src/harness/load/load-profile-of.ts";
import { monotonicUnderLoad } from "../../src/harness/load/monotonic-law.ts";

let seq = 0;

/** An exchange sent at `sent` and answered at `answered` on the load's sequence, reporting ledger version `version`. */
function exchange(
  client: string,
  sent: number,
  answered: number,
  version: bigint | undefined,
  extra: Partial<LoadExchange> = {},
): LoadExchange {
  seq += 1;
  return {
    client,
    endpoint: "healthy",
    sentSeq: sent,
    answeredSeq: answered,
    sentAtMs: 1_795_000_000_000 + sent,
    durationMs: answered - sent,
    status: 200,
    state: version === undefined ? {} : { ledgerVersion: version, blockHeight: version / 2n, timestampUsec: version * 1_000n },
    curl: `curl 'http://127.0.0.1:8080/v1/-/healthy?n=${seq}'`,
    ...extra,
  };
}

describe("2.7/monotonic-under-load", () => {
  it("fails an answer older than one that arrived before its request was sent, on another client, naming both", () => {
    const a = exchange("reader 1", 1, 2, 100n);
    const b = exchange("reader 2", 3, 4, 90n);
    const tally = monotonicUnderLoad([a, b], "X-NODE-");
    expect(tally.anomalyCount).toBe(1);
    expect(tally.anomalies[0]?.exchanges).toEqual([a, b]);
    expect(tally.anomalies[0]?.found).toMatch(/on reader 2, after reader 1's answer/);
  });

  it("fails it on the same client too", () => {
    const tally = monotonicUnderLoad([exchange("reader 1", 1, 2, 100n), exchange("reader 1", 3, 4, 99n)], "X-NODE-");
    expect(tally.anomalies[0]?.found).toMatch(/on the same client/);
  });

  it("holds for requests in flight together, whatever order their answers report", () => {
    // b was sent before a's answer arrived: a node may have answered b from an earlier ledger.
    const tally = monotonicUnderLoad([exchange("reader 1", 1, 4, 100n), exchange("reader 2", 2, 3, 90n)], "X-NODE-");
    expect(tally.anomalyCount).toBe(0);
  });

  it("decides nothing without answers carrying the headers, and says so", () => {
    const tally = monotonicUnderLoad([exchange("reader 1", 1, 2, undefined), exchange("reader 1", 3, 4, undefined)], "X-NODE-");
    expect(tally.decided).toBe(0);
    expect(tally.undecidedReason).toBeDefined();
  });
});

describe("7.1/answered-under-load", () => {
  it("fails a request without an answer, and counts 503 as an answer", () => {
    const shed = exchange("reader 1", 1, 2, 100n, { status: 503 });
    const lost = exchange("reader 2", 3, 4, undefined, { status: null, error: "connection reset" });
    const tally = answeredUnderLoad([shed, lost]);
    expect(tally.decided).toBe(2);
    expect(tally.anomalyCount).toBe(1);
    expect(tally.anomalies[0]?.found).toMatch(/connection reset/);
  });
});

describe("a law's failure", () => {
  it("keeps the first anomalies, counts them all, and shows every kept one's exchanges as curl lines", () => {
    const tally = new LawTally();
    for (let i = 0; i < KEPT_ANOMALIES + 3; i++) {
      tally.fail({ expected: "x", found: `case ${i}`, exchanges: [exchange("reader 1", 10 * i, 10 * i + 1, BigInt(i))] });
    }
    const failure = lawFailure("2.7/monotonic-under-load", tally, "X-NODE-");
    expect(failure.message).toMatch(/8 anomalies among 8 cases under load; the first 5:/);
    expect(failure.message.match(/curl '/g)?.length).toBe(KEPT_ANOMALIES);
    expect(failure.curl).toMatch(/^curl /);
  });
});

describe("the load profile", () => {
  it("counts per endpoint, with nearest-rank percentiles of the answered requests and answers by status class", () => {
    const history = [
      ...Array.from({ length: 98 }, (_, i) => exchange("reader 1", 2 * i, 2 * i + 1 + (i % 10), 100n)),
      exchange("reader 2", 500, 600, 100n, { status: 503 }),
      exchange("reader 2", 700, 800, undefined, { status: null, endpoint: "get_table_item" }),
    ];
    const profile = loadProfileOf(history, { clients: 2, writers: 0, writersSkipped: "read-only", durationMs: 10_000 }, [
      "get_table_item",
      "healthy",
    ]);
    expect(profile.requests).toBe(100);
    expect(profile.perSecond).toBe(10);
    expect(profile.endpoints.map((e) => e.endpoint)).toEqual(["get_table_item", "healthy"]);
    const healthy = profile.endpoints[1];
    expect(healthy?.statuses).toEqual({ "2xx": 98, "3xx": 0, "4xx": 0, "5xx": 1, noAnswer: 0 });
    // 99 answered: the 99th percentile by nearest rank is the 99th of 99, the slowest.
    expect(healthy?.latencyMs).toEqual({ p50: 5, p95: 10, p99: 100, max: 100 });
    expect(profile.endpoints[0]?.latencyMs, "no answered request to time").toBeUndefined();
    expect(profile.endpoints[0]?.statuses.noAnswer).toBe(1);
  });
});
