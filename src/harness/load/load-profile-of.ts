// The load profile (load-profile.ts) of a load's exchanges: per endpoint, how many requests, how fast,
// their latency and their answers by status class.

import type { LoadExchange } from "./load-exchange.ts";
import { percentile, type EndpointLoad, type LawFinding, type LoadProfile, type StatusCounts } from "../load-profile.ts";

export interface LoadShape {
  readonly clients: number;
  readonly writers: number;
  readonly writersSkipped?: string;
  readonly durationMs: number;
  readonly laws?: readonly LawFinding[];
}

/** The profile of `exchanges`, endpoints in the order of `endpointOrder` (the contract's operations); others after them. */
export function loadProfileOf(exchanges: readonly LoadExchange[], shape: LoadShape, endpointOrder: readonly string[]): LoadProfile {
  const byEndpoint = new Map<string, LoadExchange[]>();
  for (const e of exchanges) {
    const key = e.endpoint ?? "(not in the contract)";
    const list = byEndpoint.get(key);
    if (list === undefined) byEndpoint.set(key, [e]);
    else list.push(e);
  }
  const seconds = Math.max(shape.durationMs, 1) / 1000;
  const rank = (name: string) => {
    const i = endpointOrder.indexOf(name);
    return i < 0 ? endpointOrder.length : i;
  };
  const endpoints = [...byEndpoint.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([endpoint, list]): EndpointLoad => {
      const latencies = list
        .filter((e) => e.status !== null)
        .map((e) => e.durationMs)
        .sort((a, b) => a - b);
      const p = (q: number) => percentile(latencies, q) as number;
      return {
        endpoint,
        requests: list.length,
        perSecond: round1(list.length / seconds),
        ...(latencies.length === 0 ? {} : { latencyMs: { p50: p(50), p95: p(95), p99: p(99), max: p(100) } }),
        statuses: statusCounts(list),
      };
    });
  return {
    clients: shape.clients,
    writers: shape.writers,
    ...(shape.writersSkipped === undefined ? {} : { writersSkipped: shape.writersSkipped }),
    durationMs: Math.round(shape.durationMs),
    requests: exchanges.length,
    perSecond: round1(exchanges.length / seconds),
    endpoints,
    ...(shape.laws === undefined ? {} : { laws: shape.laws }),
  };
}

function statusCounts(list: readonly LoadExchange[]): StatusCounts {
  const counts = { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, noAnswer: 0 };
  for (const e of list) {
    if (e.status === null) counts.noAnswer += 1;
    else if (e.status >= 500) counts["5xx"] += 1;
    else if (e.status >= 400) counts["4xx"] += 1;
    else if (e.status >= 300) counts["3xx"] += 1;
    else counts["2xx"] += 1;
  }
  return counts;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
