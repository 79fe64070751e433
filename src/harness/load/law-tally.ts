// What a law under load found over the whole load: how many times the load gave it something to decide,
// and the anomalies, each with the exchanges that show it. The anomalies kept are bounded: a faulty node
// under load can show thousands, and the first few say all a reader needs (the count says the rest).

import { CheckFailure, CheckNotApplicable, traceOf, type CheckContext } from "../check-context.ts";
import type { Failure } from "../results.ts";
import { exchangeEvidence, type LoadExchange } from "./load-exchange.ts";

/** The anomalies kept per law; the others are only counted. */
export const KEPT_ANOMALIES = 5;

export interface Anomaly {
  /** What should have held, in words. */
  readonly expected: string;
  /** What the exchanges show instead. */
  readonly found: string;
  /** The exchanges that disagree, in the order they were sent. */
  readonly exchanges: readonly LoadExchange[];
}

export class LawTally {
  /** Cases the law could decide (a pair compared, a walk ended, a sender's summaries read). */
  decided = 0;
  /** Every anomaly seen, kept or not. */
  anomalyCount = 0;
  readonly anomalies: Anomaly[] = [];
  /** Why a case could not be decided, the last one given: said when nothing was decided. */
  undecidedReason: string | undefined;

  decide(): void {
    this.decided += 1;
  }

  /** A decided case that shows an anomaly. */
  fail(anomaly: Anomaly): void {
    this.decided += 1;
    this.anomalyCount += 1;
    if (this.anomalies.length < KEPT_ANOMALIES) this.anomalies.push(anomaly);
  }

  undecided(reason: string): void {
    this.undecidedReason = reason;
  }
}

/** Exchanges shown per anomaly: the first ones and the last ones of a longer list (a walk's pages). */
const SHOWN_EXCHANGES = { first: 2, last: 4 } as const;
/** A bound on an anomaly's sentences (a walk's module names can run long). */
const SENTENCE_CUT = 800;

/** The law's failure: each kept anomaly with its exchanges as curl lines, and how many there were. */
export function lawFailure(requirement: string, tally: LawTally, headerPrefix: string): Failure {
  const cut = (s: string) => (s.length > SENTENCE_CUT ? `${s.slice(0, SENTENCE_CUT)}…` : s);
  const versionHeader = `${headerPrefix}LEDGER-VERSION`;
  const blocks = tally.anomalies.map((anomaly, i) => {
    const { first, last } = SHOWN_EXCHANGES;
    const all = anomaly.exchanges;
    const shown = all.length <= first + last ? all : [...all.slice(0, first), ...all.slice(-last)];
    const lines = shown.map((e) => `    ${exchangeEvidence(e, versionHeader)}`);
    if (shown.length < all.length) lines.splice(first, 0, `    … ${all.length - shown.length} more exchanges of the same case`);
    return [`  anomaly ${i + 1}: expected ${cut(anomaly.expected)}`, `  found:    ${cut(anomaly.found)}`, "  exchanges:", ...lines].join(
      "\n",
    );
  });
  const count =
    tally.anomalyCount > tally.anomalies.length
      ? `${tally.anomalyCount} anomalies among ${tally.decided} cases under load; the first ${tally.anomalies.length}:`
      : `${tally.anomalyCount} ${tally.anomalyCount === 1 ? "anomaly" : "anomalies"} among ${tally.decided} cases under load:`;
  const curl = tally.anomalies[0]?.exchanges.at(-1)?.curl ?? null;
  return { message: [`[${requirement}] ${count}`, ...blocks].join("\n"), curl };
}

/**
 * Ends the check of a law under load by its tally, as one assertion: failed with the anomalies when
 * there were any, not applicable with the reason when the load gave the law nothing to decide.
 */
export function judgeTally(t: CheckContext, tally: LawTally): void {
  if (tally.anomalyCount === 0 && tally.decided === 0) {
    throw new CheckNotApplicable(`the load gave the law nothing to decide: ${tally.undecidedReason ?? "no case"}`);
  }
  traceOf(t).assertions += 1;
  if (tally.anomalyCount > 0) throw new CheckFailure(lawFailure(t.requirement.id, tally, t.profile.headerPrefix));
}
