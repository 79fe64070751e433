// The §4.7 rule compares the node's latest ledger timestamp with the node's own clock, which the suite
// cannot read. It uses its own clock instead, trusted to be within a tolerance of the node's, and
// brackets the ledger timestamp the node judged between the ones reported just before and just after
// (the ledger never goes back, §2.7). What holds for every node clock and every ledger timestamp in
// those brackets can be asserted; the rest is undecided and asserted neither way.
//
// The tolerance is the run's --clock-tolerance (src/harness/config.ts: 25 ms on loopback, where the node
// reads the same kernel clock, and 5000 ms for any other target unless given).

import { CheckNotApplicable, CLOCK_TOLERANCE_FLAG, type CheckContext, type HttpResponse } from "../../src/harness/index.ts";

/** How far the node's clock may be from the suite's, in microseconds. */
export function clockToleranceUsec(t: CheckContext): bigint {
  return BigInt(t.config.clockToleranceMs) * 1000n;
}

/** The suite's clock, microseconds since the Unix epoch. */
export function nowUsec(): bigint {
  return BigInt(Date.now()) * 1000n;
}

/** X-NODE-LEDGER-TIMESTAMPUSEC of a 200, or the check ends not_applicable (its absence fails 2.7/required-headers-on-api-success). */
export function ledgerTimestamp(t: CheckContext, res: HttpResponse): bigint {
  const value = t.ledgerState(res).timestampUsec;
  if (value === undefined) {
    throw new CheckNotApplicable(
      `needs ${t.headerName("LEDGER-TIMESTAMPUSEC")} on the ${res.status} answer to judge the lag (found ${JSON.stringify(t.header(res, "LEDGER-TIMESTAMPUSEC"))})`,
    );
  }
  return value;
}

/** GET /-/healthy without duration_secs: a 200 whose ledger timestamp, and when the suite read it. */
export async function probeLedgerTime(t: CheckContext): Promise<{ ledgerUsec: bigint; readAtUsec: bigint }> {
  const res = await t.request({ path: "/-/healthy" });
  const readAtUsec = nowUsec();
  t.expectStatus(res, 200);
  return { ledgerUsec: ledgerTimestamp(t, res), readAtUsec };
}

export type Verdict = "must-be-healthy" | "must-be-unhealthy" | "undecided";

export interface JudgedHealth {
  readonly res: HttpResponse;
  readonly verdict: Verdict;
  /** Why, in words, for messages and not_applicable reasons. */
  readonly reasoning: string;
}

/**
 * GET /-/healthy?duration_secs=D between two probes, and what §4.7 demands of its answer: healthy when
 * the oldest ledger timestamp it can have judged is within D of the latest node clock it can have had,
 * unhealthy when the newest one is older than D before the earliest clock.
 */
export async function judgedHealthCheck(t: CheckContext, durationSecs: bigint): Promise<JudgedHealth> {
  const tolerance = clockToleranceUsec(t);
  const before = await probeLedgerTime(t);
  const sentUsec = nowUsec();
  const res = await t.request({ path: "/-/healthy", query: { duration_secs: durationSecs } });
  const receivedUsec = nowUsec();
  const after = await probeLedgerTime(t);
  const threshold = durationSecs * 1_000_000n;
  const latestClock = receivedUsec + tolerance;
  const earliestClock = sentUsec - tolerance;
  const seconds = (usec: bigint) => `${(Number(usec) / 1e6).toFixed(3)} s`;
  const reasoning =
    `ledger timestamp between ${before.ledgerUsec} and ${after.ledgerUsec}, node clock between ${earliestClock} and ${latestClock} ` +
    `(the suite's clock ± ${seconds(tolerance)}, ${CLOCK_TOLERANCE_FLAG}); lag ${seconds(sentUsec - after.ledgerUsec)} to ` +
    `${seconds(receivedUsec - before.ledgerUsec)} by the suite's clock, duration_secs=${durationSecs}`;
  if (before.ledgerUsec >= latestClock - threshold) return { res, verdict: "must-be-healthy", reasoning };
  if (after.ledgerUsec < earliestClock - threshold) return { res, verdict: "must-be-unhealthy", reasoning };
  return { res, verdict: "undecided", reasoning };
}
