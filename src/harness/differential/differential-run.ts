// The differential mode (--compare-to): reads both nodes' ledger window, picks one version both
// retain, sends every compared request to both, and lists where the answers differ, each difference
// with both answers and both curl lines. A request either node gave no HTTP answer to is skipped with
// the reason (a connection fault is no evidence); so is one that one node answered 410 because it
// pruned the version meanwhile (its own oldest-version header says so).

import type { Fixtures } from "../fixtures.ts";
import { renderBody } from "../failure-message.ts";
import { HttpClient, RequestFailure, type HttpResponse } from "../http-client.ts";
import type { SecretHeaders } from "../secrets.ts";
import type { ApiContract } from "../openapi.ts";
import { headerValue, ledgerState } from "../response-facts.ts";
import { compareAnswers, type DifferenceKind } from "./compare-answers.ts";
import { comparedRequests, JSON_MEDIA, type ComparedRequest } from "./compared-requests.ts";

export interface DifferentialInput {
  /** The run's target and the node compared with it, each a base URL including /v1. */
  readonly target: string;
  readonly compareTo: string;
  /** The run's fixtures, and --compare-fixtures' when given. */
  readonly fixtures: readonly Fixtures[];
  readonly contract: ApiContract;
  readonly headerPrefix: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly bodiesDir?: string;
  /** --rate-limit: requests per second to each node. */
  readonly rateLimit?: number;
  /** Requests in flight at once, per node (default 4). */
  readonly concurrency?: number;
  /** --header values: sent to the target only (a credential is never sent to a host it was not given for). */
  readonly secretHeaders?: SecretHeaders;
}

/** One side of a difference, as the report shows it. */
export interface AnswerView {
  readonly url: string;
  readonly curl: string;
  readonly status: number;
  /** content-type and the ledger-state headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body cut to a readable length (binary as hex). */
  readonly body: string;
}

export interface Difference {
  readonly request: string;
  readonly operation: string;
  readonly accept: string;
  readonly kind: DifferenceKind;
  readonly at?: string;
  readonly detail: string;
  readonly target: AnswerView;
  readonly compareTo: AnswerView;
}

export interface DifferentialResult {
  readonly target: string;
  readonly compareTo: string;
  /** The ledger version the reads were made at; absent when the nodes share none. */
  readonly version?: string;
  /** Requests both nodes answered and whose answers were compared. */
  readonly compared: number;
  readonly skipped: readonly { readonly request: string; readonly reason: string }[];
  readonly differences: readonly Difference[];
  /** Why nothing (or not everything) could be compared. */
  readonly note?: string;
}

export async function runDifferential(input: DifferentialInput): Promise<DifferentialResult> {
  const clientOptions = {
    timeoutMs: input.timeoutMs,
    maxResponseBytes: input.maxResponseBytes,
    ...(input.bodiesDir === undefined ? {} : { bodiesDir: input.bodiesDir }),
    ...(input.rateLimit === undefined ? {} : { rateLimit: input.rateLimit }),
  };
  const clients = {
    target: new HttpClient({ ...clientOptions, ...(input.secretHeaders === undefined ? {} : { secretHeaders: input.secretHeaders }) }),
    compareTo: new HttpClient(clientOptions),
  };
  const base = { target: input.target, compareTo: input.compareTo };
  try {
    const probe: ComparedRequest = {
      name: "health (ledger window)",
      operation: "healthy",
      method: "GET",
      path: "/-/healthy",
      accept: JSON_MEDIA,
      comparison: "shape",
    };
    const [a, b] = await Promise.all([send(clients.target, base.target, probe), send(clients.compareTo, base.compareTo, probe)]);
    if (!a.ok || !b.ok)
      return {
        ...base,
        compared: 0,
        skipped: [],
        differences: [],
        note: `cannot read both nodes' ledger window: ${[a, b]
          .filter((x) => !x.ok)
          .map((x) => (x as { reason: string }).reason)
          .join("; ")}`,
      };
    const differences: Difference[] = [];
    const chainA = headerValue(a.response, input.headerPrefix, "CHAIN-ID");
    const chainB = headerValue(b.response, input.headerPrefix, "CHAIN-ID");
    if (chainA !== undefined && chainB !== undefined && chainA !== chainB) {
      differences.push(
        difference(
          probe,
          { kind: "header", at: `${input.headerPrefix}CHAIN-ID`, detail: `${chainA ?? "(absent)"} vs ${chainB ?? "(absent)"}` },
          a.response,
          b.response,
          input.headerPrefix,
        ),
      );
      return { ...base, compared: 1, skipped: [], differences, note: "the nodes serve different chains: nothing else is compared" };
    }
    const sa = ledgerState(a.response, input.headerPrefix);
    const sb = ledgerState(b.response, input.headerPrefix);
    if (
      sa.ledgerVersion === undefined ||
      sb.ledgerVersion === undefined ||
      sa.oldestVersion === undefined ||
      sb.oldestVersion === undefined
    ) {
      return {
        ...base,
        compared: 0,
        skipped: [],
        differences,
        note: "a node's health answer has no ledger-version headers (§2.7): no version to read both at",
      };
    }
    // The newest version both have committed: the one least likely to be pruned while the reads go on.
    const version = sa.ledgerVersion < sb.ledgerVersion ? sa.ledgerVersion : sb.ledgerVersion;
    const oldest = sa.oldestVersion > sb.oldestVersion ? sa.oldestVersion : sb.oldestVersion;
    if (version < oldest) {
      return {
        ...base,
        compared: 0,
        skipped: [],
        differences,
        note: `the nodes retain no version in common (${input.target}: ${sa.oldestVersion}..${sa.ledgerVersion}; ${input.compareTo}: ${sb.oldestVersion}..${sb.ledgerVersion})`,
      };
    }
    const latest = sa.ledgerVersion > sb.ledgerVersion ? sa.ledgerVersion : sb.ledgerVersion;
    const requests = comparedRequests(input.contract, input.fixtures, { version, oldest, latest });
    const skipped: { request: string; reason: string }[] = [];
    let compared = 0;
    await forEachBounded(requests, input.concurrency ?? 4, async (request) => {
      const [x, y] = await Promise.all([send(clients.target, base.target, request), send(clients.compareTo, base.compareTo, request)]);
      if (!x.ok || !y.ok) {
        skipped.push({
          request: request.name,
          reason: [x, y]
            .filter((s) => !s.ok)
            .map((s) => (s as { reason: string }).reason)
            .join("; "),
        });
        return;
      }
      const pruned = prunedMeanwhile(x.response, y.response, version, input.headerPrefix);
      if (pruned !== undefined) {
        skipped.push({ request: request.name, reason: pruned });
        return;
      }
      compared += 1;
      const d = compareAnswers(request, x.response, y.response, input.headerPrefix);
      if (d !== undefined) differences.push(difference(request, d, x.response, y.response, input.headerPrefix));
    });
    const order = new Map(requests.map((r, i) => [`${r.name}`, i]));
    differences.sort((p, q) => (order.get(p.request) ?? 0) - (order.get(q.request) ?? 0));
    return { ...base, version: version.toString(), compared, skipped, differences };
  } finally {
    await Promise.all([clients.target.close(), clients.compareTo.close()]).catch(() => undefined);
  }
}

type Sent = { readonly ok: true; readonly response: HttpResponse } | { readonly ok: false; readonly reason: string };

async function send(client: HttpClient, base: string, request: ComparedRequest): Promise<Sent> {
  const body = request.body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(request.body));
  try {
    const response = await client.send({
      method: request.method,
      url: `${base}${request.path}`,
      headers: { accept: request.accept, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body }),
    });
    return { ok: true, response };
  } catch (e) {
    if (!(e instanceof RequestFailure)) throw e;
    return { ok: false, reason: `${base}: no HTTP answer (${e.message})` };
  }
}

/** A 410 from a node whose own oldest version is now above the version read: it pruned it since the window was read. */
function prunedMeanwhile(a: HttpResponse, b: HttpResponse, version: bigint, headerPrefix: string): string | undefined {
  for (const res of [a, b]) {
    const oldest = ledgerState(res, headerPrefix).oldestVersion;
    if (res.status === 410 && oldest !== undefined && oldest > version) {
      return `${res.request.url} pruned version ${version} while the reads went on (its oldest version is now ${oldest})`;
    }
  }
  return undefined;
}

function difference(
  request: ComparedRequest,
  d: { kind: DifferenceKind; at?: string; detail: string },
  a: HttpResponse,
  b: HttpResponse,
  headerPrefix: string,
): Difference {
  return {
    request: request.name,
    operation: request.operation,
    accept: request.accept,
    kind: d.kind,
    ...(d.at === undefined ? {} : { at: d.at }),
    detail: d.detail,
    target: view(a, headerPrefix),
    compareTo: view(b, headerPrefix),
  };
}

function view(res: HttpResponse, headerPrefix: string): AnswerView {
  const prefix = headerPrefix.toLowerCase();
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => name === "content-type" || name.startsWith(prefix)));
  return { url: res.request.url, curl: res.curl, status: res.status, headers, body: renderBody(res.body, res.contentType) };
}

async function forEachBounded<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
