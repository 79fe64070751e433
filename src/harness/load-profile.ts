// What a node did under the load mode (--load N), for the report: how many requests each endpoint
// answered, how fast, and how many of them were errors. 5xx answers and requests without an answer are
// counted here, never judged: §7.1 lists 500 and 503 for every endpoint, so a node that sheds load with
// 503 conforms, and its team learns from these figures how much it shed.

/** Latency of the answered requests, in whole milliseconds (nearest-rank percentiles). */
export interface LatencyPercentiles {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/** Answers by status class; `noAnswer` counts requests that got none (timeout, reset) after their retries. */
export interface StatusCounts {
  readonly "2xx": number;
  readonly "3xx": number;
  readonly "4xx": number;
  readonly "5xx": number;
  readonly noAnswer: number;
}

/** One endpoint (an operationId of schemas/openapi.yaml) under load. */
export interface EndpointLoad {
  readonly endpoint: string;
  readonly requests: number;
  /** requests / the load's wall time. */
  readonly perSecond: number;
  /** Absent when no request of the endpoint was answered. */
  readonly latencyMs?: LatencyPercentiles;
  readonly statuses: StatusCounts;
}

export interface LoadProfile {
  /** Concurrent reading clients, each on connections of its own (--load N). */
  readonly clients: number;
  /** Concurrent writers submitting transactions; 0 when the run may not submit. */
  readonly writers: number;
  /** Why there were no writers (submissions not allowed, no fixtures accounts); absent when there were. */
  readonly writersSkipped?: string;
  /** Wall time of the load, from the first request to the last answer. */
  readonly durationMs: number;
  readonly requests: number;
  readonly perSecond: number;
  /** In the order of schemas/openapi.yaml's operations; endpoints the load did not call are left out. */
  readonly endpoints: readonly EndpointLoad[];
  /** What each law under load found: how many cases the load let it decide, and how many anomalies. */
  readonly laws?: readonly LawFinding[];
}

/** One law under load over the whole load (its verdict is its requirement's, in the report's table). */
export interface LawFinding {
  /** The requirement id (schemas/requirements/under-load.yaml). */
  readonly id: string;
  readonly decided: number;
  readonly anomalies: number;
}

/** The nearest-rank percentile p (0 < p ≤ 100) of ascending `sorted`; undefined when it is empty. */
export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
