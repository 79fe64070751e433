// Requests per second and latency of five endpoints of the reference node over loopback: the node runs
// as a child process and autocannon drives it from this one, each endpoint for a fixed duration.

import autocannon, { type AutocannonRequest, type AutocannonResult } from "autocannon";
import { request } from "undici";
import { formatNumber, printTable } from "./format.ts";
import { startChildNode, type ChildNode } from "./node-process.ts";
import type { BenchOptions } from "./options.ts";
import { percentile } from "./stats.ts";
import { signTransfers, type SubmissionPool } from "./submissions.ts";

const BCS_SUBMISSION = "application/x.node.signed_transaction+bcs";
/**
 * Transactions signed per second of load (warm-up included). The node verifies an ed25519 signature per
 * submission in JavaScript, so on 2 cores it answers a few hundred a second; the pool is sized well
 * above that, and the report says how many requests had to repeat a transaction if it ran out.
 */
const SUBMISSIONS_PER_SECOND = 2_000;

interface Endpoint {
  readonly name: string;
  /** The goal in requests per second on 2 cores with 8 connections, where there is one. */
  readonly goalPerSecond?: number;
  readonly request: AutocannonRequest;
  /** The status a correct answer has; checked once before the load. */
  readonly expectedStatus: 200 | 202;
  /** Counts each non-2xx answer by `status error_code` (only where the request reads error bodies). */
  readonly errorCodes?: Map<string, number>;
}

interface Measurement {
  readonly endpoint: Endpoint;
  readonly result: AutocannonResult;
  /** Milliseconds, one per response whatever its status. */
  readonly latencies: readonly number[];
  /** `status error_code` (submissions) or `status` (reads) of the non-2xx answers, counted. */
  readonly non2xx: ReadonlyMap<string, number>;
}

export async function runNodeThroughput(options: BenchOptions): Promise<void> {
  const node = await startChildNode();
  try {
    const seconds = options.durationSeconds + options.warmupSeconds;
    const pool = signTransfers(node.fixtures, seconds * SUBMISSIONS_PER_SECOND + 1);
    const measurements: Measurement[] = [];
    for (const endpoint of endpointsOf(node, pool)) {
      await checkOnce(node, endpoint);
      if (options.warmupSeconds > 0) await load(node.url, endpoint, options.connections, options.warmupSeconds);
      measurements.push(await load(node.url, endpoint, options.connections, options.durationSeconds));
    }
    printResults(measurements, options, pool);
  } finally {
    await node.stop();
  }
}

function endpointsOf(node: ChildNode, pool: SubmissionPool): Endpoint[] {
  const base = new URL(node.url).pathname; // "/v1"
  const { fixtures } = node;
  const errorCodes = new Map<string, number>();
  return [
    {
      name: "GET modules of 0x1",
      goalPerSecond: 5_000,
      expectedStatus: 200,
      request: { method: "GET", path: `${base}/accounts/0x1/modules` },
    },
    {
      name: `GET module ${fixtures.moduleAccount}::${fixtures.moduleName}`,
      goalPerSecond: 10_000,
      expectedStatus: 200,
      request: { method: "GET", path: `${base}/accounts/${fixtures.moduleAccount}/module/${fixtures.moduleName}` },
    },
    {
      name: "GET transaction summaries",
      goalPerSecond: 10_000,
      expectedStatus: 200,
      request: { method: "GET", path: `${base}/accounts/${fixtures.transactionsAccount}/transaction_summaries` },
    },
    {
      name: "POST table item",
      goalPerSecond: 10_000,
      expectedStatus: 200,
      request: {
        method: "POST",
        path: `${base}/tables/${fixtures.table.handle}/item`,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key_type: fixtures.table.keyType, value_type: fixtures.table.valueType, key: fixtures.table.key }),
      },
    },
    {
      name: "POST BCS submission",
      expectedStatus: 202,
      errorCodes,
      request: {
        method: "POST",
        path: `${base}/transactions`,
        headers: { "content-type": BCS_SUBMISSION },
        // A fresh transaction for every request, whichever connection sends it.
        setupRequest: (req) => ({ ...req, body: pool.take() }),
        onResponse: (status, body) => {
          if (status < 300) return;
          const key = `${status} ${errorCode(body)}`;
          errorCodes.set(key, (errorCodes.get(key) ?? 0) + 1);
        },
      },
    },
  ];
}

function errorCode(body: string): string {
  try {
    const code = (JSON.parse(body) as { error_code?: unknown }).error_code;
    return typeof code === "string" ? code : "(no error_code)";
  } catch {
    return "(not JSON)";
  }
}

/** One request outside the load: a wrong status here would make every figure below meaningless. */
async function checkOnce(node: ChildNode, endpoint: Endpoint): Promise<void> {
  const { method = "GET", path = "/", headers, setupRequest } = endpoint.request;
  const body = setupRequest ? setupRequest(endpoint.request, {}).body : endpoint.request.body;
  const response = await request(new URL(path, node.url).href, { method, headers, body });
  const text = await response.body.text();
  if (response.statusCode !== endpoint.expectedStatus)
    throw new Error(`${endpoint.name}: expected ${endpoint.expectedStatus}, got ${response.statusCode} ${text.slice(0, 300)}`);
}

function load(url: string, endpoint: Endpoint, connections: number, seconds: number): Promise<Measurement> {
  const latencies: number[] = [];
  endpoint.errorCodes?.clear();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: new URL(url).origin, connections, duration: seconds, timeout: 10, requests: [endpoint.request] },
      (error, result) => {
        if (error) reject(error);
        else resolve({ endpoint, result, latencies, non2xx: non2xxOf(endpoint, result) });
      },
    );
    instance.on("response", (_client, _status, _bytes, latencyMs) => latencies.push(latencyMs));
  });
}

function non2xxOf(endpoint: Endpoint, result: AutocannonResult): Map<string, number> {
  if (endpoint.errorCodes !== undefined) return new Map(endpoint.errorCodes);
  return new Map(
    Object.entries(result.statusCodeStats)
      .filter(([status]) => !status.startsWith("2"))
      .map(([status, stat]) => [status, stat.count]),
  );
}

function printResults(measurements: readonly Measurement[], options: BenchOptions, pool: SubmissionPool): void {
  const rows = measurements.map(({ endpoint, result, latencies, non2xx }) => {
    const failed = [...non2xx.values()].reduce((sum, n) => sum + n, 0);
    const perSecond = latencies.length / result.duration;
    return [
      endpoint.name,
      formatNumber(perSecond),
      endpoint.goalPerSecond === undefined
        ? "-"
        : `≥ ${formatNumber(endpoint.goalPerSecond)} ${perSecond >= endpoint.goalPerSecond ? "met" : "NOT met"}`,
      formatNumber(percentile(latencies, 50), 2),
      formatNumber(percentile(latencies, 99), 2),
      formatNumber(latencies.length),
      formatNumber(latencies.length - failed),
      [...non2xx].map(([key, count]) => `${formatNumber(count)} × ${key}`).join(", ") || "0",
      formatNumber(result.errors + result.timeouts),
    ];
  });
  printTable({
    title:
      `Throughput over loopback: ${options.connections} connections, ${options.durationSeconds} s per endpoint ` +
      `after ${options.warmupSeconds} s of warm-up (the node in a child process, default genesis)`,
    columns: [
      { header: "endpoint" },
      { header: "req/s", align: "right" },
      { header: "goal (req/s)" },
      { header: "p50 ms", align: "right" },
      { header: "p99 ms", align: "right" },
      { header: "responses", align: "right" },
      { header: "2xx", align: "right" },
      { header: "non-2xx (count × status)" },
      { header: "errors", align: "right" },
    ],
    rows,
    notes: [
      "Latency covers every response, whatever its status; errors are socket errors and timeouts.",
      "Goals are for 2 cores with nothing else running: the load generator shares them with the node.",
      `Submissions: ${formatNumber(pool.bodies.length)} distinct transfers signed beforehand, round-robin over the ${pool.senders} fixture accounts`,
      "with sequence numbers 0, 1, 2, … each. A sender may have 100 pending transactions and a block (every 1 s) takes 100;",
      "a refusal for a full mempool (507) comes after the same signature and prologue checks as an acceptance (202).",
      ...(pool.repeated > 0 ? [`The pool ran out: ${formatNumber(pool.repeated)} requests repeated a transaction already sent.`] : []),
    ],
  });
}
