// Raw exchanges: parsing whatever came back, as far as it arrived, and the three ways of ending.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRawRequest, parseHttpAnswer, rawExchange } from "../../src/harness/raw-exchange.ts";
import { freePort, httpServer, silentServer, type Running } from "./servers.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("parseHttpAnswer", () => {
  it("reads a Content-Length body, complete or not", () => {
    const full = parseHttpAnswer(bytes("HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"));
    expect(full).toMatchObject({ status: 413, complete: true, headers: { "content-type": "application/json" } });
    expect(Buffer.from(full!.body).toString()).toBe("{}");
    expect(parseHttpAnswer(bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab"))?.complete).toBe(false);
  });

  it("reads a chunked body", () => {
    const a = parseHttpAnswer(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"));
    expect(a?.complete).toBe(true);
    expect(Buffer.from(a!.body).toString()).toBe("abcde");
    expect(parseHttpAnswer(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab"))?.complete).toBe(false);
  });

  it("returns nothing before the header block is complete, or for a non-HTTP answer", () => {
    expect(parseHttpAnswer(bytes("HTTP/1.1 200 OK\r\nContent-"))).toBeUndefined();
    expect(parseHttpAnswer(bytes("SSH-2.0-OpenSSH\r\n\r\n"))).toBeUndefined();
  });

  it("joins repeated headers", () => {
    expect(parseHttpAnswer(bytes("HTTP/1.1 204 No Content\r\nX-A: 1\r\nx-a: 2\r\n\r\n"))?.headers["x-a"]).toBe("1, 2");
  });
});

describe("rawExchange", () => {
  let server: Running;
  beforeAll(async () => {
    server = await httpServer((req, res, body) => {
      res.writeHead(200, { "content-type": "text/plain", connection: "close" });
      res.end(`${req.method} ${body.length}`);
    });
  });
  afterAll(() => server.close());

  it("reads an answer to a well-formed request (keep-open)", async () => {
    const r = await rawExchange({
      url: `${server.origin}/v1/x`,
      bytes: buildRawRequest({ method: "POST", url: `${server.origin}/v1/x`, body: bytes("hello") }),
      ending: "keep-open",
      timeoutMs: 2_000,
      maxResponseBytes: 10_000,
    });
    expect(r.end).toBe("answered");
    expect(Buffer.from(r.answer!.body).toString()).toBe("POST 5");
  });

  it("half-closes after a body shorter than its Content-Length and reads what the server does", async () => {
    const r = await rawExchange({
      url: `${server.origin}/v1/x`,
      bytes: buildRawRequest({ method: "POST", url: `${server.origin}/v1/x`, body: bytes("abc"), contentLength: 100 }),
      ending: "half-close",
      timeoutMs: 2_000,
      maxResponseBytes: 10_000,
    });
    // Node's server answers 400 to a truncated request, or just closes: either way the exchange ends, quickly.
    expect(["server-closed", "answered"]).toContain(r.end);
    expect(r.durationMs).toBeLessThan(2_000);
    if (r.answer) expect(r.answer.status).toBe(400);
  });

  it("aborts right after writing", async () => {
    const r = await rawExchange({
      url: `${server.origin}/`,
      bytes: bytes("GET / HTTP/1.1\r\n"),
      ending: "abort",
      timeoutMs: 2_000,
      maxResponseBytes: 10,
    });
    expect(r.end).toBe("aborted");
    expect(r.answer).toBeUndefined();
  });

  it("ends by its timeout against a server that never answers", async () => {
    const silent = await silentServer();
    try {
      const started = Date.now();
      const r = await rawExchange({
        url: `${silent.origin}/`,
        bytes: bytes("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
        ending: "keep-open",
        timeoutMs: 300,
        maxResponseBytes: 10,
      });
      expect(r.end).toBe("timeout");
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      await silent.close();
    }
  });

  it("reports a refused connection", async () => {
    const port = await freePort();
    const r = await rawExchange({
      url: `http://127.0.0.1:${port}/`,
      bytes: bytes("x"),
      ending: "keep-open",
      timeoutMs: 1_000,
      maxResponseBytes: 10,
    });
    expect(r.end).toBe("connect-failed");
    expect(r.error).toMatch(/ECONNREFUSED/);
  });
});
