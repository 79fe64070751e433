// A small HTTP proxy on 127.0.0.1 in front of the reference node that breaks one law: it forwards every
// request through the suite's forwarding core (src/harness/proxy/forward.ts) and lets an alteration
// change the request, the answer, or answer by itself. The properties run against it and must catch the
// deviation.

import type { IncomingMessage, ServerResponse } from "node:http";
import { flattenHeaders } from "../../../src/harness/http-client.ts";
import { Forwarder, headerFields, listenOnLoopback, readRequest, writeAnswer } from "../../../src/harness/proxy/forward.ts";

export interface Exchange {
  readonly method: string;
  /** Path and query as received, e.g. "/v1/accounts/0x1/modules?limit=2". */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface Answer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Sends the exchange (or a changed copy) to the node and returns its answer. */
export type Forward = (changes?: Partial<Exchange>) => Promise<Answer>;

/** What the proxy answers: usually `forward()` and then a change to the answer. */
export type Alteration = (exchange: Exchange, forward: Forward) => Promise<Answer>;

export interface RunningProxy {
  /** Base URL including /v1, like the node's. */
  readonly url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

/** Bodies larger than this, either way, are refused (502). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** An upstream that has not answered in this long is given up (502). */
const UPSTREAM_TIMEOUT_MS = 120_000;

/** Forwards everything unchanged: the clean baseline. */
export const unchanged: Alteration = (_exchange, forward) => forward();

export async function startLawBreakingProxy(nodeUrl: string, alteration: Alteration): Promise<RunningProxy> {
  const forwarder = new Forwarder({ upstream: nodeUrl, timeoutMs: UPSTREAM_TIMEOUT_MS, maxAnswerBytes: MAX_BODY_BYTES });
  let count = 0;

  const forwardFrom =
    (exchange: Exchange): Forward =>
    async (changes = {}) => {
      const sent = { ...exchange, ...changes };
      const answer = await forwarder.exchange({
        method: sent.method,
        target: sent.path,
        headers: Object.entries(sent.headers),
        body: sent.body,
      });
      if (answer.kind === "too_large") throw new Error(`an answer exceeds ${MAX_BODY_BYTES} bytes`);
      if (answer.kind === "failed") throw answer.error;
      // Content-Length is set anew for whatever body the alteration answers with.
      const { "content-length": _length, ...headers } = flattenHeaders(headerFields(answer.headers));
      return { status: answer.status, headers, body: answer.body };
    };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    count += 1;
    const request = await readRequest(req, MAX_BODY_BYTES);
    if (request === undefined) throw new Error(`a request body exceeds ${MAX_BODY_BYTES} bytes`);
    const headers = flattenHeaders(headerFields(request.headers));
    const exchange: Exchange = { method: request.method, path: request.target, headers, body: request.body };
    const answer = await alteration(exchange, forwardFrom(exchange));
    const lines = [...Object.entries(answer.headers), ["content-length", String(answer.body.length)] as [string, string]];
    writeAnswer(res, exchange.method, { status: answer.status, headers: lines, body: answer.body });
  }

  const server = await listenOnLoopback(0, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`law-breaking proxy: ${(error as Error).message}`);
    });
  });
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests: () => count,
    close: async () => {
      await server.close();
      forwarder.close();
    },
  };
}

// --- small tools for alterations

/** The path without the query, and the query, of an exchange. */
export function splitPath(exchange: Exchange): { pathname: string; query: URLSearchParams } {
  const url = new URL(exchange.path, "http://proxy.invalid");
  return { pathname: url.pathname, query: url.searchParams };
}

/** The exchange's path with the query changed. */
export function withQuery(exchange: Exchange, change: (query: URLSearchParams) => void): string {
  const { pathname, query } = splitPath(exchange);
  change(query);
  const qs = query.toString();
  return qs === "" ? pathname : `${pathname}?${qs}`;
}

export function jsonOf(answer: Answer): unknown {
  return JSON.parse(answer.body.toString("utf8"));
}

/** The answer with a new JSON body (and Content-Type). */
export function withJson(answer: Answer, json: unknown, status = answer.status): Answer {
  return {
    status,
    headers: { ...answer.headers, "content-type": "application/json; charset=utf-8" },
    body: Buffer.from(JSON.stringify(json)),
  };
}

/** The answer with headers set (lower-case names) or removed (undefined). */
export function withHeaders(answer: Answer, changes: Readonly<Record<string, string | undefined>>): Answer {
  const headers: Record<string, string> = { ...answer.headers };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  return { ...answer, headers };
}

/** A §2.6 error answer carrying the ledger headers of `like`. */
export function errorAnswer(like: Answer, status: number, code: string, message = "altered by the law-breaking proxy"): Answer {
  const headers = Object.fromEntries(
    Object.entries(like.headers).filter(([name]) => name.startsWith("x-node-") && name !== "x-node-cursor"),
  );
  return withJson({ status, headers, body: Buffer.alloc(0) }, { message, error_code: code }, status);
}

/** Starts a proxy with `alteration` in front of `nodeUrl`, runs `body` against its URL, and closes it. */
export async function throughProxy<T>(nodeUrl: string, alteration: Alteration, body: (proxyUrl: string) => Promise<T>): Promise<T> {
  const proxy = await startLawBreakingProxy(nodeUrl, alteration);
  try {
    return await body(proxy.url);
  } finally {
    await proxy.close();
  }
}

/** Whether the exchange is a request for `pathname` (e.g. "/v1/-/healthy"), or matches it as a pattern. */
export function isPath(exchange: Exchange, pathname: string | RegExp): boolean {
  const path = splitPath(exchange).pathname;
  return typeof pathname === "string" ? path === pathname : pathname.test(path);
}
