// §4.7 Health check: GET /v1/-/healthy answers 200 with the health success object (§2.6) whenever the
// node can obtain its latest ledger info; with duration_secs it answers 200 when
// server_latest_ledger_info_timestamp >= server_current_time_timestamp - duration_secs. The family: the
// object is {message}, a lag over duration_secs is 503 health_check_failed, duration_secs is a u64.
//
// The duration_secs rule is judged against the suite's clock within a tolerance (see
// support/health-clock.ts): a check whose case the clocks cannot decide ends not_applicable, saying
// why, rather than passing. Every response is also checked against the observed-status contract.

import { check, CheckNotApplicable, describeEndpoint } from "../src/harness/index.ts";
import { clockToleranceUsec, judgedHealthCheck, probeLedgerTime } from "./support/health-clock.ts";

/** Margin (microseconds) on top of the clock tolerance when choosing a duration_secs the verdict must not depend on. */
const MARGIN_USEC = 2_000_000n;
/** How long the lagging check waits, at most, for the ledger's lag to exceed the clock tolerance; and how often. */
const LAG_WAIT_USEC = 1_000_000n;
const LAG_ATTEMPTS = 5;
/**
 * How far past the clock tolerance such a wait aims. A short step reads the lag of the same block
 * again, grown; a step of a block interval or more meets the next block, whose lag may be as short:
 * a wait of 100 ms more than the tolerance's shortfall left the check undecided behind 100 ms blocks
 * on a loaded machine, and behind 110 ms blocks whenever the first lag read was short.
 */
const PAST_TOLERANCE_USEC = 10_000n;

/** duration_secs values that are no u64 (the family's convention). */
const MALFORMED_DURATIONS: readonly { readonly variant: string; readonly value: string }[] = [
  { variant: "not digits", value: "abc" },
  { variant: "negative", value: "-1" },
  { variant: "2^64", value: "18446744073709551616" },
];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describeEndpoint("healthy", () => {
  check("4.7/healthy-without-duration", async (t) => {
    const res = await t.request({ path: "/-/healthy" });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/json");
    const body: unknown = res.json;
    t.expect(typeof body === "object" && body !== null && !Array.isArray(body), "a JSON object (§2.6 health success object)", res);
  });

  check("4.7/health-bcs", async (t) => {
    const res = await t.request({ path: "/-/healthy", accept: "bcs" });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/x-bcs");
  });

  check("4.7/within-threshold-healthy", { variant: "duration_secs=1000000000" }, async (t) => {
    const judged = await judgedHealthCheck(t, 1_000_000_000n);
    if (judged.verdict !== "must-be-healthy") throw new CheckNotApplicable(`cannot decide: ${judged.reasoning}`);
    t.expectStatus(judged.res, 200);
  });

  // A threshold just above the ledger's lag: a node that reads duration_secs in another unit, or
  // compares the wrong way round, answers 503 here.
  check("4.7/within-threshold-healthy", { variant: "duration_secs just above the ledger's lag" }, async (t) => {
    const probe = await probeLedgerTime(t);
    const lag = probe.readAtUsec - probe.ledgerUsec;
    const needed = lag + clockToleranceUsec(t) + MARGIN_USEC;
    const durationSecs = needed <= 0n ? 0n : (needed + 999_999n) / 1_000_000n;
    const judged = await judgedHealthCheck(t, durationSecs);
    if (judged.verdict !== "must-be-healthy") throw new CheckNotApplicable(`cannot decide: ${judged.reasoning}`);
    t.expectStatus(judged.res, 200);
  });

  // Provable only when the ledger lags the clock by more than the clock tolerance: a node on the same
  // host whose blocks come further apart than the tolerance, a remote one only when its chain stalls.
  // When the lag is short of the tolerance by less than LAG_WAIT_USEC, the check waits until it should
  // be just past it (PAST_TOLERANCE_USEC) and reads it again, a bounded number of times.
  check("4.7/lagging-unhealthy", { timeoutMs: 60_000 }, async (t) => {
    let reason = "";
    for (let attempt = 0; attempt < LAG_ATTEMPTS; attempt++) {
      const probe = await probeLedgerTime(t);
      const lag = probe.readAtUsec - probe.ledgerUsec;
      const provable = lag - clockToleranceUsec(t);
      if (provable >= 0n) {
        const judged = await judgedHealthCheck(t, provable / 1_000_000n);
        if (judged.verdict === "must-be-unhealthy") {
          t.expect(judged.res.status !== 200, `an error status (503), not 200: ${judged.reasoning}`, judged.res);
          t.expectStatus(judged.res, 500, 503);
          return;
        }
        reason = `cannot decide: ${judged.reasoning}`;
      } else {
        reason = `the ledger timestamp lags the suite's clock by ${Number(lag) / 1e6} s, within the clock tolerance: no duration_secs provably exceeded`;
        if (-provable > LAG_WAIT_USEC) break;
        await sleep(Number(-provable + PAST_TOLERANCE_USEC) / 1000);
      }
    }
    throw new CheckNotApplicable(reason);
  });

  check("4.7/duration-zero-accepted", async (t) => {
    // Judged by the rule, not only by the status set: 200 only when the ledger may be at the clock, an
    // error only when it may lag: one §4.7 lists (500, 503; which one is 4.7/unhealthy-code's to judge).
    // Without the ledger timestamp to judge by, the check is not applicable.
    const judged = await judgedHealthCheck(t, 0n);
    t.expectStatus(judged.res, 200, 500, 503);
    if (judged.verdict === "must-be-healthy") t.expectStatus(judged.res, 200);
    if (judged.verdict === "must-be-unhealthy")
      t.expect(judged.res.status !== 200, `an error (500 or 503) by the rule: ${judged.reasoning}`, judged.res);
  });

  check("4.7/health-message", async (t) => {
    const res = await t.request({ path: "/-/healthy" });
    t.expectStatus(res, 200);
    t.expectBodyMatchesSchema(res);
  });

  check("4.7/unhealthy-code", async (t) => {
    // With a zero threshold any lag at all fails the check; a ledger timestamp at or ahead of the clock passes it.
    const res = await t.request({ path: "/-/healthy", query: { duration_secs: 0 } });
    if (res.status === 200) throw new CheckNotApplicable("duration_secs=0 was answered 200 (no lag): no failed health check to look at");
    t.expectError(res, 503, "health_check_failed");
  });

  for (const { variant, value } of MALFORMED_DURATIONS) {
    check("4.7/malformed-duration-rejected", { variant }, async (t) => {
      const res = await t.request({ path: "/-/healthy", query: { duration_secs: value } });
      t.expectError(res, 400, "web_framework_error");
    });
  }
});
