// The forwarding core of the suite's HTTP proxies on loopback: the validation proxy (validation-proxy.ts)
// and the test proxies in front of the reference node. A request is read whole, bounded; it goes
// upstream as it came (method, target, header lines in order, body) but for the hop-by-hop fields
// (hop-by-hop.ts), on a keep-alive agent; the answer is read whole, bounded, and written back. Each
// proxy adds only what it is for: judging answers, changing them, or answering itself.
// node:http and node:https on both sides: a request knows whether its connection served an earlier one.

import {
  type ClientRequest,
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
  type Server,
  type ServerResponse,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { endToEnd, type HeaderLines, SENDER_SET } from "./hop-by-hop.ts";

export type { HeaderLines } from "./hop-by-hop.ts";

/** A request as the core forwards it. */
export interface ForwardedRequest {
  readonly method: string;
  /** Path and query, as sent upstream. */
  readonly target: string;
  /** As the client sent them; the hop-by-hop and sender-set ones are dropped on the way. */
  readonly headers: HeaderLines;
  readonly body: Buffer;
}

/** What came back from upstream. */
export type UpstreamExchange =
  /** `headers`: the answer's lines in order, as the upstream spelled them, hop-by-hop fields removed. */
  | { readonly kind: "answer"; readonly status: number; readonly headers: [string, string][]; readonly body: Buffer }
  /** The body grew past the cap: the exchange was abandoned. */
  | { readonly kind: "too_large"; readonly status: number }
  /** `status`: the answer's, when its head had come before the failure. */
  | { readonly kind: "failed"; readonly error: Error; readonly status: number | undefined };

export interface ForwarderOptions {
  /** The upstream's base URL; only its origin is used. */
  readonly upstream: string;
  /** For the whole exchange, and for any silence within it. */
  readonly timeoutMs: number;
  readonly maxAnswerBytes: number;
}

/** Methods a client may send again after a failure (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]);
/** Methods for which Node's client frames no body unless one is given. */
const BODYLESS = new Set(["GET", "HEAD", "DELETE", "OPTIONS", "TRACE", "CONNECT"]);
/** How long an upload the upstream cut short waits for the upstream's answer. */
const UPLOAD_CUT_GRACE_MS = 500;

/** One attempt: the exchange, whether its connection had served an earlier one, whether the upload was cut before any answer. */
interface Attempt {
  readonly exchange: UpstreamExchange;
  readonly reused: boolean;
  readonly uploadCut: boolean;
}

/** Sends requests to one upstream and reads their answers. */
export class Forwarder {
  readonly #upstream: URL;
  readonly #options: ForwarderOptions;
  readonly #agent: HttpAgent;
  readonly #send: typeof httpRequest;

  constructor(options: ForwarderOptions) {
    this.#options = options;
    this.#upstream = new URL(options.upstream);
    const tls = this.#upstream.protocol === "https:";
    this.#agent = tls ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.#send = tls ? httpsRequest : httpRequest;
  }

  /**
   * One exchange with the upstream. An idempotent request goes on a kept-alive connection and, when
   * that connection turns out closed before any answer, once more on another (RFC 9112 §9.3.1: the
   * upstream may close an idle connection at any time, and a proxy may retry what is idempotent); any
   * other request goes on a connection of its own, which never meets that race. An upload the upstream
   * stopped reading, with no answer come, is sent once more on a connection of its own: the upstream
   * cannot have acted on a body it did not read whole.
   */
  async exchange(request: ForwardedRequest): Promise<UpstreamExchange> {
    const idempotent = IDEMPOTENT.has(request.method.toUpperCase());
    const first = await this.#attempt(request, idempotent ? this.#agent : false);
    if (first.exchange.kind !== "failed" || first.exchange.status !== undefined) return first.exchange;
    if (idempotent && first.reused) return (await this.#attempt(request, this.#agent)).exchange;
    if (first.uploadCut) return (await this.#attempt(request, false)).exchange;
    return first.exchange;
  }

  /** Drops every upstream connection. */
  close(): void {
    this.#agent.destroy();
  }

  #attempt(request: ForwardedRequest, via: HttpAgent | false): Promise<Attempt> {
    const { timeoutMs } = this.#options;
    return new Promise((resolve) => {
      let out: ClientRequest;
      /** The answer, once its head has come: from then on, its own stream tells what becomes of it. */
      let answer: IncomingMessage | undefined;
      let settled = false;
      const settle = (exchange: UpstreamExchange, uploadCut = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({ exchange, reused: out.reusedSocket, uploadCut });
      };
      const giveUp = (why: string) => (answer ?? out).destroy(new Error(why));
      try {
        out = this.#send(this.#requestOptions(request, via), (head) => {
          answer = head;
          void this.#readAnswer(head).then(settle);
        });
      } catch (error) {
        // Options Node refuses (a header value it cannot send) fail here, before any connection.
        resolve({ exchange: { kind: "failed", error: asError(error), status: undefined }, reused: false, uploadCut: false });
        return;
      }
      const deadline = setTimeout(() => giveUp(`no complete answer within ${timeoutMs} ms`), timeoutMs);
      // An upstream that refuses a large body answers and closes before it has read it all (a 413): the
      // write then fails (EPIPE, a reset) while its answer is still being parsed, so a failed upload
      // waits a moment for that answer before it counts as a failure.
      out.on("error", (error: Error) => {
        if (answer !== undefined) return;
        const code = (error as NodeJS.ErrnoException).code;
        if (request.body.length > 0 && (code === "EPIPE" || code === "ECONNRESET"))
          setTimeout(() => {
            if (answer === undefined) settle({ kind: "failed", error, status: undefined }, true);
          }, UPLOAD_CUT_GRACE_MS);
        else settle({ kind: "failed", error, status: undefined });
      });
      out.once("timeout", () => giveUp(`upstream silent for ${timeoutMs} ms`));
      out.end(request.body.length > 0 ? request.body : undefined);
    });
  }

  /** The upstream request: the client's lines passed on, with the Host and Content-Length of this message. */
  #requestOptions(request: ForwardedRequest, via: HttpAgent | false): RequestOptions {
    const lines = endToEnd(request.headers, SENDER_SET);
    lines.unshift(["Host", this.#upstream.host]);
    if (request.body.length > 0 || !BODYLESS.has(request.method.toUpperCase())) lines.push(["Content-Length", String(request.body.length)]);
    return {
      protocol: this.#upstream.protocol,
      host: this.#upstream.hostname,
      port: this.#upstream.port,
      method: request.method,
      path: request.target,
      headers: lines.flat(),
      agent: via,
      timeout: this.#options.timeoutMs,
    };
  }

  /** The answer's body read whole, bounded; an answer over the cap is abandoned with its connection. */
  async #readAnswer(answer: IncomingMessage): Promise<UpstreamExchange> {
    const status = answer.statusCode ?? 502;
    try {
      const body = await readBounded(answer, this.#options.maxAnswerBytes);
      if (body !== undefined) return { kind: "answer", status, headers: endToEnd(headerLines(answer.rawHeaders)), body };
      answer.destroy();
      return { kind: "too_large", status };
    } catch (error) {
      return { kind: "failed", error: asError(error), status };
    }
  }
}

/** A message's header lines from Node's raw list (name, value, name, value, …). */
export function headerLines(raw: readonly string[]): [string, string][] {
  const lines: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) lines.push([raw[i] as string, raw[i + 1] as string]);
  return lines;
}

/** The lines by lower-case name, each name's values in order. */
export function headerFields(lines: HeaderLines): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [name, value] of lines) (fields[name.toLowerCase()] ??= []).push(value);
  return fields;
}

/** A client's request, its body read whole; undefined when the body is over `maxBytes` (the rest is left unread). */
export async function readRequest(req: IncomingMessage, maxBytes: number, target = req.url ?? "/"): Promise<ForwardedRequest | undefined> {
  const body = await readBounded(req, maxBytes);
  if (body === undefined) return undefined;
  return { method: (req.method ?? "GET").toUpperCase(), target, headers: headerLines(req.rawHeaders), body };
}

/** Whether an answer carries content (RFC 9110 §6.4.1: never to HEAD, never with 1xx, 204 or 304). */
export function carriesContent(method: string, status: number): boolean {
  return method.toUpperCase() !== "HEAD" && status !== 204 && status !== 304 && status >= 200;
}

/** Writes an answer back as it is: its lines in order, its body where it carries content. */
export function writeAnswer(
  res: ServerResponse,
  method: string,
  answer: { readonly status: number; readonly headers: HeaderLines; readonly body: Buffer },
): void {
  res.writeHead(answer.status, answer.headers.flat());
  res.end(carriesContent(method, answer.status) ? answer.body : undefined);
}

/** A proxy's server on 127.0.0.1. */
export interface LoopbackServer {
  readonly server: Server;
  readonly port: number;
  /** Stops listening and drops every connection, answered or not. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (port 0: a free one) with `handle` for each request. */
export async function listenOnLoopback(port: number, handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<LoopbackServer> {
  const server = createServer(handle);
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** A message's body, whole; undefined past `limit` bytes, the rest left unread. */
function readBounded(message: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        message.off("data", onData);
        message.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    message.on("data", onData);
    message.once("end", () => resolve(Buffer.concat(chunks)));
    message.once("error", reject);
    // A connection closed mid-body ends the message without "end" (and, in some Node versions, without "error").
    message.once("close", () => {
      if (!message.complete) reject(new Error("the message broke off before its end"));
    });
  });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
