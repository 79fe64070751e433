// The one HTTP client of a worker: undici with keep-alive, a timeout on every phase (connect, headers,
// body) and on the whole exchange, a cap on the response size, an optional rate limit, bounded retries
// of connection faults, recovery of kept-alive connections the server closed, a count of the requests
// made, and a record of each one (with its curl line) for the report.

import { setMaxListeners } from "node:events";
import { ConnectionPool, type ConnectionChoice } from "./connection-pool.ts";
import { ACCEPT_ENCODING, decodeBody } from "./content-coding.ts";
import { exchange, type Exchange } from "./dispatch-exchange.ts";
import { withoutOws } from "./field-value.ts";
import { renderCurl } from "./curl.ts";
import { redactedHeaders, type SecretHeaders } from "./secrets.ts";
import { InFlightLimit, type InFlightGate } from "./in-flight-limit.ts";
import { isRawConnectionFault, rawExchange, type RawEnding, type RawExchangeResult } from "./raw-exchange.ts";
import { FAILURE_KINDS, type RequestFailureKind } from "./request-failure-kinds.ts";
import type { RequestRecord } from "./results.ts";
import { SharedRateLimit } from "./shared-rate-limit.ts";

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
  /** Lower-case names, values without the whitespace around them (RFC 9112 §5.1); repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** The media type of Content-Type, lower case, without parameters; undefined when absent. */
  readonly contentType: string | undefined;
  /** The body as the client reads it: its Content-Encoding undone (content-coding.ts). */
  readonly body: Uint8Array;
  /** The content codings the body came in, in the order applied (Content-Encoding, identity left out); empty when none. */
  readonly codings?: readonly string[];
  /** The body as UTF-8 text (lossy for binary bodies). */
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. `any` so checks read members directly after validating. */
  readonly json: any;
  readonly durationMs: number;
  readonly curl: string;
  readonly record: RequestRecord;
}

export type { RequestFailureKind };

/** What sendRaw did: the exchange and how many attempts it took, or why nothing was sent. */
export type RawSent =
  | { readonly sent: true; readonly result: RawExchangeResult; readonly attempts: number }
  | { readonly sent: false; readonly reason: string };

/**
 * The one rule for an answer that declines the request instead of answering it: 429 (a rate limiter:
 * the spec gives no operation a 429) and 503 (§7.1 lists it for every endpoint but /spec: the node
 * sheds load). The client sends such a request again, paced (send); the load mode counts them apart
 * (load-profile-of.ts). Where 503 is itself the answer a check judges (the health check below its
 * threshold) the request says so (SendOptions.shedIsAnswer).
 */
export function declinedKind(status: number): "rate_limited" | "shed" | undefined {
  if (status === 429) return "rate_limited";
  if (status === 503) return "shed";
  return undefined;
}

/** What one send may be told besides its request. */
export interface SendOptions {
  /** A 503 is the answer the check judges (the health check below its threshold), not a declined request. */
  readonly shedIsAnswer?: boolean;
  /** Called for every declined answer (429, or 503 unless shedIsAnswer) before the request goes again. */
  readonly onDeclined?: (kind: "rate_limited" | "shed") => void;
}

/** No usable HTTP answer came back. */
export class RequestFailure extends Error {
  override readonly name = "RequestFailure";
  constructor(
    readonly kind: RequestFailureKind,
    message: string,
    readonly request: HttpRequest,
    readonly curl: string,
    readonly record: RequestRecord,
    /** The content codings of an answer that came but could not be read (an undecodable, a bomb, a broken stream). */
    readonly codings: readonly string[] = [],
  ) {
    super(message);
  }

  /** No answer whose content could be read came (the connection failed, or a coding the suite cannot decode): no evidence either way. */
  get isConnectionFault(): boolean {
    return FAILURE_KINDS[this.kind].connectionFault;
  }
}

/**
 * Which failures an identical request is sent again after. "any-fault": every connection fault that
 * may be passing (reads, and bodies no node can take for a transaction). "unsent": only when the
 * request cannot have reached the target (refused, no connection), for a submission that the node may
 * have accepted before the connection broke: aptos-core accepts an identical resubmission while it is
 * pending ("If the transaction is the same, it's an idempotent call", mempool/src/core_mempool/
 * transaction_store.rs) but, once it is committed, validation refuses it as SEQUENCE_NUMBER_TOO_OLD,
 * so a resend after that could turn a fault of the network into a false failure.
 */
export type ResendPolicy = "any-fault" | "unsent";

/** The attempts one request may take, their backoff, and how long retries may go on. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 3). */
  readonly attempts: number;
  /** Backoff before retry n (1-based) is base × 4^(n-1), jittered to between half and all of it. */
  readonly baseDelayMs: number;
  /** No new attempt starts later than this after the first began (default 2 × the timeout). */
  readonly budgetMs?: number;
  /**
   * Attempts in all of a request the target declines (429, 503; default twice `attempts`): a decline
   * says to ask again later, and a node that sheds one read in twenty would otherwise leave one request
   * in 8,000 undecided.
   */
  readonly declinedAttempts?: number;
}

const STOPPED = "abandoned: the run is being stopped";

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 100 };

/** The longest Retry-After of a 429 or 503 the client waits for before trying again. */
const MAX_RETRY_AFTER_MS = 5_000;

/** The jittered backoff before retry `n` (1-based). */
export function backoffMs(policy: RetryPolicy, n: number, random: () => number = Math.random): number {
  const full = policy.baseDelayMs * 4 ** (n - 1);
  return Math.round(full / 2 + (random() * full) / 2);
}

/** Whether `failure` after `attempt` attempts, `elapsedMs` after the first began, is worth one more. */
export function shouldRetry(
  kind: RequestFailureKind,
  resend: ResendPolicy,
  attempt: number,
  elapsedMs: number,
  policy: RetryPolicy,
  timeoutMs: number,
): boolean {
  const { declined, resent } = FAILURE_KINDS[kind];
  const attempts = declined ? (policy.declinedAttempts ?? 2 * policy.attempts) : policy.attempts;
  if (attempt >= attempts) return false;
  if (elapsedMs >= (policy.budgetMs ?? 2 * timeoutMs)) return false;
  return resent === "always" || (resent === "any-fault" && resend === "any-fault");
}

export interface HttpClientOptions {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** Requests per second, or a rate shared with other workers (shared-rate-limit.ts); undefined: no limit. */
  readonly rateLimit?: number | SharedRateLimit;
  /** Where curl lines put bodies too large to inline. */
  readonly bodiesDir?: string;
  /**
   * After this many requests in a row got no answer (timeouts, refused), the target is taken as hung
   * and later requests are not sent: a hung node then costs seconds, not a timeout per request.
   * Counted per request after its retries. Default 5.
   */
  readonly unresponsiveAfter?: number;
  /** Default DEFAULT_RETRY. */
  readonly retry?: RetryPolicy;
  /** Headers (--header) added to every HTTP request on the wire and shown as *** in its curl line. */
  readonly secretHeaders?: SecretHeaders;
  /** Requests in flight at once (--concurrency); the others wait. Default 1. */
  readonly maxInFlight?: number;
  /** Instead of maxInFlight: a limit the client shares (with the run's other workers). */
  readonly inFlight?: InFlightGate;
}

/**
 * undici reuses an idle connection for 10 s, or, when the answer carries a Keep-Alive: timeout=N hint,
 * for N s less this threshold; with a hint no longer than the threshold it closes the connection after
 * the answer (undici lib/dispatcher/client-h1.js onHeadersComplete), so a connection the node announced
 * it will close soon is never reused. A node that gives no hint may close sooner: send recovers.
 */
const KEEP_ALIVE = { keepAliveTimeout: 10_000, keepAliveTimeoutThreshold: 2_000 } as const;

/** One attempt of a request: an HTTP answer, or the failure and whether it met a connection opened before the request. */
type Attempt =
  | { readonly ok: true; readonly response: HttpResponse }
  | { readonly ok: false; readonly failure: RequestFailure; readonly reused: boolean };

export class HttpClient {
  readonly #connections: ConnectionPool;
  readonly #options: HttpClientOptions;
  #count = 0;
  #retries = 0;
  #silentStreak = 0;
  #cancel: AbortSignal | undefined;
  readonly #inFlight: InFlightGate;
  readonly #rateLimit: SharedRateLimit;

  constructor(options: HttpClientOptions) {
    this.#options = options;
    const rate = options.rateLimit;
    // A rate of this client's own (or none: a pace declines may lower) is a schedule no one else shares:
    // the same limit, on a buffer of its own.
    this.#rateLimit = rate === undefined || typeof rate === "number" ? new SharedRateLimit(SharedRateLimit.buffer(), rate) : rate;
    this.#inFlight = options.inFlight ?? new InFlightLimit(options.maxInFlight ?? 1);
    this.#connections = new ConnectionPool({
      ...KEEP_ALIVE,
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** How many requests this client has sent (HTTP and raw), each retry counted once more. */
  get requestCount(): number {
    return this.#count;
  }

  /** How many of those were retries of a request whose connection failed. */
  get retryCount(): number {
    return this.#retries;
  }

  get retryPolicy(): RetryPolicy {
    return this.#options.retry ?? DEFAULT_RETRY;
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

  /** Requests in flight or to come are abandoned once `signal` aborts (vitest aborts a check's signal when the run is cancelled). */
  cancelOn(signal: AbortSignal | undefined): void {
    // Each request in flight listens to it, up to --concurrency of them: more than the 10 after which
    // an EventTarget warns of a leak on stderr.
    if (signal !== undefined) setMaxListeners(0, signal);
    this.#cancel = signal;
  }

  /**
   * A client of the same options and rate limit (the one schedule both keep) with connections of its
   * own and one request in flight at a time: one of the load mode's clients, which each hold their own
   * connection as a separate user of the node would.
   */
  sibling(): HttpClient {
    const { maxInFlight: _maxInFlight, inFlight: _inFlight, ...options } = this.#options;
    return new HttpClient({ ...options, rateLimit: this.#rateLimit, maxInFlight: 1 });
  }

  /** Counts one retry and waits its backoff (or, for a declined request, as long as it asks: declinedDelayMs). */
  async #beginRetry(n: number, declined?: HttpResponse): Promise<void> {
    this.#retries += 1;
    const delay = declined === undefined ? backoffMs(this.retryPolicy, n) : declinedDelayMs(this.retryPolicy, n, declined);
    await new Promise((r) => setTimeout(r, delay));
  }

  curlFor(request: HttpRequest): string {
    const secret = this.#options.secretHeaders;
    const shown = secret === undefined ? request : { ...request, headers: { ...request.headers, ...redactedHeaders(secret) } };
    return renderCurl(shown, this.#options.bodiesDir === undefined ? {} : { bodiesDir: this.#options.bodiesDir });
  }

  /** Waits for the rate limit, then counts one request. */
  async #beginRequest(): Promise<void> {
    await this.#rateLimit.wait();
    this.#count += 1;
  }

  /**
   * Sends the request; resolves with any HTTP answer, rejects with RequestFailure when none came. A
   * connection fault is retried (the identical request, after a jittered backoff) as `resend` allows,
   * within the retry policy; the record counts the retries.
   *
   * Only the first send of a read goes on a kept-alive connection; a submission ("unsent") and every
   * resend go on a connection of their own. A server may close an idle connection at any time and a
   * client ought to recover (RFC 9112 §9.3.1): a read whose kept-alive connection closed before an
   * answer came is sent again at once on a new one, outside the retry policy (it is no fault of the
   * target's, and happens at most once per request since the resend's connection is new). A
   * submission never meets that race, so that its failure is about the target and a resend never
   * repeats one the node may have read (RFC 9112 §9.3.2: a non-idempotent request is not retried
   * automatically; RFC 9110 §9.2.2).
   */
  async send(asked: HttpRequest, resend: ResendPolicy = "any-fault", options: SendOptions = {}): Promise<HttpResponse> {
    const request = withAcceptEncoding(asked);
    const hung = this.unresponsive;
    const curl = this.curlFor(request);
    const notSent = (kind: RequestFailureKind, message: string) =>
      new RequestFailure(kind, message, request, curl, {
        method: request.method,
        url: request.url,
        status: null,
        durationMs: 0,
        curl,
        error: message,
      });
    if (hung !== undefined) throw notSent("not_sent", hung);
    if (this.#cancel?.aborted) throw notSent("cancelled", STOPPED);
    const started = performance.now();
    let declines = 0;
    // `attempt` counts the retry policy's attempts; `sends` counts every send, the recoveries too.
    for (let attempt = 1, sends = 1; ; sends++) {
      const connection: ConnectionChoice = sends === 1 && resend === "any-fault" ? "pooled" : "own";
      const outcome = await this.#attempt(request, curl, connection);
      if (outcome.ok) this.#silentStreak = 0;
      const declined = outcome.ok ? declinedKind(outcome.response.status) : undefined;
      if (outcome.ok && (declined === undefined || (declined === "shed" && options.shedIsAnswer === true))) {
        this.#rateLimit.answered();
        return sends === 1 ? outcome.response : { ...outcome.response, record: { ...outcome.response.record, retries: sends - 1 } };
      }
      if (outcome.ok && declined !== undefined) {
        declines += 1;
        options.onDeclined?.(declined);
        // A 429 asks for a lower rate; a 503 does when it says when to come back (a gateway's shed load).
        if (declined === "rate_limited" || outcome.response.headers["retry-after"] !== undefined) this.#rateLimit.declined(declined);
      }
      const failure = outcome.ok ? declinedFailure(outcome.response, declined ?? "rate_limited", declines) : outcome.failure;
      const reused = !outcome.ok && outcome.reused;
      if (reused && resend === "any-fault" && failure.kind === "closed" && failure.record.status === null) {
        // The kept-alive connection was closed before an answer: the read goes again at once, on a new one.
        this.#retries += 1;
        continue;
      }
      const elapsed = performance.now() - started;
      if (shouldRetry(failure.kind, resend, attempt, elapsed, this.retryPolicy, this.#options.timeoutMs)) {
        // A gateway's rate limit or a node shedding load declined it: wait as it asks, and ask again.
        await this.#beginRetry(attempt, outcome.ok ? outcome.response : undefined);
        attempt += 1;
        continue;
      }
      if (FAILURE_KINDS[failure.kind].silent && !reused) this.#silentStreak += 1;
      if (sends === 1) throw failure;
      const message = FAILURE_KINDS[failure.kind].declined ? failure.message : `${failure.message} (${sends} attempts)`;
      const record: RequestRecord = { ...failure.record, durationMs: Math.round(elapsed), error: message, retries: sends - 1 };
      throw new RequestFailure(failure.kind, message, request, curl, record, failure.codings);
    }
  }

  /**
   * Sends bytes as they are over a bare socket (raw-exchange.ts: truncated bodies, dropped connections)
   * under the same rate limit, retries and hung-target count as send. Raw requests carry deliberately
   * broken framing, which no node can take for a transaction, so sending them again after a connection
   * fault is safe whatever the operation. An exchange that got no answer is not counted as silence: a
   * dropped connection is what some of them are about.
   */
  async sendRaw(
    exchange: { readonly url: string; readonly bytes: Uint8Array; readonly ending: RawEnding },
    options: Pick<SendOptions, "onDeclined"> = {},
  ): Promise<RawSent> {
    const hung = this.unresponsive;
    if (hung !== undefined) return { sent: false, reason: hung };
    if (this.#cancel?.aborted) return { sent: false, reason: STOPPED };
    const { timeoutMs, maxResponseBytes } = this.#options;
    const started = performance.now();
    let declines = 0;
    for (let attempt = 1; ; attempt++) {
      const result = await this.#inFlight.run(async () => {
        await this.#beginRequest();
        return rawExchange({ ...exchange, timeoutMs, maxResponseBytes });
      });
      const elapsed = performance.now() - started;
      if (isRawConnectionFault(result) && shouldRetry("closed", "any-fault", attempt, elapsed, this.retryPolicy, timeoutMs)) {
        await this.#beginRetry(attempt);
        continue;
      }
      if (result.answer !== undefined) this.#silentStreak = 0;
      // Declined (429, 503: the one rule of declinedKind) is no answer to the bytes sent: asked again, paced, as send does.
      const declined = result.answer === undefined ? undefined : declinedKind(result.answer.status);
      if (declined !== undefined && result.answer !== undefined) {
        declines += 1;
        options.onDeclined?.(declined);
        const retryAfter = result.answer.headers["retry-after"];
        if (declined === "rate_limited" || retryAfter !== undefined) this.#rateLimit.declined(declined);
        if (shouldRetry(declined, "any-fault", attempt, elapsed, this.retryPolicy, timeoutMs)) {
          this.#retries += 1;
          const asked = retryAfterMs(retryAfter);
          const delay =
            asked > 0 ? Math.round(asked * (1 + Math.random() / 5)) : Math.min(backoffMs(this.retryPolicy, attempt), MAX_RETRY_AFTER_MS);
          await new Promise((r) => setTimeout(r, delay));
          continue;
        }
        const status = declined === "shed" ? "503 Service Unavailable" : "429 Too Many Requests";
        const who = declined === "shed" ? "the node shed the request" : "rate-limited";
        return { sent: false, reason: `${who}: ${status} ${declines} time${declines === 1 ? "" : "s"} (no evidence either way)` };
      }
      if (result.answer !== undefined) this.#rateLimit.answered();
      return { sent: true, result, attempts: attempt };
    }
  }

  /** One attempt, once the in-flight limit lets it start, on the connection `connection` chooses. */
  #attempt(request: HttpRequest, curl: string, connection: ConnectionChoice): Promise<Attempt> {
    return this.#inFlight.run(() => this.#attemptNow(request, curl, connection));
  }

  async #attemptNow(request: HttpRequest, curl: string, connection: ConnectionChoice): Promise<Attempt> {
    const started = performance.now();
    const { timeoutMs, maxResponseBytes } = this.#options;
    await this.#beginRequest();
    const lease = this.#connections.lease(new URL(request.url).origin, connection);
    let answer: Exchange;
    try {
      answer = await exchange(lease.dispatcher, {
        method: request.method,
        url: request.url,
        headers: { ...request.headers, ...this.#options.secretHeaders },
        body: request.body,
        timeoutMs,
        maxResponseBytes,
        cancel: this.#cancel,
      });
    } finally {
      lease.release();
    }
    const fail = (kind: RequestFailureKind, message: string, status: number | null = null, codings: readonly string[] = []): Attempt => {
      const durationMs = Math.round(performance.now() - started);
      const record: RequestRecord = { method: request.method, url: request.url, status, durationMs, curl, error: message };
      return { ok: false, failure: new RequestFailure(kind, message, request, curl, record, codings), reused: lease.reused() };
    };
    if (answer.kind === "too_large") return fail("too_large", `response body exceeded the cap of ${maxResponseBytes} bytes`, answer.status);
    if (answer.kind === "failed") {
      if (this.#cancel?.aborted) return fail("cancelled", STOPPED, answer.status ?? null);
      const [kind, message] = classify(answer.error, timeoutMs);
      if (answer.status === undefined) return fail(kind, message);
      return fail(kind, `${message} (while reading the body of a ${answer.status} answer)`, answer.status);
    }
    const headers = flattenHeaders(answer.headers);
    const decoded = decodeBody(answer.body, headers["content-encoding"], maxResponseBytes);
    if (!decoded.ok) {
      const kind = decoded.kind === "unknown" ? "undecodable" : decoded.kind === "too_large" ? "too_large" : "malformed";
      return fail(kind, `${decoded.message} (a ${answer.status} answer)`, answer.status, decoded.codings);
    }
    const durationMs = Math.round(performance.now() - started);
    return {
      ok: true,
      response: responseFromParts({
        request,
        status: answer.status,
        headers,
        body: decoded.body,
        durationMs,
        curl,
        codings: decoded.codings,
      }),
    };
  }

  async close(): Promise<void> {
    await this.#connections.close();
  }

  /** Drops every connection at once, answered or not. */
  async destroy(): Promise<void> {
    await this.#connections.destroy();
  }
}

/**
 * The request with Accept-Encoding as mainstream clients send it, unless it sets its own (a check
 * that asks for identity, or for one coding, sends what it asks).
 */
export function withAcceptEncoding(request: HttpRequest): HttpRequest {
  if (Object.keys(request.headers).some((name) => name.toLowerCase() === "accept-encoding")) return request;
  return { ...request, headers: { ...request.headers, "accept-encoding": ACCEPT_ENCODING } };
}

/** A declined answer as the failure it is: a rate limiter refused the request, or the node shed it; neither answered it. */
function declinedFailure(response: HttpResponse, kind: "rate_limited" | "shed", times: number): RequestFailure {
  const count = times === 1 ? "" : ` ${times} times`;
  const message =
    kind === "shed"
      ? `the node shed the request: 503 Service Unavailable${count}, not an answer about the request`
      : `the target answered 429 Too Many Requests${count}: rate-limited, not an answer about the request`;
  return new RequestFailure(kind, message, response.request, response.curl, { ...response.record, error: message });
}

/**
 * How long a declined request waits before it goes again: its Retry-After, a little more at random
 * (up to a fifth) so that the requests declined together do not come back together; with none, the
 * backoff, no longer than MAX_RETRY_AFTER_MS.
 */
export function declinedDelayMs(policy: RetryPolicy, n: number, response: HttpResponse, random: () => number = Math.random): number {
  const asked = retryAfterMs(response.headers["retry-after"]);
  if (asked > 0) return Math.round(asked * (1 + random() / 5));
  return Math.min(backoffMs(policy, n, random), MAX_RETRY_AFTER_MS);
}

/** A Retry-After of whole seconds, in ms, capped; 0 when absent or a date (the backoff applies then). */
function retryAfterMs(value: string | undefined): number {
  if (value === undefined || !/^\s*[0-9]{1,6}\s*$/.test(value)) return 0;
  return Math.min(Number(value) * 1000, MAX_RETRY_AFTER_MS);
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    // A repeated header's lines each lose their OWS before they are joined (RFC 9112 §5.1); a single
    // value loses it in responseFromParts, with every other answer's.
    out[name.toLowerCase()] = Array.isArray(value) ? value.map(withoutOws).join(", ") : value;
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
 * Every answer enters the harness here, so here its header values lose the whitespace around them
 * (RFC 9112 §5.1), before any rule reads them.
 */
export function responseFromParts(parts: {
  readonly request: HttpRequest;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly durationMs: number;
  readonly curl: string;
  /** The content codings `body` came in (already undone). */
  readonly codings?: readonly string[];
}): HttpResponse {
  const { request, status, body, durationMs, curl } = parts;
  const headers = fieldValues(parts.headers);
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
    ...(parts.codings === undefined || parts.codings.length === 0 ? {} : { codings: parts.codings }),
    record: { method: request.method, url: request.url, status, durationMs, curl },
  };
}

function fieldValues(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  let out: Record<string, string> | undefined;
  for (const [name, value] of Object.entries(headers)) {
    const trimmed = withoutOws(value);
    if (trimmed === value) continue;
    out ??= { ...headers };
    out[name] = trimmed;
  }
  return out ?? headers;
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
  const err = e as { code?: unknown; name?: string; message?: string; cause?: { code?: unknown } };
  const raw = err.code ?? err.cause?.code;
  const code = typeof raw === "string" ? raw : undefined;
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
    case "UND_ERR_RES_CONTENT_LENGTH_MISMATCH":
      return ["malformed", `not an HTTP answer: ${err.message ?? code}`];
  }
  if (err.name === "HTTPParserError" || code?.startsWith("HPE_")) return ["malformed", `not an HTTP answer: ${err.message ?? code}`];
  if (err.name === "TimeoutError" || err.name === "AbortError" || code === "UND_ERR_ABORTED") {
    return ["deadline", `no complete answer within ${timeoutMs} ms`];
  }
  return ["other", `${err.name ?? "Error"}: ${err.message ?? String(e)}${code ? ` (${code})` : ""}`];
}
