// §7.1 under load: every request gets an HTTP answer (7.1/answered-under-load). A node may shed load
// with 503, which the observed contract accepts like any listed status; a request whose connection was
// dropped or left silent, even after the client sent it again on a new connection, got none. A
// connection the node closed while idle is no such case: the client sends the request again at once
// on a new one (http-client.ts), and only then counts what it got.

import { LawTally } from "./law-tally.ts";
import type { LoadExchange } from "./load-exchange.ts";

export function answeredUnderLoad(exchanges: readonly LoadExchange[]): LawTally {
  const tally = new LawTally();
  for (const e of exchanges) {
    if (e.status !== null) tally.decide();
    else
      tally.fail({
        expected: "an HTTP answer (any status §7.1 lists, 503 included)",
        found: `no answer: ${e.error ?? "the connection ended without one"}`,
        exchanges: [e],
      });
  }
  if (tally.decided === 0) tally.undecided("the load sent no request");
  return tally;
}
