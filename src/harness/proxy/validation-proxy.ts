// The validation proxy: listens on loopback, forwards each request of a client (an SDK's tests, a
// wallet, a load test) to the upstream node unchanged (method, path, query, headers, body; hop-by-hop
// headers aside, as any proxy must), hands the answer back unchanged, and judges it as a run judges
// every answer: the cross-cutting contract (observeResponse) and, for a 2xx JSON body, its operation's
// schema under the requirement a run checks it with (body-requirements.ts). Bounded: request and
// answer bodies have caps, and every upstream exchange a timeout. Redirects are passed to the client,
// never followed. A request for another host (an absolute URL in the request line) is refused.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "../undici-agent.ts";
import { renderCurl } from "../curl.ts";
import { decodeBody } from "../content-coding.ts";
import { exchange } from "../dispatch-exchange.ts";
import { flattenHeaders, responseFromParts, type HttpRequest } from "../http-client.ts";
import { LedgerTracker } from "../ledger-tracker.ts";
import { observeResponse } from "../observed-contract.ts";
import { withFamilyNames } from "../unshown-members.ts";
import type { ApiContract } from "../openapi.ts";
import { redactHeaders } from "../recording.ts";
import type { RequirementCatalog } from "../requirements.ts";
import { failingStatus, type CheckResult } from "../results.ts";
import { formatFailure } from "../failure-message.ts";
import { BODY_REQUIREMENT } from "./body-requirements.ts";

export interface ProxyOptions {
  /** The node's base URL including /v1, like a run's --target. */
  readonly upstream: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly contract: ApiContract;
  readonly catalog: RequirementCatalog;
  readonly headerPrefix: string;
  readonly timeoutMs: number;
  readonly maxRequestBytes: number;
  readonly maxResponseBytes: number;
  /** Each judged answer: a label ("GET get_account_module") and the judgements. */
  readonly onJudged: (label: string, results: readonly CheckResult[]) => void;
}

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1), and the ones the body framing sets. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "proxy-authenticate",
  "proxy-authorization",
  "host",
  "content-length",
]);

export class ValidationProxy {
  readonly #options: ProxyOptions;
  readonly #upstream: URL;
  readonly #basePath: string;
  readonly #agent: Agent;
  readonly #tracker = new LedgerTracker();
  #server: Server | undefined;

  constructor(options: ProxyOptions) {
    this.#options = options;
    this.#upstream = new URL(options.upstream);
    this.#basePath = this.#upstream.pathname.replace(/\/+$/, "");
    this.#agent = new Agent({
      keepAliveTimeout: 10_000,
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** Listens on 127.0.0.1; resolves with the URL a client uses in place of the upstream's. */
  async listen(): Promise<string> {
    const server = createServer((req, res) => {
      this.#handle(req, res).catch((e: unknown) => answerOwn(res, 502, `proxy error: ${(e as Error).message}`));
    });
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.#options.port, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return `http://127.0.0.1:${port}${this.#basePath}`;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (server !== undefined) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await this.#agent.destroy().catch(() => undefined);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? "/";
    // Origin-form only: an absolute URL or an authority would make this an open proxy to other hosts.
    if (!target.startsWith("/") || target.startsWith("//"))
      return answerOwn(res, 400, "the proxy forwards only paths of the upstream node");
    const body = await readBounded(req, this.#options.maxRequestBytes);
    if (body === undefined) return answerOwn(res, 413, `request body over the proxy's limit of ${this.#options.maxRequestBytes} bytes`);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(flattenHeaders(req.headers))) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    const method = (req.method ?? "GET").toUpperCase();
    const request: HttpRequest = { method, url: `${this.#upstream.origin}${target}`, headers, ...(body.length > 0 ? { body } : {}) };
    const markBefore = this.#tracker.mark();
    const started = performance.now();
    const answer = await exchange(this.#agent, {
      method,
      url: request.url,
      headers,
      body: body.length > 0 ? body : undefined,
      timeoutMs: this.#options.timeoutMs,
      maxResponseBytes: this.#options.maxResponseBytes,
      cancel: undefined,
    });
    if (answer.kind === "too_large")
      return answerOwn(res, 502, `upstream answer over the proxy's limit of ${this.#options.maxResponseBytes} bytes`);
    if (answer.kind === "failed") {
      const message = answer.error instanceof Error ? answer.error.message : String(answer.error);
      return answerOwn(
        res,
        502,
        answer.status === undefined ? `upstream gave no answer: ${message}` : `upstream answer broke off: ${message}`,
      );
    }
    const bytes = Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
    const responseHeaders = flattenHeaders(answer.headers);
    // The client gets the answer as it came, before it is judged.
    // Repeated headers (set-cookie) stay repeated: the raw header lists, not the joined values.
    const forwarded: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      const lower = name.toLowerCase();
      if (value !== undefined && (!HOP_BY_HOP.has(lower) || lower === "content-length")) forwarded[lower] = value;
    }
    res.writeHead(answer.status, forwarded);
    res.end(bytes);
    this.#judge(request, target, answer.status, responseHeaders, bytes, performance.now() - started, markBefore);
  }

  #judge(
    request: HttpRequest,
    target: string,
    status: number,
    headers: Record<string, string>,
    raw: Buffer,
    durationMs: number,
    markBefore: ReturnType<LedgerTracker["mark"]>,
  ): void {
    if (!target.startsWith(`${this.#basePath}/`)) return; // not an operation of the interface
    const operation = this.#options.contract.findOperation(request.method, target.slice(this.#basePath.length));
    if (operation === undefined) return; // beyond the contract (e.g. GET /v1): forwarded, not judged
    const readable = decoded(raw, headers["content-encoding"], this.#options.maxResponseBytes);
    if (readable === undefined) return; // an encoding this proxy cannot read: no evidence either way
    const curl = renderCurl({ ...request, headers: redactHeaders(request.headers) });
    const { catalog, contract, headerPrefix } = this.#options;
    const { response, foundByType } = withFamilyNames(
      operation.id,
      responseFromParts({ request, status, headers, body: readable.body, durationMs, curl, codings: readable.codings }),
      contract.errorCodes,
    );
    const results = observeResponse(
      { catalog, contract, headerPrefix, tracker: this.#tracker },
      { operation, response, markBefore, foundByType },
    );
    const bodyRequirement = BODY_REQUIREMENT[operation.id];
    const declared = operation.response(status);
    if (
      bodyRequirement !== undefined &&
      declared !== undefined &&
      status < 300 &&
      response.contentType !== undefined &&
      !declared.isBinary(response.contentType)
    ) {
      const problems = declared.validateBody(response.contentType, { json: response.json, text: response.text });
      // undefined: a media type the operation does not declare, judged by 4/media-type-declared.
      if (problems !== undefined) {
        results.push(
          problems.length === 0
            ? { requirement: bodyRequirement, status: "passed", failures: [] }
            : {
                requirement: bodyRequirement,
                status: failingStatus(catalog.get(bodyRequirement).level),
                failures: [
                  formatFailure({
                    requirement: bodyRequirement,
                    expected: `a body matching the ${operation.id} ${status} ${response.contentType} schema`,
                    found: problems.slice(0, 10).join("; "),
                    response,
                    headerPrefix,
                  }),
                ],
              },
        );
      }
    }
    this.#options.onJudged(`${request.method} ${operation.id}`, results);
  }
}

/**
 * The body as the client reads it, whatever Content-Encoding the node chose, decoded no larger than the
 * proxy's cap on answers; undefined when unreadable (a coding the suite does not decode, a bomb, a
 * broken stream): the client that asked judges those, the proxy only forwards them.
 */
function decoded(
  raw: Buffer,
  encoding: string | undefined,
  maxBytes: number,
): { body: Uint8Array; codings: readonly string[] } | undefined {
  const result = decodeBody(new Uint8Array(raw), encoding, maxBytes);
  return result.ok ? result : undefined;
}

function readBounded(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    req.on("error", reject);
  });
}

/** An answer of the proxy itself (not of the node), marked as such. */
function answerOwn(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "x-ledger-conformance-proxy": "own-answer", connection: "close" });
  res.end(`ledger-conformance proxy: ${message}\n`);
}
