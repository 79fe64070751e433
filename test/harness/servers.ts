// Small real servers for the harness's tests, on 127.0.0.1 port 0.

import { createServer, request as httpRequest, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import { createConnection, createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface Running {
  readonly origin: string;
  readonly port: number;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** `keepAliveTimeoutMs`: the server's keepAliveTimeout (Node's default otherwise, 5 s, announced as Keep-Alive: timeout=5). */
export async function httpServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void,
  keepAliveTimeoutMs?: number,
): Promise<Running> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handler(req, res, Buffer.concat(chunks)));
  });
  if (keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = keepAliveTimeoutMs;
  return listenTracked(server);
}

/**
 * Sends `req` on to `upstream` as it came (method, target, headers; `body` when the request was read
 * already, else the request itself streamed) and writes the answer back as it is; an upstream that
 * fails drops the connection: a plain proxy's forwarding, for tests that put something before a node.
 */
export function forwardAsIs(upstream: URL, req: IncomingMessage, res: ServerResponse, body?: Buffer): void {
  const forward = httpRequest(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forward.on("error", () => res.destroy());
  if (body === undefined) req.pipe(forward);
  else forward.end(body);
}

/**
 * A node:http server that closes a kept-alive connection once it has been idle for `idleMs`, and says
 * nothing of it beforehand: its answers carry Connection: keep-alive, set here, so that Node adds no
 * Keep-Alive: timeout= hint. server.keepAliveTimeout alone cannot do it: Node 20 waits that long plus
 * a second (HTTP_SERVER_KEEP_ALIVE_TIMEOUT_BUFFER, lib/_http_server.js), so the idle time is set on the
 * socket after each answer, where Node's own would be (it clears it when the next request comes).
 */
export async function idleClosingServer(
  idleMs: number,
  handler: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void,
): Promise<Running> {
  return httpServer((req, res, body) => {
    res.setHeader("connection", "keep-alive");
    res.on("finish", () => req.socket.setTimeout(idleMs));
    handler(req, res, body);
  });
}

/** Accepts connections and never writes a byte (optionally: writes `prefix` and then stalls). */
export async function silentServer(prefix?: string): Promise<Running> {
  const server = createNetServer((socket) => {
    socket.on("error", () => undefined);
    if (prefix !== undefined) socket.once("data", () => socket.write(prefix));
  });
  return listenTracked(server);
}

/** Reads the first bytes of a request, then answers `bytes` (not HTTP) and closes. */
export async function garbageServer(bytes: Uint8Array): Promise<Running> {
  const server = createNetServer((socket) => {
    socket.on("error", () => undefined);
    socket.once("data", () => socket.end(bytes));
  });
  return listenTracked(server);
}

/** Reads the first bytes of a request, then resets the connection (TCP RST) without a byte of answer. */
export async function resettingServer(): Promise<Running> {
  const server = createNetServer((socket) => {
    socket.on("error", () => undefined);
    socket.once("data", () => socket.resetAndDestroy());
  });
  return listenTracked(server);
}

/** The start of an HTTP/1.1 request: a chunk that begins with one starts a new request on its connection. */
const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.[01]\r\n/;

export interface ResettingProxy extends Running {
  /** Requests reset so far. */
  resets(): number;
}

/**
 * A TCP proxy to 127.0.0.1:`upstreamPort` that resets every `every`-th request it sees (counted by
 * request lines, so that keep-alive connections and large bodies count one request each): the request
 * is read, not forwarded, and the client's connection is reset. Deterministic: which requests are reset
 * depends only on their order.
 */
export async function resettingProxy(upstreamPort: number, every: number): Promise<ResettingProxy> {
  let requests = 0;
  let resets = 0;
  const server = createNetServer((client) => {
    const upstream = createConnection({ host: "127.0.0.1", port: upstreamPort });
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop);
    upstream.on("error", drop);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    client.on("data", (chunk: Buffer) => {
      if (REQUEST_LINE.test(chunk.subarray(0, 64).toString("latin1"))) {
        requests += 1;
        if (requests % every === 0) {
          resets += 1;
          upstream.destroy();
          client.resetAndDestroy();
          return;
        }
      }
      upstream.write(chunk);
    });
  });
  const running = await listenTracked(server);
  return { ...running, resets: () => resets };
}

/** Listens on 127.0.0.1 port 0, counting connections and destroying the open ones on close. */
async function listenTracked(server: HttpServer | NetServer): Promise<Running> {
  let connections = 0;
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A port nothing listens on: bind one, close it, return it. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** The §2.7 headers of a consistent ledger state, under `prefix`. */
export function ledgerHeaders(prefix = "X-NODE-", values: Partial<Record<string, string>> = {}): Record<string, string> {
  return {
    [`${prefix}CHAIN-ID`]: "4",
    [`${prefix}LEDGER-VERSION`]: "100",
    [`${prefix}LEDGER-OLDEST-VERSION`]: "0",
    [`${prefix}LEDGER-TIMESTAMPUSEC`]: "1700000000000000",
    [`${prefix}EPOCH`]: "1",
    [`${prefix}BLOCK-HEIGHT`]: "50",
    [`${prefix}OLDEST-BLOCK-HEIGHT`]: "0",
    ...Object.fromEntries(Object.entries(values).map(([k, v]) => [`${prefix}${k}`, v as string])),
  };
}

/**
 * A small node for the command's end-to-end tests: §4.6 in JSON (in BCS, `bcs`, when asked for
 * application/x-bcs and given; else JSON whatever is asked), §4.7 when `healthy`, and 404
 * resource_not_found to anything else, every answer of §4.6 and §4.7 with ledger headers.
 */
export function gasEstimateNode(options: { readonly bcs?: Uint8Array; readonly healthy?: boolean } = {}): Promise<Running> {
  return httpServer((req, res) => {
    const url = req.url ?? "";
    const headers = ledgerHeaders();
    if (url.startsWith("/v1/estimate_gas_price")) {
      if (options.bcs !== undefined && req.headers.accept === "application/x-bcs") {
        res.writeHead(200, { ...headers, "content-type": "application/x-bcs" });
        res.end(Buffer.from(options.bcs));
      } else {
        res.writeHead(200, { ...headers, "content-type": "application/json" });
        res.end(JSON.stringify({ deprioritized_gas_estimate: 100, gas_estimate: 100, prioritized_gas_estimate: 150 }));
      }
      return;
    }
    if (options.healthy === true && url.startsWith("/v1/-/healthy")) {
      res.writeHead(200, { ...headers, "content-type": "application/json" });
      res.end('{"message":"ok"}');
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"message":"not found","error_code":"resource_not_found"}');
  });
}
