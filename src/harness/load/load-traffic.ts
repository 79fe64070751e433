// The load mode's clients: each a sibling of the worker's HTTP client (same timeouts, size caps,
// --header values and rate schedule) with connections of its own and one request in flight, as a
// separate user of the node would be. Every exchange is checked against the observed contract like any
// request of a check, and recorded on one event sequence for the laws under load (load-exchange.ts).
//
// What the observed contract found is kept per requirement, bounded: every failure up to a few per id,
// and one passed result, so that tens of thousands of answers make a report of the same size as one.

import { exchangerOf, traceOf, type CheckContext, type RequestSpec } from "../check-context.ts";
import type { HttpClient, HttpResponse } from "../http-client.ts";
import { ledgerState } from "../response-facts.ts";
import type { CheckResult } from "../results.ts";
import type { LoadExchange } from "./load-exchange.ts";
import type { LoadProfile } from "../load-profile.ts";

/** Failed results of the observed contract kept per requirement; the others are only counted. */
const KEPT_FAILURES_PER_RULE = 3;
/** Exchanges kept for the laws and the profile; a load that sends more stops sending (a bound on memory). */
export const MAX_LOAD_EXCHANGES = 200_000;

export interface LoadAnswer {
  readonly exchange: LoadExchange;
  /** Absent when no HTTP answer came. */
  readonly response?: HttpResponse;
}

export class LoadClient {
  constructor(
    /** "reader 3", "writer 1": how the evidence names it. */
    readonly name: string,
    readonly http: HttpClient,
  ) {}
}

export class LoadTraffic {
  readonly #t: CheckContext;
  readonly #clients: LoadClient[] = [];
  readonly #exchanges: LoadExchange[] = [];
  #seq = 0;
  /** Per requirement id: the failed results kept, how many there were, and one passed result. */
  readonly #observed = new Map<string, { failed: CheckResult[]; failures: number; passed?: CheckResult }>();

  constructor(t: CheckContext) {
    this.#t = t;
  }

  /** A client of its own connections, named for the evidence. */
  client(name: string): LoadClient {
    const client = new LoadClient(name, exchangerOf(this.#t).client.sibling());
    this.#clients.push(client);
    return client;
  }

  /** Whether the load may still send: under its bound of exchanges. */
  get open(): boolean {
    return this.#exchanges.length < MAX_LOAD_EXCHANGES;
  }

  get exchanges(): readonly LoadExchange[] {
    return this.#exchanges;
  }

  /** Sends `spec` on `client`'s connections; resolves with the exchange and the answer, if any. */
  async send(client: LoadClient, spec: RequestSpec): Promise<LoadAnswer> {
    const sentSeq = ++this.#seq;
    const sentAtMs = Date.now();
    const started = performance.now();
    const done = await exchangerOf(this.#t).exchangeOn(client.http, spec);
    const answeredSeq = ++this.#seq;
    const durationMs = Math.round(performance.now() - started);
    const base = { client: client.name, endpoint: done.operation?.id, sentSeq, answeredSeq, sentAtMs, durationMs };
    if (!done.ok && (done.failure.kind === "not_sent" || done.failure.kind === "cancelled")) {
      // Never sent (the target is taken as hung), or abandoned as the run stopped: no exchange to judge.
      return { exchange: { ...base, status: null, state: {}, curl: done.failure.curl, error: done.failure.message } };
    }
    if (!done.ok) {
      // Declined on every attempt (503 shed, 429: http-client.ts declinedKind, the one rule for both
      // modes): counted with its status, never judged; otherwise no answer came.
      const declined = done.failure.kind === "shed" || done.failure.kind === "rate_limited";
      const status = declined ? done.failure.record.status : null;
      const exchange: LoadExchange = { ...base, status, state: {}, curl: done.failure.curl, error: done.failure.message };
      this.#exchanges.push(exchange);
      return { exchange };
    }
    for (const result of done.observed) this.#keep(result);
    const exchange: LoadExchange = {
      ...base,
      status: done.response.status,
      state: ledgerState(done.response, this.#t.profile.headerPrefix),
      curl: done.response.curl,
    };
    this.#exchanges.push(exchange);
    return { exchange, response: done.response };
  }

  /**
   * Hands the load's profile and what the observed contract found to the check (it is reported under the cross-cutting ids, as
   * for any request), with a note of how many failures were left out, and closes the connections.
   */
  async close(profile: LoadProfile): Promise<void> {
    const trace = traceOf(this.#t);
    trace.loadProfile = profile;
    for (const { failed, failures, passed } of this.#observed.values()) {
      trace.observed.push(...failed);
      if (failures > failed.length) {
        const first = failed[0];
        if (first !== undefined) {
          trace.observed.push({
            ...first,
            failures: [{ message: `… and ${failures - failed.length} more answers under load like these`, curl: null }],
          });
        }
      }
      if (passed !== undefined && failed.length === 0) trace.observed.push(passed);
    }
    await Promise.all(this.#clients.map((c) => c.http.close()));
  }

  #keep(result: CheckResult): void {
    let kept = this.#observed.get(result.requirement);
    if (kept === undefined) {
      kept = { failed: [], failures: 0 };
      this.#observed.set(result.requirement, kept);
    }
    if (result.status === "failed" || result.status === "warned") {
      kept.failures += 1;
      if (kept.failed.length < KEPT_FAILURES_PER_RULE) kept.failed.push(result);
    } else if (result.status === "passed") {
      kept.passed ??= result;
    }
  }
}
