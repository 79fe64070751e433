// Content codings: the decoder (each coding, stacked, unknown, truncated, a decompression bomb) and
// the client that asks for them and reads what comes back, bounded as every body is.

import { once } from "node:events";
import { brotliCompressSync, createGzip, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { ACCEPT_ENCODING, codingAsked, codingsOf, decodeBody } from "../../src/harness/content-coding.ts";
import { HttpClient, RequestFailure } from "../../src/harness/http-client.ts";
import { httpServer, type Running } from "./servers.ts";

const TEXT = Buffer.from(JSON.stringify({ chain_id: 4, ledger_version: "123", note: "é".repeat(500) }));
const MiB = 1024 * 1024;

/** gzip of `mib` MiB of zeros, made a MiB at a time (never the whole in memory): about 1 KiB per MiB. */
async function gzipBomb(mib: number): Promise<Buffer> {
  const gzip = createGzip();
  const out: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => out.push(chunk));
  const zeros = Buffer.alloc(MiB);
  for (let i = 0; i < mib; i++) if (!gzip.write(zeros)) await once(gzip, "drain");
  gzip.end();
  await once(gzip, "end");
  return Buffer.concat(out);
}

describe("decodeBody", () => {
  it("reads identity, gzip, x-gzip, deflate (zlib-wrapped and raw) and br", () => {
    const cases: [string | undefined, Buffer][] = [
      [undefined, TEXT],
      ["identity", TEXT],
      ["gzip", gzipSync(TEXT)],
      ["X-GZIP", gzipSync(TEXT)],
      ["deflate", deflateSync(TEXT)],
      ["deflate", deflateRawSync(TEXT)],
      ["br", brotliCompressSync(TEXT)],
    ];
    for (const [coding, coded] of cases) {
      const decoded = decodeBody(coded, coding, MiB);
      expect(decoded.ok, String(coding)).toBe(true);
      if (decoded.ok) expect(Buffer.from(decoded.body).equals(TEXT), String(coding)).toBe(true);
    }
  });

  it("undoes stacked codings in reverse order of application", () => {
    const decoded = decodeBody(brotliCompressSync(gzipSync(TEXT)), "gzip, br", MiB);
    expect(decoded).toMatchObject({ ok: true, codings: ["gzip", "br"] });
    if (decoded.ok) expect(Buffer.from(decoded.body).equals(TEXT)).toBe(true);
  });

  it("an empty body is empty whatever the header says (a HEAD answer, a 204)", () => {
    expect(decodeBody(new Uint8Array(), "gzip", MiB)).toMatchObject({ ok: true });
  });

  it("a coding it cannot decode is unknown, named, not corrupt", () => {
    const decoded = decodeBody(TEXT, "zstd", MiB);
    expect(decoded).toMatchObject({ ok: false, kind: "unknown", codings: ["zstd"] });
    if (!decoded.ok) expect(decoded.message).toContain('"zstd"');
    expect(decodeBody(gzipSync(TEXT), "gzip, compress", MiB)).toMatchObject({ ok: false, kind: "unknown" });
  });

  it("a truncated or corrupt stream is corrupt", () => {
    const gz = gzipSync(TEXT);
    expect(decodeBody(gz.subarray(0, gz.length - 10), "gzip", MiB)).toMatchObject({ ok: false, kind: "corrupt" });
    expect(decodeBody(TEXT, "gzip", MiB)).toMatchObject({ ok: false, kind: "corrupt" });
    expect(decodeBody(TEXT, "br", MiB)).toMatchObject({ ok: false, kind: "corrupt" });
  });

  it("a body decoded past the cap is too large, by each coding", () => {
    const big = Buffer.alloc(2 * MiB, 0x61);
    for (const [coding, coded] of [
      ["gzip", gzipSync(big)],
      ["deflate", deflateSync(big)],
      ["br", brotliCompressSync(big)],
    ] as const) {
      const decoded = decodeBody(coded, coding, MiB);
      expect(decoded, coding).toMatchObject({ ok: false, kind: "too_large" });
      if (!decoded.ok) expect(decoded.message).toContain(`decoded body over ${MiB} bytes`);
    }
  });

  it("a decompression bomb (64 MiB of zeros in ~64 KiB of gzip) fails without being inflated into memory", async () => {
    const bomb = await gzipBomb(64);
    expect(bomb.length).toBeLessThan(128 * 1024);
    globalThis.gc?.();
    const before = process.memoryUsage();
    const decoded = decodeBody(bomb, "gzip", MiB);
    const after = process.memoryUsage();
    expect(decoded).toMatchObject({ ok: false, kind: "too_large" });
    if (!decoded.ok) expect(decoded.message).toBe(`decoded body over ${MiB} bytes (Content-Encoding: gzip)`);
    // Inflated whole, 64 MiB would be held at once; zlib stops at the cap.
    expect(after.rss - before.rss).toBeLessThan(32 * MiB);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(32 * MiB);
  });
});

describe("codingAsked and codingsOf", () => {
  it("reads Accept-Encoding by RFC 9110 §12.5.3: listed with a non-zero weight, or by *", () => {
    expect(codingAsked(ACCEPT_ENCODING, "gzip")).toBe(true);
    expect(codingAsked(ACCEPT_ENCODING, "br")).toBe(true);
    expect(codingAsked(ACCEPT_ENCODING, "zstd")).toBe(false);
    expect(codingAsked("gzip;q=0, *", "gzip")).toBe(false);
    expect(codingAsked("identity, *;q=0.5", "br")).toBe(true);
    expect(codingAsked("x-gzip", "gzip")).toBe(true);
    expect(codingAsked(undefined, "gzip")).toBe(false);
    expect(codingAsked("identity", "gzip")).toBe(false);
  });

  it("lists codings in the order applied, identity left out", () => {
    expect(codingsOf(" GZIP ,identity, br")).toEqual(["gzip", "br"]);
    expect(codingsOf(undefined)).toEqual([]);
  });
});

describe("HttpClient and content codings", () => {
  const servers: Running[] = [];
  const clients: HttpClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.destroy()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function serve(coding: string, coded: Buffer): Promise<{ origin: string; asked: () => string | undefined }> {
    let asked: string | undefined;
    const s = await httpServer((req, res) => {
      asked = req.headers["accept-encoding"];
      res.writeHead(200, { "content-type": "application/json", "content-encoding": coding, "content-length": coded.length });
      res.end(coded);
    });
    servers.push(s);
    return { origin: s.origin, asked: () => asked };
  }

  function client(maxResponseBytes = MiB): HttpClient {
    const c = new HttpClient({ timeoutMs: 2_000, maxResponseBytes });
    clients.push(c);
    return c;
  }

  it("asks for gzip, deflate and br, and reads the decoded body, its codings noted and its curl line --compressed", async () => {
    const s = await serve("gzip, br", brotliCompressSync(gzipSync(TEXT)));
    const res = await client().send({ method: "GET", url: `${s.origin}/v1`, headers: {} });
    expect(s.asked()).toBe(ACCEPT_ENCODING);
    expect(res.json).toMatchObject({ chain_id: 4 });
    expect(res.codings).toEqual(["gzip", "br"]);
    expect(res.curl).toContain("--compressed");
  });

  it("sends a request's own Accept-Encoding as it is, and still reads a coding it did not ask for", async () => {
    const s = await serve("gzip", gzipSync(TEXT));
    const res = await client().send({ method: "GET", url: `${s.origin}/v1`, headers: { "Accept-Encoding": "identity" } });
    expect(s.asked()).toBe("identity");
    expect(res.json).toMatchObject({ ledger_version: "123" });
    expect(res.curl).not.toContain("--compressed");
  });

  it("an unknown coding is no answer to read: undecodable, counted as no evidence", async () => {
    const s = await serve("zstd", TEXT);
    const failed = await client()
      .send({ method: "GET", url: `${s.origin}/v1`, headers: {} })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(failed).toBeInstanceOf(RequestFailure);
    expect(failed).toMatchObject({ kind: "undecodable", isConnectionFault: true });
  });

  it("a decompression bomb is too large, with the decoded cap in the message", async () => {
    const s = await serve("gzip", await gzipBomb(64));
    const failed = await client(8 * MiB)
      .send({ method: "GET", url: `${s.origin}/v1`, headers: {} })
      .then(
        () => undefined,
        (e: unknown) => e as RequestFailure,
      );
    expect(failed).toMatchObject({ kind: "too_large", isConnectionFault: false });
    expect(failed?.message).toContain(`decoded body over ${8 * MiB} bytes`);
  });

  it("a truncated coded body is a malformed answer", async () => {
    const gz = gzipSync(TEXT);
    const s = await serve("gzip", gz.subarray(0, gz.length - 8));
    const failed = await client()
      .send({ method: "GET", url: `${s.origin}/v1`, headers: {} })
      .then(
        () => undefined,
        (e: unknown) => e as RequestFailure,
      );
    expect(failed).toMatchObject({ kind: "malformed" });
    expect(failed?.message).toContain("not a whole gzip stream");
  });
});
