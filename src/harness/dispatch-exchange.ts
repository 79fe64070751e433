// One HTTP exchange through undici's low-level Dispatcher.dispatch, its body gathered in memory up to a
// cap, ended by a deadline or by the run being stopped. undici's request() wraps every answer in a
// Readable stream, and each of its deadlines took two AbortSignals (timeout and any): on loopback that
// costs the worker about twice the CPU per request, more before the JIT has warmed up, and a run makes
// thousands of requests.
//
// What reaches the wire is what request() sent: the URL's origin, and its pathname and search as the
// path (undici index.js makeDispatcher); an informational 1xx answer is passed over for the final one
// (lib/api/api-request.js onHeaders); undici's errors come back as they are, for the caller to classify.

import type { Dispatcher } from "undici";

export interface ExchangeRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | undefined;
  /** For the whole exchange, and for each of undici's phases (headers, body). */
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** Aborts the exchange when it aborts (the run is being stopped). */
  readonly cancel: AbortSignal | undefined;
}

export type Exchange =
  | {
      readonly kind: "answer";
      readonly status: number;
      readonly headers: Readonly<Record<string, string | string[] | undefined>>;
      readonly body: Uint8Array;
    }
  /** The body grew past maxResponseBytes: the exchange was abandoned. */
  | { readonly kind: "too_large"; readonly status: number }
  /** `status`: the answer's, when its headers had come before the error. */
  | { readonly kind: "failed"; readonly error: unknown; readonly status: number | undefined };

/** The reason the body's cap gives undici to abandon the exchange. */
class BodyTooLarge extends Error {}

export function exchange(dispatcher: Dispatcher, request: ExchangeRequest): Promise<Exchange> {
  return new Promise((resolve) => {
    const url = new URL(request.url);
    let controller: Dispatcher.DispatchController | undefined;
    let stopReason: Error | undefined;
    let status: number | undefined;
    let headers: Readonly<Record<string, string | string[] | undefined>> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;

    // Before undici starts the request (queued behind others) there is nothing to abort yet: the reason
    // waits for onRequestStart.
    const stop = (reason: Error) => {
      stopReason ??= reason;
      controller?.abort(stopReason);
    };
    const cancelled = () =>
      request.cancel?.reason instanceof Error ? request.cancel.reason : new DOMException(String(request.cancel?.reason), "AbortError");
    // Named as AbortSignal.timeout's reason is: a deadline, not a connection fault of undici's.
    const deadline = setTimeout(
      () => stop(new DOMException(`no complete answer within ${request.timeoutMs} ms`, "TimeoutError")),
      request.timeoutMs,
    );
    const onCancel = () => stop(cancelled());
    const settle = (outcome: Exchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.cancel?.removeEventListener("abort", onCancel);
      resolve(outcome);
    };
    if (request.cancel?.aborted) stop(cancelled());
    else request.cancel?.addEventListener("abort", onCancel, { once: true });

    const body = request.body === undefined ? null : Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: url.search ? `${url.pathname}${url.search}` : url.pathname,
          method: request.method as Dispatcher.HttpMethod,
          headers: request.headers,
          body,
          headersTimeout: request.timeoutMs,
          bodyTimeout: request.timeoutMs,
        },
        {
          onRequestStart: (started) => {
            controller = started;
            if (stopReason !== undefined) started.abort(stopReason);
          },
          // Called again after an informational 1xx answer: the last call is the final answer's.
          onResponseStart: (_c, statusCode, responseHeaders) => {
            status = statusCode;
            headers = responseHeaders;
          },
          onResponseData: (c, chunk) => {
            size += chunk.length;
            if (size > request.maxResponseBytes) c.abort(new BodyTooLarge());
            else chunks.push(chunk);
          },
          onResponseEnd: () => {
            if (status === undefined)
              return settle({ kind: "failed", error: new Error("the answer ended without a final status"), status });
            // Copied once into a buffer of its own (undici's chunks may be slices of a shared pool).
            const received = new Uint8Array(size);
            let at = 0;
            for (const chunk of chunks) {
              received.set(chunk, at);
              at += chunk.length;
            }
            settle({ kind: "answer", status, headers, body: received });
          },
          onResponseError: (_c, error) => {
            settle(
              error instanceof BodyTooLarge && status !== undefined ? { kind: "too_large", status } : { kind: "failed", error, status },
            );
          },
        },
      );
    } catch (error) {
      // dispatch throws for options it refuses (a malformed header value, a closed dispatcher).
      settle({ kind: "failed", error, status: undefined });
    }
  });
}
