// §2.7 under load: the ledger state an answer reports never goes back from that of an answer that had
// arrived before its request was sent, on the same client or any other (2.7/monotonic-under-load). The
// order is the load's event sequence, not a clock: request B follows answer A exactly when B was handed
// to its client after A came back, which is what a node's users can observe, and what a node that reads
// through a cache or a lagging replica breaks.
//
// One sweep: answers in the order they arrived, requests in the order they were sent; for each request,
// the largest ledger version, block height and timestamp of the answers before it, and which answer
// reported each, so that an anomaly names both exchanges.

import type { LedgerState } from "../response-facts.ts";
import { LawTally } from "./law-tally.ts";
import type { LoadExchange } from "./load-exchange.ts";

/** The §2.7 fields that never go back, with the header suffix that reports each. */
const FIELDS = [
  { key: "ledgerVersion", header: "LEDGER-VERSION" },
  { key: "blockHeight", header: "BLOCK-HEIGHT" },
  { key: "timestampUsec", header: "LEDGER-TIMESTAMPUSEC" },
] as const satisfies readonly { key: keyof LedgerState; header: string }[];

export function monotonicUnderLoad(exchanges: readonly LoadExchange[], headerPrefix: string): LawTally {
  const tally = new LawTally();
  const answered = exchanges.filter((e) => e.status !== null).sort((a, b) => a.answeredSeq - b.answeredSeq);
  const sent = [...answered].sort((a, b) => a.sentSeq - b.sentSeq);
  const highest = new Map<string, LoadExchange>();
  let next = 0;
  for (const b of sent) {
    while (next < answered.length && (answered[next] as LoadExchange).answeredSeq < b.sentSeq) {
      const a = answered[next++] as LoadExchange;
      for (const { key } of FIELDS) {
        const value = a.state[key];
        const best = highest.get(key)?.state[key];
        if (value !== undefined && (best === undefined || value > best)) highest.set(key, a);
      }
    }
    let compared = false;
    let anomaly = false;
    for (const { key, header } of FIELDS) {
      const a = highest.get(key);
      const before = a?.state[key];
      const now = b.state[key];
      if (a === undefined || before === undefined || now === undefined) continue;
      compared = true;
      if (now < before && !anomaly) {
        anomaly = true;
        const where = a.client === b.client ? `on the same client (${b.client})` : `on ${b.client}, after ${a.client}'s answer`;
        tally.fail({
          expected: `${headerPrefix}${header} of an answer at least ${before}, reported by an answer that had arrived before its request was sent`,
          found: `${headerPrefix}${header} ${now}: the ledger went back ${where}`,
          exchanges: [a, b],
        });
      }
    }
    if (compared && !anomaly) tally.decide();
  }
  if (tally.decided === 0) tally.undecided("no answer with ledger headers followed another one");
  return tally;
}
