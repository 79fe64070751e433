// Every request the suite makes can be replayed from a shell: this renders it as one line that runs
// under plain sh on Linux (curl, printf, head, tr; nothing else). Bodies that are printable text go
// inline; other bodies go through printf with octal escapes (POSIX); a large body made of one repeated
// byte is generated with head and tr; any other large body is written beside the report and read back
// with @file.

import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ACCEPT_ENCODING, codingAsked } from "./content-coding.ts";

export interface CurlRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
}

export interface CurlOptions {
  /** Where bodies too large to inline are written; without it such bodies are elided (and said so). */
  readonly bodiesDir?: string;
}

/** Bodies up to this many bytes are written into the line itself. */
export const INLINE_BODY_LIMIT = 16 * 1024;

/** POSIX shell single quoting: the result is one word whatever `s` holds. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function renderCurl(request: CurlRequest, options: CurlOptions = {}): string {
  const method = request.method.toUpperCase();
  // -g: no globbing of [] {} in the URL; --path-as-is: keep ../ and // as sent.
  const args = ["curl", "-sS", "-i", "-g", "--path-as-is"];
  args.push(method === "HEAD" ? "-I" : `-X ${shellQuote(method)}`);
  let compressed = false;
  for (const [name, value] of Object.entries(request.headers)) {
    if (/^(host|content-length|connection|transfer-encoding)$/i.test(name)) continue;
    if (/^accept-encoding$/i.test(name)) {
      // curl --compressed asks for the codings it decodes and decodes the answer, as the suite does;
      // an Accept-Encoding of the request's own is sent as it was, decoded where it asks for a coding.
      compressed = ["gzip", "deflate", "br"].some((c) => codingAsked(value, c));
      if (value === ACCEPT_ENCODING) continue;
    }
    // curl sends a header with an empty value only in the "name;" form.
    args.push(`-H ${shellQuote(value === "" ? `${name};` : `${name}: ${value}`)}`);
  }
  if (compressed) args.push("--compressed");
  const body = request.body;
  let prefix = "";
  if (body !== undefined && body.length > 0) {
    const source = bodySource(body, options);
    if (source.kind === "inline") args.push(`--data-binary ${shellQuote(source.text)}`);
    else if (source.kind === "file") args.push(`--data-binary @${shellQuote(source.path)}`);
    else {
      prefix = `${source.command} | `;
      args.push("--data-binary @-");
    }
  }
  args.push(shellQuote(request.url));
  return prefix + args.join(" ");
}

type BodySource = { kind: "inline"; text: string } | { kind: "stdin"; command: string } | { kind: "file"; path: string };

function bodySource(body: Uint8Array, options: CurlOptions): BodySource {
  if (body.length <= INLINE_BODY_LIMIT) {
    const text = printableText(body);
    // A leading @ would make curl read a file; such text goes through printf instead.
    if (text !== undefined && !text.startsWith("@")) return { kind: "inline", text };
    return { kind: "stdin", command: `printf ${shellQuote(printfOctal(body))}` };
  }
  const first = body[0] as number;
  if (allBytesAre(body, first)) {
    const fill = first === 0 ? "" : ` | tr '\\000' '\\${first.toString(8).padStart(3, "0")}'`;
    return { kind: "stdin", command: `head -c ${body.length} /dev/zero${fill}` };
  }
  if (options.bodiesDir !== undefined) {
    mkdirSync(options.bodiesDir, { recursive: true });
    const path = join(options.bodiesDir, `${createHash("sha256").update(body).digest("hex").slice(0, 16)}.bin`);
    writeFileSync(path, body);
    return { kind: "file", path };
  }
  const head = Buffer.from(body.subarray(0, 32)).toString("hex");
  return {
    kind: "stdin",
    command: `echo ${shellQuote(`body of ${body.length} bytes not reproduced (starts 0x${head}); run with --report-dir to keep it`)} >&2; false`,
  };
}

/** Whether every byte is `value`: compared a block at a time, as a 9 MiB body takes ~100 ms byte by byte. */
function allBytesAre(body: Uint8Array, value: number): boolean {
  const block = Buffer.alloc(Math.min(body.length, 64 * 1024), value);
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  for (let at = 0; at < bytes.length; at += block.length) {
    const part = bytes.subarray(at, at + block.length);
    if (!part.equals(block.subarray(0, part.length))) return false;
  }
  return true;
}

/** The text, if the bytes are UTF-8 with no control characters (so the line stays one line). */
function printableText(body: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
  return /[\u0000-\u001f\u007f]/.test(text) ? undefined : text;
}

/** A printf format that prints exactly these bytes: plain ASCII letters and digits as is, the rest as \ooo. */
export function printfOctal(body: Uint8Array): string {
  let out = "";
  for (const b of body) {
    const plain = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
    out += plain ? String.fromCharCode(b) : `\\${b.toString(8).padStart(3, "0")}`;
  }
  return out;
}

/**
 * A raw exchange (bytes written to a TCP socket) as a bash line: /dev/tcp for http, openssl s_client
 * for https. It prints what the server answers until it closes (at most 10 s).
 */
export function renderRawReplay(url: string, bytes: Uint8Array): string {
  const u = new URL(url);
  const tls = u.protocol === "https:";
  const port = u.port || (tls ? "443" : "80");
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const data = `printf ${shellQuote(printfOctal(bytes))}`;
  if (tls) return `${data} | openssl s_client -quiet -connect ${shellQuote(`${host}:${port}`)} -servername ${shellQuote(host)}`;
  const script = `exec 3<>/dev/tcp/${host}/${port}; ${data} >&3; timeout 10 cat <&3`;
  return `bash -c ${shellQuote(script)}`;
}
