// An upstream answer as the variation proxy holds it between reading it and writing it back
// (variation-proxy.ts), and its plain write: what a variation (variations.ts) changes and starts from.

import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { carriesContent, writeAnswer } from "../../src/harness/proxy/forward.ts";

export interface Answer {
  readonly method: string;
  /** The request target's path, without the query. */
  readonly path: string;
  /** The request target as forwarded upstream, query included. */
  readonly target: string;
  readonly requestHeaders: IncomingHttpHeaders;
  status: number;
  /** Header lines in order, as the upstream spelled them; hop-by-hop fields removed. */
  headers: [string, string][];
  body: Buffer;
}

/** Whether the answer carries content (RFC 9110 §6.4.1: never to HEAD, never with 204 or 304). */
export function hasBody(answer: Answer): boolean {
  return carriesContent(answer.method, answer.status);
}

/** The answer written as the upstream framed it (Content-Length, or Node's choice): false, the wire unchanged. */
export function writePlain(answer: Answer, res: ServerResponse): false {
  writeAnswer(res, answer.method, answer);
  return false;
}
