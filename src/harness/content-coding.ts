// Content codings as mainstream clients send and read them. The suite asks for gzip, deflate and br
// (ACCEPT_ENCODING, as browsers and the SDKs' HTTP clients do) and reads an answer's body after
// undoing its Content-Encoding, the codings in reverse order of application (RFC 9110 §8.4: "gzip, br"
// is gzip, then br). "deflate" is the zlib format (RFC 9110 §8.4.1.2), but browsers also accept raw
// deflate, so both are read. A coding the request did not list is still read when it can be (RFC 9110
// §12.5.3: a server SHOULD NOT send one, a client reads what it can).
//
// The decoded size is bounded like every body: zlib stops at maxOutputLength and throws, so a
// decompression bomb (a small coded body that inflates past the cap) is found without inflating it
// all into memory.

import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from "node:zlib";

/** What the suite sends as Accept-Encoding when a request does not set its own. */
export const ACCEPT_ENCODING = "gzip, deflate, br";

/** The codings the suite decodes (x-gzip is gzip: RFC 9110 §8.4.1.3). */
const DECODABLE = new Set(["gzip", "x-gzip", "deflate", "br"]);

/** A coding's name as a report shows it: lower case, bounded, anything but visible ASCII as "?" (it comes from the target). */
export function codingName(coding: string): string {
  const name = coding
    .trim()
    .toLowerCase()
    .replace(/[^\x21-\x7e]/g, "?");
  return name.length > 40 ? `${name.slice(0, 40)}…` : name;
}

/** The codings of a Content-Encoding value in the order they were applied; identity and empty members dropped. */
export function codingsOf(contentEncoding: string | undefined): string[] {
  if (contentEncoding === undefined) return [];
  return contentEncoding
    .split(",")
    .map(codingName)
    .filter((c) => c !== "" && c !== "identity");
}

/**
 * Whether `accept` (an Accept-Encoding value, RFC 9110 §12.5.3) lists `coding` with a non-zero
 * weight, or allows it by "*". An absent header asks for no coding in particular: false.
 */
export function codingAsked(accept: string | undefined, coding: string): boolean {
  if (accept === undefined) return false;
  const wanted = coding === "x-gzip" ? "gzip" : coding;
  let star: boolean | undefined;
  for (const member of accept.split(",")) {
    const [name = "", ...params] = member.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    const n = name === "x-gzip" ? "gzip" : name;
    if (n === wanted) return allowed;
    if (n === "*") star = allowed;
  }
  return star ?? false;
}

export type Decoded =
  | { readonly ok: true; readonly body: Uint8Array; readonly codings: readonly string[] }
  /** A coding the suite cannot decode: the body cannot be read, which says nothing about its content. */
  | { readonly ok: false; readonly kind: "unknown"; readonly codings: readonly string[]; readonly message: string }
  /** The decoded body would pass the cap (a decompression bomb, or just too large). */
  | { readonly ok: false; readonly kind: "too_large"; readonly codings: readonly string[]; readonly message: string }
  /** The coded bytes are not a whole stream of their coding (truncated, corrupt). */
  | { readonly ok: false; readonly kind: "corrupt"; readonly codings: readonly string[]; readonly message: string };

/**
 * The body as a client reads it: `raw` with the codings of `contentEncoding` undone, at most
 * `maxBytes` bytes after each step. An empty body is empty whatever the header says (a HEAD answer,
 * a 204 or 304 may carry the header of the representation).
 */
export function decodeBody(raw: Uint8Array, contentEncoding: string | undefined, maxBytes: number): Decoded {
  const codings = codingsOf(contentEncoding);
  if (codings.length === 0 || raw.length === 0) return { ok: true, body: raw, codings };
  const unknown = codings.find((c) => !DECODABLE.has(c));
  if (unknown !== undefined) {
    return { ok: false, kind: "unknown", codings, message: `the body is coded ${JSON.stringify(unknown)}, which the suite cannot decode` };
  }
  let body = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  for (const coding of [...codings].reverse()) {
    try {
      body = decodeOne(body, coding, maxBytes);
    } catch (e) {
      const err = e as { code?: string; message?: string };
      if (err.code === "ERR_BUFFER_TOO_LARGE") {
        return {
          ok: false,
          kind: "too_large",
          codings,
          message: `decoded body over ${maxBytes} bytes (Content-Encoding: ${codings.join(", ")})`,
        };
      }
      return {
        ok: false,
        kind: "corrupt",
        codings,
        message: `the body is not a whole ${coding} stream (${err.message ?? String(e)}; Content-Encoding: ${codings.join(", ")})`,
      };
    }
  }
  return { ok: true, body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), codings };
}

function decodeOne(coded: Buffer, coding: string, maxBytes: number): Buffer {
  const limit = { maxOutputLength: Math.max(1, maxBytes) };
  if (coding === "br") return brotliDecompressSync(coded, limit);
  if (coding === "gzip" || coding === "x-gzip") return gunzipSync(coded, limit);
  // deflate: the zlib format (RFC 1950) by the RFC; raw deflate (RFC 1951) as browsers also accept.
  // A zlib stream starts with a header whose 16-bit value is a multiple of 31 and whose method is 8.
  const zlibWrapped = coded.length >= 2 && (coded[0]! & 0x0f) === 8 && ((coded[0]! << 8) | coded[1]!) % 31 === 0;
  return zlibWrapped ? inflateSync(coded, limit) : inflateRawSync(coded, limit);
}
