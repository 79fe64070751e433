// The HTTP client against real local servers: every phase has a timeout, the response size is capped,
// connection faults are retried within bounds (submissions only when unsent), requests and retries are
// counted and recorded, connections are kept alive, the rate limit spaces requests.

import { afterEach, describe, expect, it } from "vitest";
import { backoffMs, DEFAULT_RETRY, HttpClient, RequestFailure, responseFromParts, shouldRetry } from "../../src/harness/http-client.ts";
import { parseHttpAnswer } from "../../src/harness/raw-exchange.ts";
import { freePort, garbageServer, httpServer, resettingServer, silentServer, type Running } from "./servers.ts";

const servers: Running[] = [];
const clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.destroy()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function client(options: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient {
  const c = new HttpClient({ timeoutMs: 300, maxResponseBytes: 1024, ...options });
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<RequestFailure> {
  try {
    await p;
  } catch (e) {
    if (e instanceof RequestFailure) return e;
    throw e;
  }
  throw new Error("expected a RequestFailure");
}

describe("HttpClient", () => {
  it("asks again after a 429, and fails a request refused on every attempt as rate-limited, a connection fault", async () => {
    const seen = new Map<string, number>();
    const s = await httpServer((req, res) => {
      const n = (seen.get(req.url ?? "") ?? 0) + 1;
      seen.set(req.url ?? "", n);
      if (req.url === "/v1/always" || n === 1) {
        res.writeHead(429, { "retry-after": "0" });
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
    servers.push(s);
    const c = client({ retry: { attempts: 3, baseDelayMs: 1, declinedAttempts: 3 } });
    const res = await c.send({ method: "POST", url: `${s.origin}/v1/once`, headers: {} }, "unsent");
    expect(res.status).toBe(200);
    expect(res.record.retries).toBe(1);
    const f = await failure(c.send({ method: "GET", url: `${s.origin}/v1/always`, headers: {} }));
    expect(f.kind).toBe("rate_limited");
    expect(f.isConnectionFault).toBe(true);
    expect(f.message).toMatch(/429 Too Many Requests 3 times/);
    expect(seen.get("/v1/always")).toBe(3);
  });

  it("sends a request answered 503 again, a submission with the same bytes, and fails one shed on every attempt as shed; a 503 asked about is the answer", async () => {
    const seen = new Map<string, number>();
    const bodies: string[] = [];
    const s = await httpServer((req, res, received) => {
      const n = (seen.get(req.url ?? "") ?? 0) + 1;
      seen.set(req.url ?? "", n);
      if (req.method === "POST") bodies.push(received.toString("utf8"));
      if (req.url !== "/v1/once" || n === 1) {
        res.writeHead(503, { "retry-after": "0", "content-type": "application/json" });
        res.end('{"message":"busy","error_code":"internal_error"}');
        return;
      }
      res.writeHead(202, { "content-type": "application/json" });
      res.end("{}");
    });
    servers.push(s);
    const declined: string[] = [];
    const c = client({ retry: { attempts: 3, baseDelayMs: 1, declinedAttempts: 4 } });
    const body = new TextEncoder().encode("signed");
    const res = await c.send({ method: "POST", url: `${s.origin}/v1/once`, headers: {}, body }, "unsent", {
      onDeclined: (kind) => declined.push(kind),
    });
    expect(res.status).toBe(202);
    expect(bodies).toEqual(["signed", "signed"]);
    expect(declined).toEqual(["shed"]);
    const f = await failure(c.send({ method: "GET", url: `${s.origin}/v1/always`, headers: {} }));
    expect(f.kind).toBe("shed");
    expect(f.isConnectionFault).toBe(true);
    expect(f.message).toMatch(/the node shed the request: 503 Service Unavailable 4 times/);
    expect(seen.get("/v1/always")).toBe(4);
    const judged = await c.send({ method: "GET", url: `${s.origin}/v1/judged`, headers: {} }, "any-fault", { shedIsAnswer: true });
    expect(judged.status).toBe(503);
    expect(seen.get("/v1/judged")).toBe(1);
  });

  it("keeps at most maxInFlight requests in flight, one by one by default", async () => {
    let open = 0;
    let most = 0;
    const s = await httpServer((_req, res) => {
      open += 1;
      most = Math.max(most, open);
      setTimeout(() => {
        open -= 1;
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      }, 20);
    });
    servers.push(s);
    const sendEight = async (c: HttpClient) => {
      most = 0;
      await Promise.all(Array.from({ length: 8 }, () => c.send({ method: "GET", url: `${s.origin}/v1/x`, headers: {} })));
      return most;
    };
    expect(await sendEight(client({ maxInFlight: 3 }))).toBe(3);
    expect(await sendEight(client())).toBe(1);
  });

  it("reads status, headers, media type and JSON, and records the request with its curl line", async () => {
    const s = await httpServer((_req, res) => {
      res.writeHead(201, { "content-type": "application/json; charset=utf-8", "x-node-chain-id": "4" });
      res.end('{"a":1}');
    });
    servers.push(s);
    const c = client();
    const res = await c.send({
      method: "POST",
      url: `${s.origin}/v1/x`,
      headers: { "content-type": "application/json" },
      body: new TextEncoder().encode("{}"),
    });
    expect(res.status).toBe(201);
    expect(res.contentType).toBe("application/json");
    expect(res.headers["x-node-chain-id"]).toBe("4");
    expect(res.json).toEqual({ a: 1 });
    // The body owns its bytes: not a view into a pool that later answers reuse.
    expect([res.body.byteOffset, res.body.buffer.byteLength]).toEqual([0, res.body.length]);
    expect(res.record).toMatchObject({ method: "POST", url: `${s.origin}/v1/x`, status: 201 });
    expect(res.curl).toContain("--data-binary '{}'");
    expect(c.requestCount).toBe(1);
  });

  it("sends the method, the path with its query, the headers and the body as given", async () => {
    let seen: { method?: string; url?: string; type?: string; body?: string } = {};
    const s = await httpServer((req, res, body) => {
      seen = { method: req.method, url: req.url, type: req.headers["content-type"], body: body.toString("utf8") };
      res.writeHead(202, { "content-type": "application/json" });
      res.end("{}");
    });
    servers.push(s);
    // The body is a view into a larger buffer: only the view's bytes go.
    const bytes = new TextEncoder().encode('xx{"sender":"0x1"}yy').subarray(2, 18);
    const res = await client().send({
      method: "POST",
      url: `${s.origin}/v1/transactions?limit=2&start=0x1`,
      headers: { "content-type": "application/json" },
      body: bytes,
    });
    expect(res.status).toBe(202);
    expect(seen).toEqual({ method: "POST", url: "/v1/transactions?limit=2&start=0x1", type: "application/json", body: '{"sender":"0x1"}' });
  });

  it("reads header values without the whitespace around them, and keeps the whitespace within", async () => {
    // From a bare socket, as a proxy may send them: Node's http server would not write these values as they are.
    const wire = [
      "HTTP/1.1 200 OK",
      "Content-Type: application/json \t",
      "X-NODE-LEDGER-VERSION: 2113 \t",
      "X-NODE-EPOCH:\t \t7",
      "X-Inner: \ta \t b\t ",
      "X-Not-Ows: 5\xa0",
      "X-Twice: 1 \t",
      "X-Twice:  2",
      "Content-Length: 2",
      "",
      "{}",
    ].join("\r\n");
    const s = await garbageServer(Buffer.from(wire, "latin1"));
    servers.push(s);
    const res = await client().send({ method: "GET", url: `${s.origin}/v1`, headers: {} });
    expect(res.headers).toMatchObject({
      "content-type": "application/json",
      "x-node-ledger-version": "2113",
      "x-node-epoch": "7",
      "x-inner": "a \t b",
      // OWS is SP and HTAB only (RFC 9110 §5.6.3): anything else is the node's own value.
      "x-not-ows": "5\xa0",
      "x-twice": "1, 2",
    });
    expect(res.json).toEqual({});
    // A raw exchange's answer and a recorded one enter the same way.
    const raw = parseHttpAnswer(Buffer.from(wire, "latin1"));
    expect(raw?.headers).toMatchObject({ "x-node-ledger-version": "2113", "x-inner": "a \t b", "x-not-ows": "5\xa0", "x-twice": "1, 2" });
    const recorded = responseFromParts({
      request: res.request,
      status: 200,
      headers: { "x-node-ledger-version": " \t2113 \t", "x-inner": "a \t b" },
      body: new Uint8Array(),
      durationMs: 0,
      curl: "",
    });
    expect(recorded.headers).toEqual({ "x-node-ledger-version": "2113", "x-inner": "a \t b" });
  });

  it("passes over an informational 1xx answer to the final one", async () => {
    const s = await garbageServer(
      new TextEncoder().encode(
        'HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}',
      ),
    );
    servers.push(s);
    const res = await client().send({ method: "GET", url: `${s.origin}/v1`, headers: {} });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ a: 1 });
  });

  it("abandons a request in flight when the run is stopped, as cancelled: a connection fault, not an answer", async () => {
    const s = await silentServer();
    servers.push(s);
    const c = client({ timeoutMs: 10_000 });
    const stop = new AbortController();
    c.cancelOn(stop.signal);
    const started = Date.now();
    setTimeout(() => stop.abort("max duration reached"), 100);
    const f = await failure(c.send({ method: "GET", url: `${s.origin}/v1`, headers: {} }));
    expect(f.kind).toBe("cancelled");
    expect(f.isConnectionFault).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(c.retryCount).toBe(0);
  });

  it("keeps many requests in flight under one stop signal without a listener-leak warning", async () => {
    const s = await httpServer((_req, res) => setTimeout(() => res.end("{}"), 50));
    servers.push(s);
    const c = client({ maxInFlight: 16, timeoutMs: 5_000 });
    c.cancelOn(new AbortController().signal);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const answers = await Promise.all(Array.from({ length: 16 }, () => c.send({ method: "GET", url: `${s.origin}/v1`, headers: {} })));
      expect(answers.map((a) => a.status)).toEqual(Array(16).fill(200));
      // A warning is emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("fails a request to a server that accepts the connection and never answers, by the timeout", async () => {
    const s = await silentServer();
    servers.push(s);
    const c = client({ timeoutMs: 300 });
    const started = Date.now();
    const f = await failure(c.send({ method: "GET", url: `${s.origin}/v1/-/healthy`, headers: {} }));
    const elapsed = Date.now() - started;
    expect(["headers_timeout", "deadline"]).toContain(f.kind);
    // Tried again once: the retry budget is twice the timeout.
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(3_000);
    expect(f.record.status).toBeNull();
    expect(f.record).toMatchObject({ retries: 1 });
    expect(f.isConnectionFault).toBe(true);
    expect(f.record.curl).toContain("/v1/-/healthy");
    expect(c.requestCount).toBe(2);
    expect(c.retryCount).toBe(1);
  });

  it("sends a request again, up to 3 attempts, when the connection is reset after the request was read", async () => {
    const s = await resettingServer();
    servers.push(s);
    const c = client();
    const f = await failure(c.send({ method: "GET", url: `${s.origin}/v1/-/healthy`, headers: {} }));
    expect(f.kind).toBe("closed");
    expect(f.message).toMatch(/ECONNRESET.*\(3 attempts\)/);
    expect(s.connections()).toBe(3);
    expect(c.retryCount).toBe(2);
  });

  it("sends a submission again only when it cannot have arrived", async () => {
    const s = await resettingServer();
    servers.push(s);
    const c = client();
    const f = await failure(
      c.send({ method: "POST", url: `${s.origin}/v1/transactions`, headers: {}, body: new Uint8Array([1]) }, "unsent"),
    );
    expect(f.kind).toBe("closed");
    expect(s.connections()).toBe(1);
    expect(f.record.retries).toBeUndefined();
    const port = await freePort();
    const refused = await failure(c.send({ method: "POST", url: `http://127.0.0.1:${port}/v1/transactions`, headers: {} }, "unsent"));
    expect(refused.record.retries).toBe(2);
  });

  it("does not send again after bytes that are not HTTP, and does not count them a connection fault", async () => {
    const s = await garbageServer(Buffer.from("SSH-2.0-OpenSSH_9.6\r\n"));
    servers.push(s);
    const f = await failure(client().send({ method: "GET", url: `${s.origin}/`, headers: {} }));
    expect(f.kind).toBe("malformed");
    expect(f.isConnectionFault).toBe(false);
    expect(s.connections()).toBe(1);
  });

  it("bounds the retries: attempts, a jittered backoff growing by 4, and a time budget", () => {
    expect(shouldRetry("closed", "any-fault", 1, 0, DEFAULT_RETRY, 1000)).toBe(true);
    expect(shouldRetry("closed", "any-fault", 3, 0, DEFAULT_RETRY, 1000)).toBe(false);
    expect(shouldRetry("closed", "any-fault", 1, 2000, DEFAULT_RETRY, 1000)).toBe(false);
    expect(shouldRetry("closed", "unsent", 1, 0, DEFAULT_RETRY, 1000)).toBe(false);
    expect(shouldRetry("refused", "unsent", 1, 0, DEFAULT_RETRY, 1000)).toBe(true);
    expect(shouldRetry("too_large", "any-fault", 1, 0, DEFAULT_RETRY, 1000)).toBe(false);
    expect(backoffMs(DEFAULT_RETRY, 1, () => 0)).toBe(50);
    expect(backoffMs(DEFAULT_RETRY, 1, () => 1)).toBe(100);
    expect(backoffMs(DEFAULT_RETRY, 2, () => 1)).toBe(400);
  });

  it("stops sending, requests and raw exchanges alike, once the target answered none of the last requests", async () => {
    const s = await silentServer();
    servers.push(s);
    const c = client({ timeoutMs: 200, unresponsiveAfter: 2 });
    const url = `${s.origin}/v1/-/healthy`;
    for (let i = 0; i < 2; i++) expect((await failure(c.send({ method: "GET", url, headers: {} }))).kind).not.toBe("not_sent");
    // Counted per request, after its retries (each of the two was tried twice).
    expect(c.unresponsive).toMatch(/no HTTP answer to the last 2 requests/);
    const started = Date.now();
    const skipped = await failure(c.send({ method: "GET", url, headers: {} }));
    expect(skipped.kind).toBe("not_sent");
    // At once: sending it would have taken two tries of 200 ms.
    expect(Date.now() - started).toBeLessThan(300);
    expect(c.requestCount).toBe(4);
    const raw = await c.sendRaw({ url, bytes: new TextEncoder().encode("GET / HTTP/1.1\r\n\r\n"), ending: "half-close" });
    expect(raw).toEqual({ sent: false, reason: expect.stringMatching(/no HTTP answer to the last 2 requests/) });
    expect(c.requestCount).toBe(4);
  });

  it("fails a response whose body stalls after the headers", async () => {
    const s = await silentServer('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"partial":');
    servers.push(s);
    const started = Date.now();
    const f = await failure(client({ timeoutMs: 300 }).send({ method: "GET", url: `${s.origin}/`, headers: {} }));
    expect(["body_timeout", "deadline"]).toContain(f.kind);
    expect(f.record.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("bounds the whole exchange even when the body trickles in forever", async () => {
    const s = await httpServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("x"), 50);
      res.on("close", () => clearInterval(timer));
    });
    servers.push(s);
    const started = Date.now();
    const f = await failure(
      client({ timeoutMs: 400, maxResponseBytes: 1_000_000 }).send({ method: "GET", url: `${s.origin}/`, headers: {} }),
    );
    expect(f.kind).toBe("deadline");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("caps the response size", async () => {
    const s = await httpServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(Buffer.alloc(5_000, 1));
    });
    servers.push(s);
    const f = await failure(client({ maxResponseBytes: 1024 }).send({ method: "GET", url: `${s.origin}/`, headers: {} }));
    expect(f.kind).toBe("too_large");
    expect(f.message).toContain("1024");
  });

  it("reports a refused connection", async () => {
    const port = await freePort();
    const f = await failure(client().send({ method: "GET", url: `http://127.0.0.1:${port}/`, headers: {} }));
    expect(f.kind).toBe("refused");
  });

  it("counts requests and keeps one connection alive across them", async () => {
    const s = await httpServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("[]");
    });
    servers.push(s);
    const c = client();
    for (let i = 0; i < 10; i++) await c.send({ method: "GET", url: `${s.origin}/${i}`, headers: {} });
    expect(c.requestCount).toBe(10);
    // undici may open a second socket while the first is being released; never one per request.
    expect(s.connections()).toBeLessThanOrEqual(2);
  });

  it("spaces requests by the rate limit", async () => {
    const s = await httpServer((_req, res) => res.end("ok"));
    servers.push(s);
    const c = client({ rateLimit: 10 });
    const started = Date.now();
    await Promise.all([0, 1, 2, 3].map((i) => c.send({ method: "GET", url: `${s.origin}/${i}`, headers: {} })));
    // 4 requests at 10 per second: the last one goes no sooner than 300 ms after the first could.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });
});
