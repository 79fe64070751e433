// The one HTTP client of a worker: undici with keep-alive, a timeout on every phase (connect, headers,
// body) and on the whole exchange, a cap on the response size, an optional rate limit, a count of the
// requests made, and a record of each one (with its curl line) for the report.

import { Agent, request as undiciRequest } from "undici";
import { renderCurl } from "./curl.ts";
import type { RequestRecord } from "./results.ts";

export interface HttpRequest {
  readonly method: string;
  /** Absolute URL, sent as is (no normalisation of the path). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
}

export interface HttpResponse {
  readonly request: HttpRequest;
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** The media type of Content-Type, lower case, without parameters; undefined when absent. */
  readonly contentType: string | undefined;
  readonly body: Uint8Array;
  /** The body as UTF-8 text (lossy for binary bodies). */
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. `any` so checks read members directly after validating. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any;
  readonly durationMs: number;
  readonly curl: string;
  readonly record: RequestRecord;
}

export type RequestFailureKind =
  | "refused"
  | "dns"
  | "connect_timeout"
  | "headers_timeout"
  | "body_timeout"
  | "deadline"
  | "too_large"
  | "closed"
  | "other"
  /** Not sent: the target answered none of the last requests (see HttpClientOptions.unresponsiveAfter). */
  | "not_sent";

/** No usable HTTP answer came back. */
export class RequestFailure extends Error {
  override readonly name = "RequestFailure";
  constructor(
    readonly kind: RequestFailureKind,
    message: string,
    readonly request: HttpRequest,
    readonly curl: string,
    readonly record: RequestRecord,
  ) {
    super(message);
  }
}

export interface HttpClientOptions {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** Requests per second; undefined: no limit. */
  readonly rateLimit?: number;
  /** Where curl lines put bodies too large to inline. */
  readonly bodiesDir?: string;
  /**
   * After this many requests in a row got no answer (timeouts, refused), the target is taken as hung
   * and later requests are not sent: a hung node then costs seconds, not a timeout per request.
   * Default 5.
   */
  readonly unresponsiveAfter?: number;
}

/** The kinds of failure that say the target is not answering at all (a reset or a cap does not). */
const SILENT_KINDS: ReadonlySet<RequestFailureKind> = new Set(["refused", "connect_timeout", "headers_timeout", "body_timeout", "deadline"]);

export class HttpClient {
  readonly #agent: Agent;
  readonly #options: HttpClientOptions;
  #count = 0;
  #nextSlot = 0;
  #silentStreak = 0;

  constructor(options: HttpClientOptions) {
    this.#options = options;
    this.#agent = new Agent({
      keepAliveTimeout: 10_000,
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** How many requests this client has sent (HTTP and raw). */
  get requestCount(): number {
    return this.#count;
  }

  get options(): HttpClientOptions {
    return this.#options;
  }

  /** Why the target counts as hung, or undefined while it answers. */
  get unresponsive(): string | undefined {
    const limit = this.#options.unresponsiveAfter ?? 5;
    if (this.#silentStreak < limit) return undefined;
    return `not sent: the target gave no HTTP answer to the last ${this.#silentStreak} requests`;
  }

  /** Raw exchanges report here whether an answer came, so that the hung-target count stays true. */
  noteAnswered(answered: boolean): void {
    if (answered) this.#silentStreak = 0;
  }

  curlFor(request: HttpRequest): string {
    return renderCurl(request, this.#options.bodiesDir === undefined ? {} : { bodiesDir: this.#options.bodiesDir });
  }

  /** Waits for the rate limit, then counts one request. Raw exchanges use it too. */
  async beginRequest(): Promise<void> {
    const rps = this.#options.rateLimit;
    if (rps !== undefined && rps > 0) {
      const now = Date.now();
      const slot = Math.max(now, this.#nextSlot);
      this.#nextSlot = slot + 1000 / rps;
      if (slot > now) await new Promise((r) => setTimeout(r, slot - now));
    }
    this.#count += 1;
  }

  /** Sends the request; resolves with any HTTP answer, rejects with RequestFailure when none came. */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const curl = this.curlFor(request);
    const started = performance.now();
    const { timeoutMs, maxResponseBytes } = this.#options;
    const fail = (kind: RequestFailureKind, message: string, status: number | null = null): never => {
      const durationMs = Math.round(performance.now() - started);
      const record: RequestRecord = { method: request.method, url: request.url, status, durationMs, curl, error: message };
      if (SILENT_KINDS.has(kind)) this.#silentStreak += 1;
      throw new RequestFailure(kind, message, request, curl, record);
    };
    const hung = this.unresponsive;
    if (hung !== undefined) return fail("not_sent", hung);
    await this.beginRequest();
    let answer: Awaited<ReturnType<typeof undiciRequest>>;
    try {
      answer = await undiciRequest(request.url, {
        dispatcher: this.#agent,
        method: request.method as "GET",
        headers: { ...request.headers },
        body: request.body === undefined ? null : Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength),
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (e) {
      return fail(...classify(e, timeoutMs));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of answer.body) {
        const buf = chunk as Buffer;
        size += buf.length;
        if (size > maxResponseBytes) {
          answer.body.destroy();
          return fail("too_large", `response body exceeded the cap of ${maxResponseBytes} bytes`, answer.statusCode);
        }
        chunks.push(buf);
      }
    } catch (e) {
      if (e instanceof RequestFailure) throw e;
      const [kind, message] = classify(e, timeoutMs);
      return fail(kind, `${message} (while reading the body of a ${answer.statusCode} answer)`, answer.statusCode);
    }
    this.#silentStreak = 0;
    const body = new Uint8Array(Buffer.concat(chunks));
    const durationMs = Math.round(performance.now() - started);
    return responseFromParts({ request, status: answer.statusCode, headers: flattenHeaders(answer.headers), body, durationMs, curl });
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  /** Drops every connection at once, answered or not. */
  async destroy(): Promise<void> {
    await this.#agent.destroy();
  }
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export function mediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const type = contentType.split(";")[0]?.trim().toLowerCase();
  return type === "" ? undefined : type;
}

/**
 * A response from its parts: status, lower-case headers and body bytes (what the client received, a
 * raw exchange parsed, or a recorded answer of a corpus), with its media type, text, JSON and record.
 */
export function responseFromParts(parts: {
  readonly request: HttpRequest;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly durationMs: number;
  readonly curl: string;
}): HttpResponse {
  const { request, status, headers, body, durationMs, curl } = parts;
  const text = Buffer.from(body).toString("utf8");
  return {
    request,
    status,
    headers,
    contentType: mediaType(headers["content-type"]),
    body,
    text,
    json: parseJson(text),
    durationMs,
    curl,
    record: { method: request.method, url: request.url, status, durationMs, curl },
  };
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function classify(e: unknown, timeoutMs: number): [RequestFailureKind, string] {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  switch (code) {
    case "ECONNREFUSED":
      return ["refused", "connection refused"];
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return ["dns", `host not found (${code})`];
    case "UND_ERR_CONNECT_TIMEOUT":
      return ["connect_timeout", `no connection within ${timeoutMs} ms`];
    case "UND_ERR_HEADERS_TIMEOUT":
      return ["headers_timeout", `no response headers within ${timeoutMs} ms`];
    case "UND_ERR_BODY_TIMEOUT":
      return ["body_timeout", `response body stalled for ${timeoutMs} ms`];
    case "UND_ERR_SOCKET":
    case "ECONNRESET":
    case "EPIPE":
      return ["closed", `connection closed by the server (${code})`];
  }
  if (err.name === "TimeoutError" || err.name === "AbortError" || code === "UND_ERR_ABORTED") {
    return ["deadline", `no complete answer within ${timeoutMs} ms`];
  }
  return ["other", `${err.name ?? "Error"}: ${err.message ?? String(e)}${code ? ` (${code})` : ""}`];
}
