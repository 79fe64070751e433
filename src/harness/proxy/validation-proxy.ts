// The validation proxy: listens on loopback, forwards each request of a client (an SDK's tests, a
// wallet, a load test) to the upstream node unchanged (method, path, query, headers, body; hop-by-hop
// headers aside, as any proxy must), hands the answer back unchanged, and judges it as a run judges
// every answer (judge-answer.ts). Bounded: request and
// answer bodies have caps, and every upstream exchange a timeout. Redirects are passed to the client,
// never followed. A request for another host (an absolute URL in the request line) is refused.

import type { IncomingMessage, ServerResponse } from "node:http";
import { flattenHeaders, type HttpRequest } from "../http-client.ts";
import { LedgerTracker } from "../ledger-tracker.ts";
import type { ApiContract } from "../openapi.ts";
import type { RequirementCatalog } from "../requirements.ts";
import type { CheckResult } from "../results.ts";
import { judgeAnswer } from "./judge-answer.ts";
import { Forwarder, headerFields, listenOnLoopback, readRequest, writeAnswer, type LoopbackServer } from "./forward.ts";
import { endToEnd, SENDER_SET } from "./hop-by-hop.ts";

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

export class ValidationProxy {
  readonly #options: ProxyOptions;
  readonly #upstream: URL;
  readonly #basePath: string;
  readonly #forwarder: Forwarder;
  readonly #tracker = new LedgerTracker();
  #server: LoopbackServer | undefined;

  constructor(options: ProxyOptions) {
    this.#options = options;
    this.#upstream = new URL(options.upstream);
    this.#basePath = this.#upstream.pathname.replace(/\/+$/, "");
    this.#forwarder = new Forwarder({ upstream: options.upstream, timeoutMs: options.timeoutMs, maxAnswerBytes: options.maxResponseBytes });
  }

  /** Listens on 127.0.0.1; resolves with the URL a client uses in place of the upstream's. */
  async listen(): Promise<string> {
    this.#server = await listenOnLoopback(this.#options.port, (req, res) => {
      this.#handle(req, res).catch((e: unknown) => answerOwn(res, 502, `proxy error: ${(e as Error).message}`));
    });
    return `http://127.0.0.1:${this.#server.port}${this.#basePath}`;
  }

  async close(): Promise<void> {
    await this.#server?.close();
    this.#forwarder.close();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? "/";
    // Origin-form only: an absolute URL or an authority would make this an open proxy to other hosts.
    if (!target.startsWith("/") || target.startsWith("//"))
      return answerOwn(res, 400, "the proxy forwards only paths of the upstream node");
    const forwarded = await readRequest(req, this.#options.maxRequestBytes);
    if (forwarded === undefined)
      return answerOwn(res, 413, `request body over the proxy's limit of ${this.#options.maxRequestBytes} bytes`);
    const { method, body } = forwarded;
    const headers = flattenHeaders(headerFields(endToEnd(forwarded.headers, SENDER_SET)));
    const request: HttpRequest = { method, url: `${this.#upstream.origin}${target}`, headers, ...(body.length > 0 ? { body } : {}) };
    const markBefore = this.#tracker.mark();
    const started = performance.now();
    const answer = await this.#forwarder.exchange(forwarded);
    if (answer.kind === "too_large")
      return answerOwn(res, 502, `upstream answer over the proxy's limit of ${this.#options.maxResponseBytes} bytes`);
    if (answer.kind === "failed") {
      const { message } = answer.error;
      return answerOwn(
        res,
        502,
        answer.status === undefined ? `upstream gave no answer: ${message}` : `upstream answer broke off: ${message}`,
      );
    }
    // The client gets the answer as it came (repeated headers, set-cookie, stay repeated), before it is judged.
    writeAnswer(res, method, answer);
    const responseHeaders = flattenHeaders(headerFields(answer.headers));
    const results = judgeAnswer(this.#options, this.#tracker, {
      request,
      path: target.startsWith(`${this.#basePath}/`) ? target.slice(this.#basePath.length) : undefined,
      status: answer.status,
      headers: responseHeaders,
      raw: answer.body,
      durationMs: performance.now() - started,
      markBefore,
    });
    if (results !== undefined) this.#options.onJudged(results.label, results.results);
  }
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
