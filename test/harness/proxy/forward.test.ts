// The forwarding core of the suite's proxies: what it passes on and what it drops (RFC 9110 §7.6.1),
// a read sent again once when its kept-alive connection turned out closed (RFC 9112 §9.3.1), a
// submission never sent twice, and answers bounded.

import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Forwarder, headerLines } from "../../../src/harness/proxy/forward.ts";
import { httpServer } from "../servers.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  // The last started first: a forwarder's kept-alive connections close before their server waits for them.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function forwarderTo(origin: string, maxAnswerBytes = 1024 * 1024): Forwarder {
  const forwarder = new Forwarder({ upstream: `${origin}/v1`, timeoutMs: 5_000, maxAnswerBytes });
  cleanups.push(() => forwarder.close());
  return forwarder;
}

/**
 * A server that answers the first request of each connection with keep-alive and closes the connection,
 * unanswered, when a second request comes on it: a kept-alive connection the server closed as the
 * request was on its way.
 */
async function closingOnSecondRequest(): Promise<{ origin: string; requests: () => number; connections: () => number }> {
  let requests = 0;
  let connections = 0;
  const server = createServer((socket: Socket) => {
    connections += 1;
    let seen = 0;
    socket.on("data", (data: Buffer) => {
      const heads = data.toString("latin1").split("\r\n\r\n").length - 1;
      for (let i = 0; i < heads; i++) {
        requests += 1;
        seen += 1;
        if (seen === 1) socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
        else socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests, connections: () => connections };
}

describe("the forwarding core", () => {
  it("drops hop-by-hop fields and those Connection names, both ways, sets Host and Content-Length, and keeps repeated fields", async () => {
    let seen: [string, string][] = [];
    const node = await httpServer((req, res) => {
      seen = headerLines(req.rawHeaders);
      res.writeHead(
        200,
        [
          ["Connection", "x-hidden"],
          ["X-Hidden", "1"],
          ["Set-Cookie", "a=1"],
          ["Set-Cookie", "b=2"],
          ["Content-Length", "2"],
        ].flat(),
      );
      res.end("ok");
    });
    cleanups.push(() => node.close());
    const answer = await forwarderTo(node.origin).exchange({
      method: "POST",
      target: "/v1/view?x=1",
      headers: [
        ["Connection", "x-secret"],
        ["X-Secret", "1"],
        ["Keep-Alive", "timeout=5"],
        ["TE", "trailers"],
        ["Proxy-Authorization", "Basic eA=="],
        ["Host", "elsewhere.example"],
        ["Content-Length", "99"],
        ["X-Kept", "a"],
        ["X-Kept", "b"],
      ],
      body: Buffer.from("abc"),
    });
    const names = seen.map(([name]) => name.toLowerCase());
    expect(names).not.toContain("x-secret");
    expect(names).not.toContain("te");
    expect(names).not.toContain("proxy-authorization");
    expect(seen.filter(([name]) => name === "X-Kept")).toEqual([
      ["X-Kept", "a"],
      ["X-Kept", "b"],
    ]);
    expect(seen.find(([name]) => name.toLowerCase() === "host")?.[1]).toBe(new URL(node.origin).host);
    expect(seen.find(([name]) => name.toLowerCase() === "content-length")?.[1]).toBe("3");
    expect(answer).toMatchObject({ kind: "answer", status: 200 });
    if (answer.kind !== "answer") return;
    expect(answer.headers.filter(([name]) => name !== "Date")).toEqual([
      ["Set-Cookie", "a=1"],
      ["Set-Cookie", "b=2"],
      ["Content-Length", "2"],
    ]);
    expect(answer.body.toString()).toBe("ok");
  });

  it("sends a read once more when its kept-alive connection turned out closed, and never a submission", async () => {
    const node = await closingOnSecondRequest();
    const forwarder = forwarderTo(node.origin);
    const read = { method: "GET", target: "/v1/-/healthy", headers: [], body: Buffer.alloc(0) };
    expect(await forwarder.exchange(read)).toMatchObject({ kind: "answer", status: 200 });
    expect(await forwarder.exchange(read)).toMatchObject({ kind: "answer", status: 200 });
    expect([node.requests(), node.connections()]).toEqual([3, 2]);

    const other = await closingOnSecondRequest();
    const submissions = forwarderTo(other.origin);
    const submission = { method: "POST", target: "/v1/transactions", headers: [], body: Buffer.alloc(0) };
    // A connection of its own each time: the server never sees a second request on one.
    expect(await submissions.exchange(submission)).toMatchObject({ kind: "answer", status: 200 });
    expect(await submissions.exchange(submission)).toMatchObject({ kind: "answer", status: 200 });
    expect([other.requests(), other.connections()]).toEqual([2, 2]);
  });

  it("gives up an answer over its cap, and tells an answer that broke off from none", async () => {
    const node = await httpServer((req, res) => {
      if (req.url === "/v1/big") {
        res.end("x".repeat(2_000));
        return;
      }
      res.writeHead(200, { "content-length": "100" });
      res.write("[1,");
      setTimeout(() => res.destroy(), 20);
    });
    cleanups.push(() => node.close());
    const forwarder = forwarderTo(node.origin, 1_000);
    const get = (target: string) => forwarder.exchange({ method: "GET", target, headers: [], body: Buffer.alloc(0) });
    expect(await get("/v1/big")).toMatchObject({ kind: "too_large", status: 200 });
    expect(await get("/v1/cut")).toMatchObject({ kind: "failed", status: 200 });
    const down = forwarderTo("http://127.0.0.1:1");
    expect(await down.exchange({ method: "GET", target: "/v1", headers: [], body: Buffer.alloc(0) })).toMatchObject({
      kind: "failed",
      status: undefined,
    });
  });
});
