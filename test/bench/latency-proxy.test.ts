// The bench's latency proxy passes bytes through unchanged, both ways, HTTP or not, and delays each
// burst of a client's bytes (not asserted in time: only that every request was counted as one burst).

import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startLatencyProxy, type LatencyProxy } from "../../bench/latency-proxy.ts";
import { httpServer, type Running } from "../harness/servers.ts";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function proxied(maxDelayMs: number): Promise<{ server: Running; proxy: LatencyProxy }> {
  const server = await httpServer((req, res, body) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(`${req.method} ${req.url} ${body.toString()}`);
  });
  open.push(server);
  const proxy = await startLatencyProxy(`${server.origin}/v1`, { maxDelayMs, seed: 1 });
  open.push(proxy);
  return { server, proxy };
}

describe("startLatencyProxy", () => {
  it("forwards requests and answers unchanged, keeping the upstream's path", async () => {
    const { proxy } = await proxied(20);
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    for (const n of [1, 2, 3]) {
      const res = await fetch(`${proxy.url}/x?n=${n}`, { method: "POST", body: `body ${n}` });
      expect(await res.text()).toBe(`POST /v1/x?n=${n} body ${n}`);
    }
    expect(proxy.delayed()).toBeGreaterThanOrEqual(3);
  });

  it("passes a half-closed raw request through and the answer back", async () => {
    const { proxy } = await proxied(20);
    const { port } = new URL(proxy.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: "127.0.0.1", port: Number(port) });
      let data = "";
      socket.on("data", (d: Buffer) => (data += d.toString()));
      socket.on("end", () => resolve(data));
      socket.on("error", reject);
      socket.end("GET /v1/raw HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain("GET /v1/raw ");
  });
});
