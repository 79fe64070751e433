// Bytes over a bare TCP (or TLS) socket, for what an HTTP client refuses to send: a body shorter than
// its Content-Length, a connection dropped mid-request, malformed framing. It returns whatever came
// back, parsed as far as it goes, and never waits longer than the timeout.

import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { withoutOws } from "./field-value.ts";

export type RawEnding =
  /** Keep the connection open and read until the answer is complete, the server closes, or the timeout. */
  | "keep-open"
  /** Close our writing side after the bytes (the server sees end of stream), then read. */
  | "half-close"
  /** Destroy the connection right after the bytes; nothing is read. */
  | "abort";

export interface RawExchangeOptions {
  readonly url: string;
  readonly bytes: Uint8Array;
  readonly ending: RawEnding;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

export interface RawHttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** Whether the body is complete by its framing (Content-Length or chunked end). */
  readonly complete: boolean;
}

export interface RawExchangeResult {
  /** Everything the server sent, as received. */
  readonly received: Uint8Array;
  /** The first HTTP answer in `received`, if its header block arrived. */
  readonly answer: RawHttpAnswer | undefined;
  /** How the exchange ended. */
  readonly end: "answered" | "server-closed" | "timeout" | "aborted" | "too-large" | "connect-failed";
  readonly error?: string;
  readonly durationMs: number;
}

export async function rawExchange(options: RawExchangeOptions): Promise<RawExchangeResult> {
  const started = performance.now();
  const u = new URL(options.url);
  const tls = u.protocol === "https:";
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const port = Number(u.port || (tls ? 443 : 80));
  return new Promise<RawExchangeResult>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let connected = false;
    let settled = false;
    const socket: Socket = tls ? tlsConnect({ host, port, servername: host, rejectUnauthorized: false }) : netConnect({ host, port });
    const finish = (end: RawExchangeResult["end"], error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const received = new Uint8Array(Buffer.concat(chunks));
      resolve({
        received,
        answer: parseHttpAnswer(received),
        end,
        ...(error === undefined ? {} : { error }),
        durationMs: Math.round(performance.now() - started),
      });
    };
    const timer = setTimeout(
      () => finish(connected ? "timeout" : "connect-failed", `no end within ${options.timeoutMs} ms`),
      options.timeoutMs,
    );
    socket.once(tls ? "secureConnect" : "connect", () => {
      connected = true;
      socket.write(options.bytes, () => {
        if (options.ending === "abort") finish("aborted");
        else if (options.ending === "half-close") socket.end();
      });
    });
    socket.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxResponseBytes) return finish("too-large", `more than ${options.maxResponseBytes} bytes`);
      chunks.push(chunk);
      if (options.ending === "keep-open" && parseHttpAnswer(new Uint8Array(Buffer.concat(chunks)))?.complete) finish("answered");
    });
    socket.on("end", () => finish("server-closed"));
    socket.on("close", () => finish("server-closed"));
    socket.on("error", (e: NodeJS.ErrnoException) =>
      finish(connected ? "server-closed" : "connect-failed", `${e.code ?? e.name}: ${e.message}`),
    );
  });
}

/**
 * Whether the exchange failed as a connection (not as an answer): no connection was made, or the
 * connection was reset before a single byte came back. An exchange that ends with "abort" reads nothing
 * by design and is never one.
 */
export function isRawConnectionFault(result: RawExchangeResult): boolean {
  if (result.end === "connect-failed") return true;
  return result.end === "server-closed" && result.received.length === 0 && /^(ECONNRESET|EPIPE)\b/.test(result.error ?? "");
}

/** Builds request bytes; `contentLength` may deliberately disagree with the body. */
export function buildRawRequest(options: {
  method: string;
  url: string;
  headers?: Readonly<Record<string, string>>;
  body?: Uint8Array;
  contentLength?: number;
}): Uint8Array {
  const u = new URL(options.url);
  const lines = [`${options.method.toUpperCase()} ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`];
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`${name}: ${value}`);
  const length = options.contentLength ?? options.body?.length;
  if (length !== undefined) lines.push(`Content-Length: ${length}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
  return new Uint8Array(Buffer.concat([head, Buffer.from(options.body ?? new Uint8Array())]));
}

/** The status line, headers and body of the first HTTP/1.x answer in `bytes`, as far as it arrived. */
export function parseHttpAnswer(bytes: Uint8Array): RawHttpAnswer | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headEnd = buf.indexOf("\r\n\r\n");
  if (headEnd < 0) return undefined;
  const [statusLine, ...headerLines] = buf.subarray(0, headEnd).toString("latin1").split("\r\n");
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "");
  if (!match) return undefined;
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // Each field line's value without its OWS (SP, HTAB; RFC 9112 §5.1), before lines are joined.
    const value = withoutOws(line.slice(colon + 1));
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const rest = buf.subarray(headEnd + 4);
  const status = Number(match[1]);
  if (/\bchunked\b/i.test(headers["transfer-encoding"] ?? "")) {
    const { body, complete } = dechunk(rest);
    return { status, headers, body, complete };
  }
  const declared = headers["content-length"];
  if (declared !== undefined && /^\d+$/.test(declared)) {
    const length = Number(declared);
    return { status, headers, body: new Uint8Array(rest.subarray(0, length)), complete: rest.length >= length };
  }
  // No framing: the body runs to the end of the connection; 1xx/204/304 have none.
  const bodyless = status < 200 || status === 204 || status === 304;
  return { status, headers, body: bodyless ? new Uint8Array() : new Uint8Array(rest), complete: bodyless };
}

function dechunk(data: Buffer): { body: Uint8Array; complete: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString("latin1").split(";")[0] ?? "", 16);
    if (!Number.isFinite(size)) break;
    if (size === 0) return { body: new Uint8Array(Buffer.concat(parts)), complete: true };
    const start = lineEnd + 2;
    if (data.length < start + size + 2) {
      parts.push(data.subarray(start, Math.min(data.length, start + size)));
      break;
    }
    parts.push(data.subarray(start, start + size));
    at = start + size + 2;
  }
  return { body: new Uint8Array(Buffer.concat(parts)), complete: false };
}
