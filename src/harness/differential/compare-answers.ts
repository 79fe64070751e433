// How two nodes' answers to one request are compared: status, the headers that must agree at one
// version, media type, then the body as the request's comparison says (compared-requests.ts). Returns
// the first difference, or undefined when the answers agree.

import type { HttpResponse } from "../http-client.ts";
import { errorCodeOf, headerValue } from "../response-facts.ts";
import { firstByteDifference, viewBcs } from "./bcs-views.ts";
import { BCS_MEDIA, type ComparedRequest } from "./compared-requests.ts";
import { firstJsonDifference, firstShapeDifference, shapeOf, type JsonDifference } from "./json-diff.ts";

const OPEN = { members: "shared" } as const;

export type DifferenceKind = "status" | "header" | "media-type" | "body";

export interface AnswerDifference {
  readonly kind: DifferenceKind;
  /** Where in the body (a JSON path) or which header. */
  readonly at?: string;
  /** Both sides in words: "200 vs 404", "\"coin\" vs \"coins\"". */
  readonly detail: string;
}

export function compareAnswers(
  request: ComparedRequest,
  a: HttpResponse,
  b: HttpResponse,
  headerPrefix: string,
): AnswerDifference | undefined {
  if (a.status !== b.status) return { kind: "status", detail: `${a.status}${codeNote(a)} vs ${b.status}${codeNote(b)}` };
  // §2.7: two nodes compared must serve the same chain. A header one node leaves out is not a
  // difference between them but the suite's own finding (2.7/required-headers-on-api-success, and
  // 2.7/required-headers-on-spec-pages: aptos-core sends none on the description pages, baselines/aptos-core.txt).
  const chainA = headerValue(a, headerPrefix, "CHAIN-ID");
  const chainB = headerValue(b, headerPrefix, "CHAIN-ID");
  if (chainA !== undefined && chainB !== undefined && chainA !== chainB)
    return { kind: "header", at: `${headerPrefix}CHAIN-ID`, detail: `${chainA ?? "(absent)"} vs ${chainB ?? "(absent)"}` };
  if (a.contentType !== b.contentType)
    return { kind: "media-type", at: "content-type", detail: `${a.contentType ?? "(none)"} vs ${b.contentType ?? "(none)"}` };
  if (a.status >= 400) {
    const codeA = errorCodeOf(a);
    const codeB = errorCodeOf(b);
    return codeA === codeB
      ? undefined
      : { kind: "body", at: "$.error_code", detail: `${JSON.stringify(codeA ?? null)} vs ${JSON.stringify(codeB ?? null)}` };
  }
  if (request.comparison === "status") return undefined;
  // A cursor is opaque (§4.5: pass it back as start), so only whether there is a next page must agree.
  const cursorA = headerValue(a, headerPrefix, "CURSOR") !== undefined;
  const cursorB = headerValue(b, headerPrefix, "CURSOR") !== undefined;
  if (request.comparison === "exact" && cursorA !== cursorB) {
    return {
      kind: "header",
      at: `${headerPrefix}CURSOR`,
      detail: `${cursorA ? "present" : "absent"} vs ${cursorB ? "present" : "absent"}`,
    };
  }
  return a.contentType === BCS_MEDIA ? compareBcs(request, a.body, b.body) : compareJson(request, a, b);
}

function compareJson(request: ComparedRequest, a: HttpResponse, b: HttpResponse): AnswerDifference | undefined {
  if (a.json === undefined || b.json === undefined) {
    if (a.json === undefined && b.json === undefined)
      return a.text === b.text || request.comparison !== "exact" ? undefined : { kind: "body", detail: "the bodies (not JSON) differ" };
    return { kind: "body", detail: `${a.json === undefined ? "not JSON" : "JSON"} vs ${b.json === undefined ? "not JSON" : "JSON"}` };
  }
  // A member one node sends and the other does not is no difference of shape: objects are open (schemas/openapi.yaml, "Objects").
  const d =
    request.comparison === "exact"
      ? firstJsonDifference(a.json, b.json)
      : firstShapeDifference(shapeOf(a.json), shapeOf(b.json), "$", OPEN);
  return d === undefined ? undefined : bodyDifference(d, request.comparison === "shape" ? " (member types)" : "");
}

function compareBcs(request: ComparedRequest, a: Uint8Array, b: Uint8Array): AnswerDifference | undefined {
  const va = viewBcs(request.operation, a);
  const vb = viewBcs(request.operation, b);
  if (request.comparison === "shape") {
    // The values move; the layout must not: both decode, to the same members.
    if (va.decoded !== vb.decoded)
      return { kind: "body", detail: `${va.decoded ? "decodes" : va.reason} vs ${vb.decoded ? "decodes" : vb.reason}` };
    if (!va.decoded || !vb.decoded) return undefined;
    const d = firstShapeDifference(shapeOf(va.value), shapeOf(vb.value), "$", OPEN);
    return d === undefined ? undefined : bodyDifference(d, " (BCS, member types)");
  }
  const offset = firstByteDifference(a, b);
  if (offset === undefined) return undefined;
  if (va.decoded && vb.decoded) {
    const d = firstJsonDifference(va.value, vb.value);
    if (d !== undefined) return bodyDifference(d, " (BCS, decoded)");
  }
  return {
    kind: "body",
    at: `byte ${offset}`,
    detail: `BCS bodies differ from byte ${offset} (${a.length} vs ${b.length} bytes)${va.decoded ? "" : `; ${va.reason}`}`,
  };
}

function bodyDifference(d: JsonDifference, note: string): AnswerDifference {
  return { kind: "body", at: d.path, detail: `${d.a} vs ${d.b}${note}` };
}

function codeNote(res: HttpResponse): string {
  const code = errorCodeOf(res);
  return code === undefined ? "" : ` (${code})`;
}
