// A small HTTP proxy on 127.0.0.1 in front of the reference node that breaks one law: it forwards every
// request (node:http in, undici out) and lets an alteration change the request, the answer, or answer
// by itself. The properties run against it and must catch the deviation.

import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Agent, request } from "undici";

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

const HOP_BY_HOP = /^(host|connection|keep-alive|transfer-encoding|content-length|upgrade|proxy-connection|te|trailer)$/i;

/** Forwards everything unchanged: the clean baseline. */
export const unchanged: Alteration = (_exchange, forward) => forward();

export async function startLawBreakingProxy(nodeUrl: string, alteration: Alteration): Promise<RunningProxy> {
  const origin = new URL(nodeUrl).origin;
  const agent = new Agent({ keepAliveTimeout: 5_000 });
  const sockets = new Set<Socket>();
  let count = 0;

  const forwardFrom =
    (exchange: Exchange): Forward =>
    async (changes = {}) => {
      const sent = { ...exchange, ...changes };
      const res = await request(`${origin}${sent.path}`, {
        dispatcher: agent,
        method: sent.method as "GET",
        headers: Object.fromEntries(Object.entries(sent.headers).filter(([name]) => !HOP_BY_HOP.test(name))),
        body: sent.method === "GET" || sent.method === "HEAD" ? null : sent.body,
      });
      const body = Buffer.from(await res.body.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined && !HOP_BY_HOP.test(name)) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
      }
      return { status: res.statusCode, headers, body };
    };

  const server = createServer((req: IncomingMessage, res) => {
    count += 1;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
      }
      const exchange: Exchange = { method: req.method ?? "GET", path: req.url ?? "/", headers, body: Buffer.concat(chunks) };
      alteration(exchange, forwardFrom(exchange)).then(
        (answer) => {
          res.writeHead(answer.status, { ...answer.headers, "content-length": String(answer.body.length) });
          res.end(answer.body);
        },
        (error: unknown) => {
          res.writeHead(502, { "content-type": "text/plain" });
          res.end(`law-breaking proxy: ${(error as Error).message}`);
        },
      );
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: () => count,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
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
