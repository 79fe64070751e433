// `t`, what a check receives: requests that are recorded and checked against the observed-status
// contract, assertions that end the check with a formatted failure, fixtures and profile access.

import { isDeepStrictEqual } from "node:util";
import type { BcsType } from "@mysten/bcs";
import { isLoopbackUrl, type Profile, type RunConfig } from "./config.ts";
import { renderRawReplay } from "./curl.ts";
import { redactedHeaders } from "./secrets.ts";
import { formatFailure } from "./failure-message.ts";
import type { FixtureName, Fixtures } from "./fixtures.ts";
import type { Harness } from "./harness.ts";
import { RequestFailure, responseFromParts, type HttpClient, type HttpRequest, type HttpResponse } from "./http-client.ts";
import type { LedgerMark } from "./ledger-tracker.ts";
import { observeResponse } from "./observed-contract.ts";
import { errorObjectProblem } from "./error-object.ts";
import { UnknownMemberTally } from "./unknown-member-tally.ts";
import { withFamilyNames, type FamilyNamed } from "./unshown-members.ts";
import { ForeignPrefixTally, foreignLedgerPrefixes } from "./foreign-header-prefix.ts";
import type { ApiContract, OperationContract } from "./openapi.ts";
import { buildRawRequest, type RawEnding, type RawExchangeResult, type RawHttpAnswer } from "./raw-exchange.ts";
import { decodeBody } from "./content-coding.ts";
import { acceptEncodingOf, ContentCodingTally } from "./content-coding-tally.ts";
import { errorCodeOf, headerValue, ledgerState, type LedgerState } from "./response-facts.ts";
import type { Requirement } from "./requirements.ts";
import type { LoadProfile } from "./load-profile.ts";
import type { CheckResult, Failure, RequestRecord } from "./results.ts";
import type { RunMemoryKey } from "./run-memory.ts";
import type { SequenceBook } from "./sequence-book.ts";

/** An assertion did not hold: ends the check, recorded as failed (MUST) or warned (SHOULD). */
export class CheckFailure extends Error {
  override readonly name = "CheckFailure";
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

/** The target gave no HTTP answer where one was due (bytes that are not HTTP, an answer over the size cap). */
export class NoHttpAnswer extends CheckFailure {}

/** A fixture the check needs is missing: ends the check as not_applicable. */
export class CheckNotApplicable extends Error {
  override readonly name = "CheckNotApplicable";
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The check may not run against this target (e.g. it would submit): ends it as skipped. */
export class CheckSkipped extends Error {
  override readonly name = "CheckSkipped";
  constructor(readonly reason: string) {
    super(reason);
  }
}

type QueryValue = string | number | bigint | boolean | undefined;

export interface RequestSpec {
  /** Default GET. */
  readonly method?: string;
  /** Relative to the target (which ends in /v1), e.g. "/accounts/0x1/modules". Sent as written. */
  readonly path: string;
  /** Appended as ?a=1&b=2 (URL-encoded); undefined values are left out. */
  readonly query?: Readonly<Record<string, QueryValue>>;
  /** "json" (the default), "bcs" (application/x-bcs), "none" (no Accept header) or any literal value. */
  readonly accept?: "json" | "bcs" | "none" | (string & {});
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body (Content-Type application/json unless contentType says otherwise). */
  readonly json?: unknown;
  /** A BCS signed transaction (Content-Type: the profile's BCS submission type). */
  readonly bcs?: Uint8Array;
  /** Any other body. */
  readonly body?: Uint8Array | string;
  readonly contentType?: string;
  /** The operationId whose contract the response is checked against, when the path matches no template. */
  readonly operation?: string;
  /**
   * A 503 is the answer the check judges, not the node declining the request (sheddingIsAnswer): so
   * for a health check with duration_secs unless said otherwise; every other 503 is sent again and, on
   * every attempt, skips the check.
   */
  readonly shedIsAnswer?: boolean;
}

export interface RawRequestSpec {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Uint8Array | string;
  /** A Content-Length that may disagree with the body (default: the body's length). */
  readonly contentLength?: number;
  /** Default "half-close". */
  readonly ending?: RawEnding;
  /** Send exactly these bytes instead of a request built from the fields above (without the --header headers). */
  readonly bytes?: Uint8Array;
  readonly operation?: string;
}

export interface RawResult extends RawExchangeResult {
  readonly replay: string;
  /** The answer as a response, when its header block arrived (already checked against the observed contract). */
  readonly response: HttpResponse | undefined;
}

export type TryResult = { readonly ok: true; readonly response: HttpResponse } | { readonly ok: false; readonly failure: RequestFailure };

/** One exchange as the harness saw it: the request, its operation, and the answer with what the observed contract found of it, or the failure. */
export type Exchanged = { readonly request: HttpRequest; readonly operation: OperationContract | undefined } & (
  | { readonly ok: true; readonly response: HttpResponse; readonly observed: readonly CheckResult[] }
  | { readonly ok: false; readonly failure: RequestFailure }
);

/** Sends a request of the check on another client than the worker's (the load mode's clients, each with connections of its own). */
export type ExchangeOn = (client: HttpClient, spec: RequestSpec) => Promise<Exchanged>;

/**
 * What a check did, for the runner (check.ts, property.ts) and not for authors: the observed contract's
 * results on its responses, its requests, how many assertions it made, the last curl line.
 */
export class CheckTrace {
  readonly observed: CheckResult[] = [];
  readonly requests: RequestRecord[] = [];
  assertions = 0;
  /** The last request's curl line, for failures that are not about one response. */
  lastCurl: string | undefined;
  /** Members of the responses' bodies the contract does not declare: noted for the report, never a failure. */
  readonly unknownMembers = new UnknownMemberTally();
  /** Ledger-header prefixes the responses carried besides the run's: said in the verdict, with the flags to use. */
  readonly foreignPrefixes = new ForeignPrefixTally();
  /** The content codings the answers came in, asked or not: a fact of the run, never a failure. */
  readonly contentCodings = new ContentCodingTally();
  /** The load mode's figures, from the check that ran the load. */
  loadProfile: LoadProfile | undefined;
}

const traces = new WeakMap<CheckContext, CheckTrace>();
const exchangers = new WeakMap<CheckContext, { readonly exchangeOn: ExchangeOn; readonly client: HttpClient }>();

/** The trace of `t` (not exported by index.ts: authors see only the context's own API). */
export function traceOf(t: CheckContext): CheckTrace {
  return traces.get(t) as CheckTrace;
}

/** How the load mode sends a check's requests on clients of its own, and the worker's client they take their options from (not exported by index.ts). */
export function exchangerOf(t: CheckContext): { readonly exchangeOn: ExchangeOn; readonly client: HttpClient } {
  return exchangers.get(t) as { readonly exchangeOn: ExchangeOn; readonly client: HttpClient };
}

export class CheckContext {
  readonly requirement: Requirement;
  readonly #h: Harness;
  readonly #trace = new CheckTrace();
  readonly #operations = new WeakMap<HttpResponse, OperationContract>();

  constructor(harness: Harness, requirement: Requirement) {
    this.#h = harness;
    this.requirement = requirement;
    traces.set(this, this.#trace);
    exchangers.set(this, { exchangeOn: (client, spec) => this.#exchange(spec, client), client: harness.client });
  }

  // --- what the check can read

  get config(): RunConfig {
    return this.#h.config;
  }
  get fixtures(): Fixtures {
    return this.#h.config.fixtures;
  }
  get profile(): Profile {
    return this.#h.config.profile;
  }
  get contract(): ApiContract {
    return this.#h.contract;
  }
  /** The next sequence number of each sender, as far as the run's submissions know: shared by its workers. */
  get sequences(): SequenceBook {
    return this.#h.sequences;
  }

  /** What the run keeps under `key` from one check to the next (run-memory.ts): the run's own, whatever else the worker serves. */
  remembered<T>(key: RunMemoryKey<T>): T {
    return this.#h.memory.of(key);
  }

  /** "CURSOR" → "X-NODE-CURSOR" under the node profile. */
  headerName(suffix: string): string {
    return `${this.profile.headerPrefix}${suffix.toUpperCase()}`;
  }

  /** A §2.7 header of a response by its suffix ("LEDGER-VERSION"), or undefined. */
  header(res: HttpResponse, suffix: string): string | undefined {
    return headerValue(res, this.profile.headerPrefix, suffix);
  }

  /** The §2.7 ledger state `res` reports (each member present when its header is a bounded integer). */
  ledgerState(res: HttpResponse): LedgerState {
    return ledgerState(res, this.profile.headerPrefix);
  }

  // --- requests

  /**
   * Sends a request; any HTTP answer resolves (whatever its status). When the connection failed (after
   * the client's retries) the check ends skipped with the reason: a connection fault is no evidence
   * either way. Bytes that are not an HTTP answer, or an answer over the size cap, fail it.
   */
  async request(spec: RequestSpec): Promise<HttpResponse> {
    const result = await this.tryRequest(spec);
    if (result.ok) return result.response;
    if (result.failure.isConnectionFault) throw new CheckSkipped(noAnswerReason(result.failure));
    this.#trace.assertions += 1;
    throw new NoHttpAnswer(
      formatFailure({
        requirement: this.requirement.id,
        expected: "an HTTP answer",
        requestFailure: result.failure,
        headerPrefix: this.profile.headerPrefix,
      }),
    );
  }

  /** Like request, but a missing answer (timeout, reset) is returned instead of failing the check. */
  async tryRequest(spec: RequestSpec): Promise<TryResult> {
    const exchange = await this.#exchange(spec, this.#h.client);
    if (exchange.ok) {
      this.#trace.requests.push(exchange.response.record);
      this.#trace.lastCurl = exchange.response.curl;
      this.#trace.observed.push(...exchange.observed);
      return { ok: true, response: exchange.response };
    }
    // The target stopped answering earlier in the run: this check could not run, which is not a pass.
    if (exchange.failure.kind === "not_sent") throw new CheckSkipped(exchange.failure.message);
    this.#trace.requests.push(exchange.failure.record);
    this.#trace.lastCurl = exchange.failure.curl;
    return { ok: false, failure: exchange.failure };
  }

  /**
   * One exchange on `client`, checked against the observed contract and recorded (--record), its
   * undeclared members and foreign header prefixes noted; what the observed contract found is returned,
   * not added to the trace, and neither is the request.
   */
  async #exchange(spec: RequestSpec, client: HttpClient): Promise<Exchanged> {
    const request = this.#buildRequest(spec);
    const operation =
      spec.operation !== undefined ? this.contract.operation(spec.operation) : this.contract.findOperation(request.method, spec.path);
    const markBefore = this.#h.tracker.mark();
    try {
      const sent = await client.send(request, operation?.id === SUBMISSION_OPERATION ? "unsent" : "any-fault", {
        shedIsAnswer: spec.shedIsAnswer ?? sheddingIsAnswer(operation?.id, spec.query),
        onDeclined: (kind) => this.#h.declines?.add(operation?.id, kind),
      });
      // Recorded as sent: with the Accept-Encoding the client adds.
      const { response, observed } = this.#received(operation, sent, markBefore, sent.request);
      return { ok: true, request, operation, response, observed };
    } catch (e) {
      if (!(e instanceof RequestFailure)) throw e;
      this.#noteCodings(e.codings, e.request.headers);
      if (e.kind !== "not_sent") {
        this.#h.recorder?.record({
          requirement: this.requirement.id,
          request: e.request,
          error: e.message,
          curl: e.curl,
          durationMs: e.record.durationMs,
        });
      }
      return { ok: false, request, operation, failure: e };
    }
  }

  /**
   * What every answer goes through once read, whichever way it was sent (a request, or bytes over a bare
   * socket): the family's names for the members the spec leaves unnamed, the foreign header prefixes
   * and content codings noted, the observed contract, the undeclared members noted, and --record.
   * What the observed contract found is returned, not added to the trace.
   */
  #received(
    operation: OperationContract | undefined,
    answered: HttpResponse,
    markBefore: LedgerMark | undefined,
    recordedRequest: HttpRequest,
  ): { readonly response: HttpResponse; readonly observed: CheckResult[] } {
    const { response, foundByType }: FamilyNamed = operation
      ? withFamilyNames(operation.id, answered, this.contract.errorCodes)
      : { response: answered, foundByType: undefined };
    this.#noteForeignPrefixes(response);
    this.#noteCodings(response.codings ?? [], recordedRequest.headers);
    const observed = operation ? observeResponse(this.#observedContext(), { operation, response, markBefore, foundByType }) : [];
    if (operation) {
      this.#operations.set(response, operation);
      this.#noteUnknownMembers(operation, response);
    }
    this.#h.recorder?.record({
      requirement: this.requirement.id,
      request: recordedRequest,
      response,
      curl: response.curl,
      durationMs: response.durationMs,
      observed,
    });
    return { response, observed };
  }

  /** Bytes over a bare socket (truncated bodies, dropped connections); never fails the check by itself. */
  async requestRaw(spec: RawRequestSpec): Promise<RawResult> {
    const url = this.#url(spec.path);
    const body = typeof spec.body === "string" ? new TextEncoder().encode(spec.body) : spec.body;
    // A request built here carries the --header headers like every other; the replay shows them as ***.
    const secret = this.#h.config.secretHeaders ?? {};
    const build = (extra: Readonly<Record<string, string>>) =>
      spec.bytes ??
      buildRawRequest({
        method: spec.method ?? "GET",
        url,
        headers: { ...spec.headers, ...extra },
        ...(body === undefined ? {} : { body }),
        ...(spec.contentLength === undefined ? {} : { contentLength: spec.contentLength }),
      });
    const bytes = build(secret);
    const replay = renderRawReplay(url, build(redactedHeaders(secret)));
    const markBefore = this.#h.tracker.mark();
    const sent = await this.#h.client.sendRaw(
      { url, bytes, ending: spec.ending ?? "half-close" },
      { onDeclined: (kind) => this.#h.declines?.add(spec.operation, kind) },
    );
    if (!sent.sent) throw new CheckSkipped(sent.reason);
    const { result, attempts } = sent;
    this.#trace.lastCurl = replay;
    const method = spec.method ?? "GET";
    this.#trace.requests.push({
      method,
      url,
      status: result.answer?.status ?? null,
      durationMs: result.durationMs,
      curl: replay,
      ...(result.answer
        ? {}
        : {
            error: `no HTTP answer (${result.end}${result.error ? `: ${result.error}` : ""})${attempts > 1 ? ` (${attempts} attempts)` : ""}`,
          }),
      ...(attempts > 1 ? { retries: attempts - 1 } : {}),
    });
    let response: HttpResponse | undefined;
    if (result.answer) {
      const body = this.#rawBody(result.answer, replay, spec.headers ?? {});
      const answered = responseFromParts({
        request: { method, url, headers: lowerCaseKeys(spec.headers ?? {}) },
        status: result.answer.status,
        headers: result.answer.headers,
        body: body.body,
        durationMs: result.durationMs,
        curl: replay,
        codings: body.codings,
      });
      const operation =
        spec.operation !== undefined ? this.contract.operation(spec.operation) : this.contract.findOperation(method, spec.path);
      const received = this.#received(operation, answered, markBefore, { ...answered.request, body: bytes });
      response = received.response;
      this.#trace.observed.push(...received.observed);
    } else {
      this.#h.recorder?.record({
        requirement: this.requirement.id,
        request: { method, url, headers: lowerCaseKeys(spec.headers ?? {}), body: bytes },
        error: `no HTTP answer (${result.end})`,
        curl: replay,
        durationMs: result.durationMs,
      });
    }
    return { ...result, replay, response };
  }

  /**
   * A raw answer's body as a client reads it, its Content-Encoding undone when the body is whole (a
   * truncated one stays as it came: the check judges its framing, not its content). A coding the suite
   * cannot decode ends the check skipped (no evidence either way); a bomb or a broken stream fails it.
   */
  #rawBody(
    answer: RawHttpAnswer,
    replay: string,
    headers: Readonly<Record<string, string>>,
  ): { body: Uint8Array; codings: readonly string[] } {
    if (!answer.complete) return { body: answer.body, codings: [] };
    const decoded = decodeBody(answer.body, answer.headers["content-encoding"], this.#h.client.options.maxResponseBytes);
    if (decoded.ok) return decoded;
    this.#noteCodings(decoded.codings, headers);
    if (decoded.kind === "unknown") throw new CheckSkipped(`the answer could not be read (no evidence either way): ${decoded.message}`);
    this.#trace.assertions += 1;
    throw new NoHttpAnswer(
      formatFailure({
        requirement: this.requirement.id,
        expected: "an HTTP answer whose body can be read",
        found: `a ${answer.status} answer: ${decoded.message}`,
        curl: replay,
        headerPrefix: this.profile.headerPrefix,
      }),
    );
  }

  // --- assertions: each ends the check with a formatted failure when it does not hold

  expectStatus(res: HttpResponse, ...statuses: number[]): void {
    this.#trace.assertions += 1;
    if (statuses.includes(res.status)) return;
    const code = errorCodeOf(res);
    this.#fail({
      expected: `status ${statuses.join(" or ")}`,
      found: `status ${res.status}${code === undefined ? "" : ` (${code})`}`,
      response: res,
    });
  }

  /**
   * A refusal as the client's error: a 4xx (RFC 9110 §15.5), never a success and never a server error
   * (§15.6). The spec lists the error statuses of each endpoint but leaves their conditions "not shown"
   * (§7.1), so which 4xx is the family's convention, judged under its own SHOULD requirement.
   */
  expectClientError(
    res: HttpResponse,
    what = "the request refused as the client's error",
    options: { readonly except?: readonly number[] } = {},
  ): void {
    this.#trace.assertions += 1;
    const except = options.except ?? [];
    if (res.status >= 400 && res.status < 500 && !except.includes(res.status)) return;
    const code = errorCodeOf(res);
    const but = except.length === 0 ? "" : ` other than ${except.join(", ")}`;
    this.#fail({
      expected: `a client error (4xx${but}): ${what}`,
      found: `status ${res.status}${code === undefined ? "" : ` (${code})`}`,
      response: res,
    });
  }

  /** The status and the §7.2 error_code of an error answer. */
  expectError(res: HttpResponse, status: number, ...codes: string[]): void {
    this.expectStatus(res, status);
    this.#trace.assertions += 1;
    const code = errorCodeOf(res);
    if (codes.length === 0 || (code !== undefined && codes.includes(code))) return;
    this.#fail({
      expected: `error_code ${codes.join(" or ")}`,
      found: `error_code ${JSON.stringify((res.json as { error_code?: unknown } | null | undefined)?.error_code)}`,
      response: res,
    });
  }

  /**
   * `res`'s body matches the schema its operation declares for its status and media type. `reading`
   * gives the JSON as the schema is to read it: a check whose requirement leaves one member's form to
   * another requirement puts that member in the schema's form first, so that the one deviation fails
   * its own requirement and no other. Returns the parsed JSON (as sent, not as read).
   */
  expectBodyMatchesSchema(res: HttpResponse, reading?: (json: unknown) => unknown): any {
    this.#trace.assertions += 1;
    const op = this.#operations.get(res);
    if (!op)
      throw new Error(
        `expectBodyMatchesSchema: ${res.request.method} ${res.request.url} matches no operation; pass \`operation\` in the request`,
      );
    const declared = op.response(res.status);
    if (!declared)
      return this.#fail({ expected: `a status ${op.id} declares (${op.statusSet})`, found: `status ${res.status}`, response: res });
    // An error body is judged by the one rule every error body is judged by (error-object.ts).
    if (res.status >= 400) {
      const problem = errorObjectProblem(this.contract, res);
      return problem === undefined ? res.json : this.#fail({ ...problem, response: res });
    }
    const type = res.contentType ?? "(none)";
    if (declared.isBinary(type)) throw new Error(`expectBodyMatchesSchema: the ${type} body is BCS; use t.decodeBcs(res, schema)`);
    const problems = declared.validateBody(type, { json: reading === undefined ? res.json : reading(res.json), text: res.text });
    if (problems === undefined) {
      return this.#fail({
        expected: `Content-Type one of ${declared.mediaTypes.join(", ")} for ${res.status}`,
        found: type,
        response: res,
      });
    }
    if (problems.length > 0) {
      return this.#fail({
        expected: `a body matching the ${op.id} ${res.status} ${type} schema`,
        found: problems.slice(0, 10).join("; "),
        response: res,
      });
    }
    return res.json;
  }

  /** `res` carries the §2.6 error object: JSON, valid under the Error schema (the rule 2.6/error-object applies to every error). */
  expectErrorObject(res: HttpResponse): void {
    this.#trace.assertions += 1;
    const problem = errorObjectProblem(this.contract, res);
    if (problem !== undefined) this.#fail({ ...problem, response: res });
  }

  expectMediaType(res: HttpResponse, type: string): void {
    this.#trace.assertions += 1;
    if (res.contentType === type.toLowerCase()) return;
    this.#fail({ expected: `Content-Type ${type}`, found: res.headers["content-type"] ?? "(none)", response: res });
  }

  /** `condition` must hold; `expected` says what should hold, in words. */
  expect(condition: boolean, expected: string, res?: HttpResponse, found?: string): void {
    this.#trace.assertions += 1;
    if (condition) return;
    this.#fail({ expected, ...(found === undefined ? {} : { found }), ...(res === undefined ? {} : { response: res }) });
  }

  expectEqual<T>(actual: T, expected: T, what: string, res?: HttpResponse): void {
    this.#trace.assertions += 1;
    if (isDeepStrictEqual(actual, expected)) return;
    this.#fail({ expected: `${what} = ${show(expected)}`, found: show(actual), ...(res === undefined ? {} : { response: res }) });
  }

  /** Ends the check as failed (or warned, for a SHOULD). */
  fail(expected: string, res?: HttpResponse, found?: string): never {
    this.#trace.assertions += 1;
    return this.#fail({ expected, ...(found === undefined ? {} : { found }), ...(res === undefined ? {} : { response: res }) });
  }

  /** Decodes a BCS body; it must decode and re-encode to exactly the same bytes (canonical, nothing after). */
  decodeBcs<T, Input>(res: HttpResponse, schema: BcsType<T, Input>): T {
    this.#trace.assertions += 1;
    let value: T;
    try {
      value = schema.parse(res.body);
    } catch (e) {
      return this.#fail({ expected: `a BCS ${schema.name}`, found: `undecodable: ${(e as Error).message}`, response: res });
    }
    let again: Uint8Array | undefined;
    try {
      again = schema.serialize(value as unknown as Input).toBytes();
    } catch {
      again = undefined;
    }
    if (again === undefined || !isDeepStrictEqual(Buffer.from(again), Buffer.from(res.body))) {
      this.#fail({
        expected: `exactly one canonical BCS ${schema.name}`,
        found:
          again === undefined ? "a value that does not re-encode" : `${res.body.length} bytes, of which the value takes ${again.length}`,
        response: res,
      });
    }
    return value;
  }

  // --- preconditions

  /** The fixture member, or the check ends as not_applicable naming it. */
  needsFixture<K extends FixtureName>(name: K): NonNullable<Fixtures[K]> {
    const value = this.fixtures[name];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) {
      throw new CheckNotApplicable(`needs fixture "${name}"`);
    }
    return value as NonNullable<Fixtures[K]>;
  }

  /**
   * Ends the check as skipped unless the target is on loopback or --allow-submit was given: the one
   * place the suite's read-only safety against a remote target is decided.
   */
  requireSubmitAllowed(): void {
    const refused = this.submitRefused();
    if (refused !== undefined) throw new CheckSkipped(refused);
  }

  /** Why this run may not submit acceptable transactions to the target, or undefined when it may. */
  submitRefused(): string | undefined {
    if (this.config.allowSubmit || isLoopbackUrl(this.config.target)) return undefined;
    return "would submit a transaction: the target is not on loopback and --allow-submit was not given";
  }

  // --- internals

  #fail(input: { expected: string; found?: string; response?: HttpResponse }): never {
    throw new CheckFailure(
      formatFailure({
        requirement: this.requirement.id,
        ...input,
        ...(input.response === undefined && this.#trace.lastCurl !== undefined ? { curl: this.#trace.lastCurl } : {}),
        headerPrefix: this.profile.headerPrefix,
      }),
    );
  }

  /** Every response with an operation, once: its undeclared members, for the report ("Objects", schemas/openapi.yaml). */
  #noteUnknownMembers(operation: OperationContract, res: HttpResponse): void {
    if (res.contentType === undefined || res.json === undefined) return;
    this.#trace.unknownMembers.addAll(operation.response(res.status)?.unknownMembers(res.contentType, res) ?? []);
  }

  /** The codings an answer came in, and whether the request's Accept-Encoding asked for them. */
  #noteCodings(codings: readonly string[], requestHeaders: Readonly<Record<string, string>>): void {
    if (codings.length > 0) this.#trace.contentCodings.addAnswer(codings, acceptEncodingOf(requestHeaders));
  }

  /** Every response: ledger headers under another prefix than the run's (X-APTOS-* to an X-NODE- run). */
  #noteForeignPrefixes(res: HttpResponse): void {
    const prefix = this.profile.headerPrefix;
    this.#trace.foreignPrefixes.add(prefix, foreignLedgerPrefixes(res.headers, prefix));
  }

  #observedContext() {
    return {
      catalog: this.#h.catalog,
      contract: this.#h.contract,
      headerPrefix: this.profile.headerPrefix,
      tracker: this.#h.tracker,
      ...(this.fixtures.chainId === undefined ? {} : { fixturesChainId: this.fixtures.chainId }),
    };
  }

  #url(path: string, query?: Readonly<Record<string, QueryValue>>): string {
    // "" is the target itself (GET /v1, the family's ledger info).
    if (path !== "" && !path.startsWith("/")) throw new Error(`request path must start with "/" (or be "", the target itself): ${path}`);
    let url = `${this.config.target}${path}`;
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.append(k, String(v));
    const qs = params.toString();
    if (qs !== "") url += `${url.includes("?") ? "&" : "?"}${qs}`;
    return url;
  }

  #buildRequest(spec: RequestSpec): HttpRequest {
    const headers: Record<string, string> = {};
    const accept = spec.accept ?? "json";
    if (accept !== "none") headers.accept = accept === "json" ? "application/json" : accept === "bcs" ? "application/x-bcs" : accept;
    let body: Uint8Array | undefined;
    if (spec.json !== undefined) {
      body = new TextEncoder().encode(JSON.stringify(spec.json));
      headers["content-type"] = "application/json";
    } else if (spec.bcs !== undefined) {
      body = spec.bcs;
      headers["content-type"] = this.profile.bcsSubmissionType;
    } else if (spec.body !== undefined) {
      body = typeof spec.body === "string" ? new TextEncoder().encode(spec.body) : spec.body;
    }
    if (spec.contentType !== undefined) headers["content-type"] = spec.contentType;
    Object.assign(headers, lowerCaseKeys(spec.headers ?? {}));
    return {
      method: (spec.method ?? "GET").toUpperCase(),
      url: this.#url(spec.path, spec.query),
      headers,
      ...(body === undefined ? {} : { body }),
    };
  }
}

/** The operation whose requests may be accepted transactions: sent again only when they cannot have arrived. */
const SUBMISSION_OPERATION = "submit_transaction";

/**
 * Whether a 503 answers the request's question: the health check's with duration_secs, whose failed
 * check is a 503 (§4.7). Elsewhere a 503 is the node declining the request (§7.1 lists it for every
 * endpoint but /spec), which the client sends again.
 */
export function sheddingIsAnswer(operation: string | undefined, query: Readonly<Record<string, QueryValue>> | undefined): boolean {
  return operation === "healthy" && query?.duration_secs !== undefined;
}

/** Why a check whose request got no answer is skipped. */
export function noAnswerReason(failure: RequestFailure): string {
  if (failure.kind === "not_sent") return failure.message;
  if (failure.kind === "cancelled") return "not run to its end: the run was stopped";
  if (failure.kind === "undecodable") return `the answer could not be read (no evidence either way): ${failure.message}`;
  if (failure.kind === "shed" || failure.kind === "rate_limited") return `${failure.message} (no evidence either way)`;
  return `no HTTP answer (a connection fault, no evidence either way): ${failure.message}`;
}

function lowerCaseKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function show(value: unknown): string {
  const s = JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
  return s === undefined ? String(value) : s.length > 300 ? `${s.slice(0, 300)}…` : s;
}
