// An HTTP/1.1 proxy on loopback in front of a node, applying one allowed variation (variations.ts) or
// one deviation (deviations.ts) to what passes through it: the target a conformance run is pointed at in
// the allowed-variations and deviations guards (test/self-check/allowed-variations.test.ts,
// deviations.test.ts).
//
// A request goes upstream as it came (method, target, headers but the hop-by-hop ones, its body read
// whole, bounded, and sent as one), but for the target a variation may rewrite. An answer is read whole (bounded), handed
// to the variation as status, header lines and body bytes, and written back: with Content-Length set
// anew when the variation changed the body, the body bytes untouched otherwise (BCS byte for byte).
// node:http on both sides: no package.

import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { writePlain, type Answer } from "./proxy-answer.ts";
import { alterationNamed } from "./alterations.ts";
import type { VariationHooks } from "./variations.ts";

export interface VariationProxy {
  /** Base URL including /v1. */
  readonly url: string;
  /** The answers (for idle-close-50ms: the connections) the variation changed so far. */
  readonly changed: () => number;
  close(): Promise<void>;
}

/** An answer larger than this is refused (502): the reference node's largest is the interface description. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** A request body larger than this is refused (502): the suite's largest is a 9 MiB submission. */
const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
/** An upstream that has not answered in this long is given up (502). */
const UPSTREAM_TIMEOUT_MS = 120_000;
/** How long an upload the upstream cut short waits for the upstream's answer. */
const UPLOAD_CUT_GRACE_MS = 500;
/** Hop-by-hop fields (RFC 9110 §7.6.1) and those the proxy answers itself (Expect: Node's server sends the 100). */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "expect"]);

/** Starts the proxy in front of `upstream` (a base URL including /v1), applying the variation or deviation named `variation`. */
export async function startVariationProxy(upstream: string, variation: string): Promise<VariationProxy> {
  const base = new URL(upstream);
  const hooks: VariationHooks = alterationNamed(variation).create();
  let changed = 0;
  const count = (didChange: boolean) => {
    if (didChange) changed++;
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    forward(req, res).catch((error: unknown) => fail(res, error));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  hooks.server?.(server, () => count(true));

  /**
   * One exchange with the upstream. A read goes on a kept-alive connection and, when that connection
   * turns out closed before any answer, once more on another (RFC 9112 §9.3.1: the upstream may close
   * an idle connection at any time, and a proxy retries what is idempotent); anything else goes on a
   * connection of its own, which never meets that race.
   */
  async function exchangeUpstream(req: IncomingMessage, target: string, requestBody: Buffer): Promise<IncomingMessage> {
    const idempotent = req.method === "GET" || req.method === "HEAD";
    try {
      return await sendUpstream(base, req, target, requestBody, idempotent ? agent : false);
    } catch (failure) {
      if (!(failure instanceof UpstreamFailure)) throw failure;
      if (idempotent && failure.reusedSocket) return sendUpstream(base, req, target, requestBody, agent);
      // An upload the upstream stopped reading, with no answer come: it cannot have acted on a body it
      // did not read whole, so the one retry on a connection of its own repeats nothing.
      if (failure.uploadCut) return sendUpstream(base, req, target, requestBody, false);
      throw failure;
    }
  }

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = hooks.target?.(req.url ?? "/") ?? req.url ?? "/";
    const requestBody = await readBounded(req, MAX_REQUEST_BYTES);
    // A gateway's own answer, in place of the node's: the request never goes upstream.
    const own = hooks.respond?.({ method: req.method ?? "GET", path: target.split("?")[0] as string, target });
    if (own !== undefined) {
      count(true);
      if (!res.destroyed) writePlain({ ...own, requestHeaders: req.headers }, res);
      return;
    }
    const upstreamRes = await exchangeUpstream(req, target, requestBody);
    const body = await readBounded(upstreamRes, MAX_ANSWER_BYTES);
    const answer: Answer = {
      method: req.method ?? "GET",
      path: target.split("?")[0] as string,
      target,
      requestHeaders: req.headers,
      status: upstreamRes.statusCode ?? 502,
      headers: pairs(upstreamRes.rawHeaders).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())),
      body,
    };
    count(hooks.answer?.(answer) ?? false);
    if (answer.body !== body) setContentLength(answer);
    if (res.destroyed) return;
    count((await hooks.write?.(answer, res)) ?? writePlain(answer, res));
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base.pathname.replace(/\/$/, "")}`,
    changed: () => changed,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      agent.destroy();
    },
  };
}

function forwardedHeaders(raw: readonly string[]): string[] {
  return pairs(raw)
    .filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase()))
    .flat();
}

function pairs(raw: readonly string[]): [string, string][] {
  const result: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) result.push([raw[i] as string, raw[i + 1] as string]);
  return result;
}

/** Content-Length as the changed body's length, where the upstream sent one (a HEAD answer's is left alone). */
function setContentLength(answer: Answer): void {
  if (answer.method === "HEAD") return;
  answer.headers = answer.headers.map(([name, value]) => [
    name,
    name.toLowerCase() === "content-length" ? String(answer.body.length) : value,
  ]);
}

/** A failure of one upstream exchange before its answer, and whether its connection had served another. */
class UpstreamFailure extends Error {
  constructor(
    override readonly cause: Error,
    readonly reusedSocket: boolean,
    /** The upload failed (EPIPE, a reset) before the upstream answered. */
    readonly uploadCut = false,
  ) {
    super(cause.message);
  }
}

function sendUpstream(upstream: URL, req: IncomingMessage, target: string, body: Buffer, via: Agent | false): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: target,
        headers: forwardedHeaders(req.rawHeaders),
        agent: via,
        timeout: UPSTREAM_TIMEOUT_MS,
      },
      resolve,
    );
    // Every error is listened to: one after the answer arrived (an upload cut short) changes nothing.
    // An upstream that refuses a large body answers and closes before it has read it all (a 413): the
    // write then fails (EPIPE, a reset) while its answer is still being parsed, so a failed upload waits
    // a moment for that answer before it counts as a failure.
    out.on("error", (error) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (body.length > 0 && (code === "EPIPE" || code === "ECONNRESET"))
        setTimeout(() => reject(new UpstreamFailure(error, out.reusedSocket, true)), UPLOAD_CUT_GRACE_MS);
      else reject(new UpstreamFailure(error, out.reusedSocket));
    });
    out.once("timeout", () => out.destroy(new Error("upstream timed out")));
    out.end(body);
  });
}

/** A message's body, whole, or an error past `limit` bytes. */
async function readBounded(message: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of message as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      message.destroy();
      throw new Error(`a body exceeds ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** What the proxy itself failed at is a 502 the run will show (a 5xx the node never sent), never a silent pass. */
function fail(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
  res.end(`variation proxy: ${error instanceof Error ? error.message : String(error)}\n`);
}
