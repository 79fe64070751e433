// One format for every failure the suite reports: the requirement, what was expected, what came back
// (status, the relevant headers, the body cut to a readable length; binary bodies as hex), and the
// request as a replayable curl line.

import type { HttpResponse, RequestFailure } from "./http-client.ts";
import type { Failure } from "./results.ts";

export const BODY_CUT = 500;

export interface FailureInput {
  readonly requirement: string;
  /** What should have held, as a sentence or a value. */
  readonly expected: string;
  /** What was found instead, when more precise than the response itself (e.g. a schema error list). */
  readonly found?: string;
  readonly response?: HttpResponse;
  readonly requestFailure?: RequestFailure;
  /** The curl line when neither a response nor a request failure carries one. */
  readonly curl?: string;
  /** Header names (lower case) to show besides content-type and the ledger headers. */
  readonly headerPrefix?: string;
  readonly extraHeaders?: readonly string[];
}

export function formatFailure(input: FailureInput): Failure {
  const curl = input.response?.curl ?? input.requestFailure?.curl ?? input.curl ?? null;
  const lines = [`[${input.requirement}] expected: ${input.expected}`];
  if (input.found !== undefined) lines.push(`  found:    ${input.found}`);
  if (input.response) {
    const r = input.response;
    lines.push(`  actual:   HTTP ${r.status}`);
    const headers = relevantHeaders(r.headers, input.headerPrefix, input.extraHeaders);
    if (headers) lines.push(`  headers:  ${headers}`);
    lines.push(`  body:     ${renderBody(r.body, r.contentType)}`);
  } else if (input.requestFailure) {
    lines.push(`  actual:   no HTTP answer: ${input.requestFailure.message}`);
  }
  if (curl !== null) lines.push(`  replay:   ${curl}`);
  return { message: lines.join("\n"), curl };
}

function relevantHeaders(headers: Readonly<Record<string, string>>, prefix?: string, extra: readonly string[] = []): string {
  const lowerPrefix = prefix?.toLowerCase();
  return Object.entries(headers)
    .filter(([name]) => name === "content-type" || extra.includes(name) || (lowerPrefix !== undefined && name.startsWith(lowerPrefix)))
    .map(([name, value]) => `${name}: ${value}`)
    .join("; ");
}

/** JSON and text cut to BODY_CUT characters; anything else as 0x-hex cut the same way. */
export function renderBody(body: Uint8Array, contentType: string | undefined): string {
  if (body.length === 0) return "(empty)";
  const textual =
    contentType !== undefined &&
    (contentType.startsWith("text/") || contentType.endsWith("json") || contentType.endsWith("yaml") || contentType.endsWith("xml"));
  let rendered: string;
  if (textual || (contentType === undefined && isUtf8(body))) {
    rendered = Buffer.from(body).toString("utf8");
  } else {
    rendered = `0x${Buffer.from(body.subarray(0, BODY_CUT)).toString("hex")}`;
  }
  return rendered.length > BODY_CUT ? `${rendered.slice(0, BODY_CUT)}… (${body.length} bytes in all)` : rendered;
}

function isUtf8(body: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}
