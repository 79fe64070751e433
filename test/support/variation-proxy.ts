// An HTTP/1.1 proxy on loopback in front of a node, applying one allowed variation (variations.ts) or
// one deviation (deviations.ts) to what passes through it: the target a conformance run is pointed at in
// the allowed-variations and deviations guards (test/self-check/allowed-variations.test.ts,
// deviations.test.ts).
//
// The forwarding is the suite's own (src/harness/proxy/forward.ts): a request goes upstream as it came,
// but for the target a variation may rewrite, and its answer is read whole. Here the answer is handed
// to the variation as status, header lines and body bytes, and written back: with Content-Length set
// anew when the variation changed the body, the body bytes untouched otherwise (BCS byte for byte).

import type { IncomingMessage, ServerResponse } from "node:http";
import { Forwarder, listenOnLoopback, readRequest } from "../../src/harness/proxy/forward.ts";
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

/** Starts the proxy in front of `upstream` (a base URL including /v1), applying the variation or deviation named `variation`. */
export async function startVariationProxy(upstream: string, variation: string): Promise<VariationProxy> {
  const base = new URL(upstream);
  const hooks: VariationHooks = alterationNamed(variation).create();
  let changed = 0;
  const count = (didChange: boolean) => {
    if (didChange) changed++;
  };
  const forwarder = new Forwarder({ upstream, timeoutMs: UPSTREAM_TIMEOUT_MS, maxAnswerBytes: MAX_ANSWER_BYTES });

  const server = await listenOnLoopback(0, (req, res) => {
    forward(req, res).catch((error: unknown) => fail(res, error));
  });
  hooks.server?.(server.server, () => count(true));

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = hooks.target?.(req.url ?? "/") ?? req.url ?? "/";
    const request = await readRequest(req, MAX_REQUEST_BYTES, target);
    if (request === undefined) throw new Error(`a request body exceeds ${MAX_REQUEST_BYTES} bytes`);
    const path = target.split("?")[0] as string;
    // A gateway's own answer, in place of the node's: the request never goes upstream.
    const own = hooks.respond?.({ method: request.method, path, target });
    if (own !== undefined) {
      count(true);
      if (!res.destroyed) writePlain({ ...own, requestHeaders: req.headers }, res);
      return;
    }
    const upstreamAnswer = await forwarder.exchange(request);
    if (upstreamAnswer.kind === "too_large") throw new Error(`an answer exceeds ${MAX_ANSWER_BYTES} bytes`);
    if (upstreamAnswer.kind === "failed") throw upstreamAnswer.error;
    const { body } = upstreamAnswer;
    const answer: Answer = {
      method: request.method,
      path,
      target,
      requestHeaders: req.headers,
      status: upstreamAnswer.status,
      headers: upstreamAnswer.headers,
      body,
    };
    count(hooks.answer?.(answer) ?? false);
    if (answer.body !== body) setContentLength(answer);
    if (res.destroyed) return;
    count((await hooks.write?.(answer, res)) ?? writePlain(answer, res));
  }

  return {
    url: `http://127.0.0.1:${server.port}${base.pathname.replace(/\/$/, "")}`,
    changed: () => changed,
    async close() {
      await server.close();
      forwarder.close();
    },
  };
}

/** Content-Length as the changed body's length, where the upstream sent one (a HEAD answer's is left alone). */
function setContentLength(answer: Answer): void {
  if (answer.method === "HEAD") return;
  answer.headers = answer.headers.map(([name, value]) => [
    name,
    name.toLowerCase() === "content-length" ? String(answer.body.length) : value,
  ]);
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
