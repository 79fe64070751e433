// The curl line of every failure must replay the request exactly: rendered lines are run through
// `sh -c` against a local server that records what arrived.

import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INLINE_BODY_LIMIT, printfOctal, renderCurl, renderRawReplay, shellQuote, type CurlRequest } from "../../src/harness/curl.ts";
import { ACCEPT_ENCODING } from "../../src/harness/content-coding.ts";
import { httpServer, type Running } from "./servers.ts";

const run = promisify(execFile);

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let server: Running;
const seen: Seen[] = [];

beforeAll(async () => {
  server = await httpServer((req, res, body) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("ok");
  });
});
afterAll(() => server.close());

async function replay(request: CurlRequest, options = {}): Promise<Seen> {
  const line = renderCurl(request, options);
  seen.length = 0;
  const { stdout } = await run("sh", ["-c", line], { timeout: 10_000, maxBuffer: 64 * 1024 * 1024 });
  expect(stdout).toMatch(/^HTTP\/1\.1 200/);
  expect(seen).toHaveLength(1);
  return seen[0] as Seen;
}

describe("shellQuote", () => {
  it("keeps every character literal under sh", async () => {
    const nasty = `it's $HOME \`id\` "q" \\ ; | & * ? [a] {b,c} ~ ! # \t%`;
    const { stdout } = await run("sh", ["-c", `printf '%s' ${shellQuote(nasty)}`]);
    expect(stdout).toBe(nasty);
  });
});

describe("printfOctal", () => {
  it("prints exactly the bytes under POSIX printf", async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const { stdout } = await run("sh", ["-c", `printf ${shellQuote(printfOctal(bytes))} | od -An -v -tx1`]);
    const hex = stdout.replace(/\s+/g, "");
    expect(hex).toBe(Buffer.from(bytes).toString("hex"));
  });
});

describe("renderCurl replays", () => {
  it("a GET with a query, odd characters in the path and headers", async () => {
    const url = `${server.origin}/v1/accounts/0x1/module/it's%20[x]{y}?ledger_version=5&limit=2`;
    const got = await replay({ method: "GET", url, headers: { accept: "application/x-bcs", "x-odd": "a'b $c `d`" } });
    expect(got.method).toBe("GET");
    expect(got.url).toBe("/v1/accounts/0x1/module/it's%20[x]{y}?ledger_version=5&limit=2");
    expect(got.headers.accept).toBe("application/x-bcs");
    expect(got.headers["x-odd"]).toBe("a'b $c `d`");
  });

  it("a path with ../ and // as sent", async () => {
    const got = await replay({ method: "GET", url: `${server.origin}/v1/a/../b//c`, headers: {} });
    expect(got.url).toBe("/v1/a/../b//c");
  });

  it("a JSON body with quotes, unicode and shell metacharacters", async () => {
    const body = new TextEncoder().encode(JSON.stringify({ key: "it's $(rm -rf /) `x` \\ ü ✓", n: 1 }));
    const got = await replay({
      method: "POST",
      url: `${server.origin}/v1/tables/0x1/item`,
      headers: { "content-type": "application/json" },
      body,
    });
    expect(got.method).toBe("POST");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.body.equals(Buffer.from(body))).toBe(true);
  });

  it("a binary (BCS) body with every byte value", async () => {
    const body = Uint8Array.from({ length: 512 }, (_, i) => (i * 37) % 256);
    const line = renderCurl({
      method: "POST",
      url: `${server.origin}/v1/transactions`,
      headers: { "content-type": "application/x.node.signed_transaction+bcs" },
      body,
    });
    expect(line).toMatch(/^printf '.*' \| curl .* --data-binary @- /);
    const got = await replay({
      method: "POST",
      url: `${server.origin}/v1/transactions`,
      headers: { "content-type": "application/x.node.signed_transaction+bcs" },
      body,
    });
    expect(got.body.equals(Buffer.from(body))).toBe(true);
    expect(got.headers["content-type"]).toBe("application/x.node.signed_transaction+bcs");
  });

  it("a text body that begins with @ (which curl would read as a file name)", async () => {
    const body = new TextEncoder().encode("@/etc/passwd");
    const got = await replay({ method: "POST", url: `${server.origin}/v1/transactions`, headers: { "content-type": "text/plain" }, body });
    expect(got.body.toString()).toBe("@/etc/passwd");
  });

  it("a large body of one repeated byte, without writing a file", async () => {
    const body = new Uint8Array(INLINE_BODY_LIMIT * 4).fill(0x61);
    const line = renderCurl({ method: "POST", url: `${server.origin}/v1/transactions`, headers: {}, body });
    expect(line.length).toBeLessThan(300);
    const got = await replay({
      method: "POST",
      url: `${server.origin}/v1/transactions`,
      headers: { "content-type": "application/json" },
      body,
    });
    expect(got.body.equals(Buffer.from(body))).toBe(true);
  });

  it("a large body of one repeated byte but its last, past the first 64 KiB, is not taken for a repeated byte", async () => {
    const dir = mkdtempSync(join(tmpdir(), "curl-bodies-"));
    const body = new Uint8Array(100 * 1024 + 3).fill(0x61);
    body[body.length - 1] = 0x62;
    const line = renderCurl({ method: "POST", url: `${server.origin}/x`, headers: {}, body }, { bodiesDir: dir });
    expect(line).toMatch(/--data-binary @'[^']+\.bin'/);
    const got = await replay({ method: "POST", url: `${server.origin}/x`, headers: {}, body }, { bodiesDir: dir });
    expect(got.body.equals(Buffer.from(body))).toBe(true);
  });

  it("a large varied body through a file beside the report", async () => {
    const dir = mkdtempSync(join(tmpdir(), "curl-bodies-"));
    const body = Uint8Array.from({ length: INLINE_BODY_LIMIT + 100 }, (_, i) => (i * 7 + (i >> 8)) % 256);
    const line = renderCurl({ method: "POST", url: `${server.origin}/x`, headers: {}, body }, { bodiesDir: dir });
    const file = /--data-binary @'([^']+)'/.exec(line)?.[1];
    expect(file !== undefined && existsSync(file)).toBe(true);
    expect(readFileSync(file as string).equals(Buffer.from(body))).toBe(true);
    const got = await replay({ method: "POST", url: `${server.origin}/x`, headers: {}, body }, { bodiesDir: dir });
    expect(got.body.equals(Buffer.from(body))).toBe(true);
  });

  it("a header with an empty value", async () => {
    const got = await replay({ method: "GET", url: `${server.origin}/`, headers: { "x-empty": "" } });
    expect(got.headers["x-empty"]).toBe("");
  });

  it("leaves out headers curl computes itself", () => {
    const line = renderCurl({
      method: "GET",
      url: "http://h/",
      headers: { host: "evil", "content-length": "5", accept: "application/json" },
    });
    expect(line).not.toMatch(/host|content-length/i);
    expect(line).toContain("-H 'accept: application/json'");
  });
});

describe("renderCurl and content codings", () => {
  it("the suite's Accept-Encoding as --compressed: curl asks for gzip, deflate and br itself", async () => {
    const line = renderCurl({ method: "GET", url: `${server.origin}/`, headers: { "accept-encoding": ACCEPT_ENCODING } });
    expect(line).toContain("--compressed");
    expect(line).not.toMatch(/accept-encoding/i);
    const got = await replay({ method: "GET", url: `${server.origin}/`, headers: { "accept-encoding": ACCEPT_ENCODING } });
    for (const coding of ["gzip", "deflate", "br"]) expect(String(got.headers["accept-encoding"])).toContain(coding);
  });

  it("an Accept-Encoding of the request's own as sent, --compressed only where it asks for a coding", async () => {
    const identity = { method: "GET", url: `${server.origin}/`, headers: { "accept-encoding": "identity" } };
    expect(renderCurl(identity)).not.toContain("--compressed");
    expect((await replay(identity)).headers["accept-encoding"]).toBe("identity");
    const gzip = { method: "GET", url: `${server.origin}/`, headers: { "accept-encoding": "gzip" } };
    expect(renderCurl(gzip)).toContain("--compressed");
    expect((await replay(gzip)).headers["accept-encoding"]).toBe("gzip");
  });

  it("no Accept-Encoding, no --compressed", () => {
    expect(renderCurl({ method: "GET", url: "http://h/", headers: {} })).not.toContain("--compressed");
  });
});

describe("renderRawReplay", () => {
  it("replays raw bytes over bash /dev/tcp", async () => {
    const bytes = new TextEncoder().encode(`POST /v1/raw HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc`);
    seen.length = 0;
    const line = renderRawReplay(`${server.origin}/v1/raw`, bytes);
    const { stdout } = await run("sh", ["-c", line], { timeout: 15_000 });
    expect(stdout).toMatch(/^HTTP\/1\.1 200/);
    expect(seen[0]?.body.toString()).toBe("abc");
    expect(seen[0]?.url).toBe("/v1/raw");
  });
});
