// The validation proxy against small upstream servers: it forwards a request unchanged (method, path,
// query, headers, body) and hands the answer back unchanged; it refuses to be an open proxy (an
// absolute URL in the request line), passes a redirect to the client without following it, caps
// request bodies, answers 502 itself when the upstream gives no answer (judging nothing), and judges a
// compressed answer by what the client reads.

import { request as rawRequest } from "node:http";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { catalog } from "../../src/harness/harness.ts";
import { ApiContract } from "../../src/harness/openapi.ts";
import { ValidationProxy } from "../../src/harness/proxy/validation-proxy.ts";
import type { CheckResult } from "../../src/harness/results.ts";
import { freePort, httpServer, ledgerHeaders, type Running } from "../harness/servers.ts";

const contract = ApiContract.load();
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((f) => f()));
});

async function proxyTo(upstream: string, maxRequestBytes = 1024 * 1024) {
  const judged: { label: string; results: readonly CheckResult[] }[] = [];
  const proxy = new ValidationProxy({
    upstream,
    port: 0,
    contract,
    catalog: catalog(),
    headerPrefix: "X-NODE-",
    timeoutMs: 5_000,
    maxRequestBytes,
    maxResponseBytes: 1024 * 1024,
    onJudged: (label, results) => judged.push({ label, results }),
  });
  const url = await proxy.listen();
  cleanups.push(() => proxy.close());
  return { url, judged };
}

async function upstream(handler: Parameters<typeof httpServer>[0]): Promise<Running> {
  const server = await httpServer(handler);
  cleanups.push(() => server.close());
  return server;
}

const statuses = (results: readonly CheckResult[]) => Object.fromEntries(results.map((r) => [r.requirement, r.status]));

describe("the validation proxy", () => {
  it("forwards method, path, query, headers and body unchanged, and the answer back unchanged", async () => {
    let seen: { method?: string; url?: string; headers: Record<string, unknown>; body: string } | undefined;
    const gas = JSON.stringify({ deprioritized_gas_estimate: 100, gas_estimate: 100, prioritized_gas_estimate: 150 });
    const node = await upstream((req, res, body) => {
      seen = { method: req.method, url: req.url, headers: req.headers, body: body.toString() };
      res.writeHead(200, { "content-type": "application/json", "x-extra": "kept", ...ledgerHeaders() });
      res.end(gas);
    });
    const { url, judged } = await proxyTo(`${node.origin}/v1`);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await fetch(`${url}/estimate_gas_price?x=1&x=2`, {
      method: "GET",
      headers: { accept: "application/json", "x-client": "sdk 1.0", authorization: "Bearer s3cret" },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(gas);
    expect(res.headers.get("x-extra")).toBe("kept");
    expect(res.headers.get("x-node-ledger-version")).toBe("100");
    expect(seen).toMatchObject({
      method: "GET",
      url: "/v1/estimate_gas_price?x=1&x=2",
      headers: { accept: "application/json", "x-client": "sdk 1.0", authorization: "Bearer s3cret" },
    });
    expect(judged.map((j) => j.label)).toEqual(["GET estimate_gas_price"]);
    expect(statuses(judged[0]?.results ?? [])).toMatchObject({
      "7.1/listed-status": "passed",
      "2.7/required-headers-on-api-success": "passed",
      "4.6/gas-estimate-object": "passed",
    });

    const post = await fetch(`${url}/tables/0x1/item`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"key_type":"u64","value_type":"u64","key":"1"}',
    });
    await post.text();
    expect(seen).toMatchObject({ method: "POST", url: "/v1/tables/0x1/item", body: '{"key_type":"u64","value_type":"u64","key":"1"}' });
  });

  it("judges a failure with a curl line to the upstream, credentials redacted", async () => {
    const node = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", ...ledgerHeaders() });
      res.end(JSON.stringify({ deprioritized_gas_estimate: "100", gas_estimate: 100, prioritized_gas_estimate: 150 }));
    });
    const { url, judged } = await proxyTo(`${node.origin}/v1`);
    await (await fetch(`${url}/estimate_gas_price`, { headers: { authorization: "Bearer s3cret" } })).text();
    const failure = judged[0]?.results.find((r) => r.requirement === "4.6/gas-estimate-object");
    expect(failure?.status).toBe("failed");
    expect(failure?.failures[0]?.curl).toContain(`${node.origin}/v1/estimate_gas_price`);
    expect(failure?.failures[0]?.curl).not.toContain("s3cret");
  });

  it("is no open proxy: an absolute URL in the request line is refused, not forwarded", async () => {
    let reached = false;
    const node = await upstream((_req, res) => {
      reached = true;
      res.end();
    });
    const { url } = await proxyTo(`${node.origin}/v1`);
    const port = Number(new URL(url).port);
    const status = await new Promise<number>((resolve, reject) => {
      const req = rawRequest({ host: "127.0.0.1", port, method: "GET", path: "http://example.invalid/v1/-/healthy" }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(400);
    expect(reached).toBe(false);
  });

  it("passes a redirect to the client without following it", async () => {
    let requests = 0;
    const node = await upstream((_req, res) => {
      requests += 1;
      res.writeHead(302, { location: "http://example.invalid/elsewhere" });
      res.end();
    });
    const { url } = await proxyTo(`${node.origin}/v1`);
    const res = await fetch(`${url}/-/healthy`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://example.invalid/elsewhere");
    expect(requests).toBe(1);
  });

  it("refuses a request body over its cap, and answers 502 itself when the upstream is down, judging neither", async () => {
    const node = await upstream((_req, res) => res.end());
    const small = await proxyTo(`${node.origin}/v1`, 16);
    const big = await fetch(`${small.url}/transactions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(64),
    });
    expect(big.status).toBe(413);
    expect(big.headers.get("x-ledger-conformance-proxy")).toBe("own-answer");
    const down = await proxyTo(`http://127.0.0.1:${await freePort()}/v1`);
    const res = await fetch(`${down.url}/-/healthy`);
    expect(res.status).toBe(502);
    expect(res.headers.get("x-ledger-conformance-proxy")).toBe("own-answer");
    expect([...small.judged, ...down.judged]).toEqual([]);
  });

  it("answers 502 itself for an upstream answer over its cap, and for one that breaks off in its body, judging neither", async () => {
    const huge = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", ...ledgerHeaders() });
      res.end(`[${"0,".repeat(600_000)}0]`);
    });
    const capped = await proxyTo(`${huge.origin}/v1`);
    const over = await fetch(`${capped.url}/accounts/0x1/modules`);
    expect(over.status).toBe(502);
    expect(await over.text()).toContain("over the proxy's limit");
    const broken = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000", ...ledgerHeaders() });
      res.write("[1,2,");
      setTimeout(() => res.destroy(), 20);
    });
    const cut = await proxyTo(`${broken.origin}/v1`);
    const partial = await fetch(`${cut.url}/accounts/0x1/modules`);
    expect(partial.status).toBe(502);
    expect(await partial.text()).toContain("broke off");
    expect([...capped.judged, ...cut.judged]).toEqual([]);
  });

  it("judges a gzip answer by its decoded body and forwards the compressed bytes", async () => {
    const body = JSON.stringify({ message: "aptos-node:ok" });
    const node = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", ...ledgerHeaders() });
      res.end(gzipSync(body));
    });
    const { url, judged } = await proxyTo(`${node.origin}/v1`);
    const res = await fetch(`${url}/-/healthy`, { headers: { "accept-encoding": "gzip" } });
    expect(await res.text()).toBe(body);
    expect(statuses(judged[0]?.results ?? [])).toMatchObject({ "4.7/health-message": "passed", "4/media-type-declared": "passed" });
  });
  // aptos-core renders a summary's replay_protector as a bare u64 string: a deviation judged by
  // 4.3/replay-protector-object, which a run's 4.3/summaries check reads past (as the proxy must).
  it("judges a list of summaries as a run's check reads it: a bare replay_protector is not 4.3/summaries' to fail", async () => {
    const summary = { sender: `0x${"ab".repeat(32)}`, version: "7", transaction_hash: `0x${"cd".repeat(32)}` };
    const node = await upstream((req, res) => {
      const replayProtector = req.url?.includes("bare")
        ? "5"
        : req.url?.includes("junk")
          ? "five"
          : { type: "sequence_number", sequence_number: "5" };
      res.writeHead(200, { "content-type": "application/json", ...ledgerHeaders() });
      res.end(JSON.stringify([{ ...summary, replay_protector: replayProtector }]));
    });
    const { url, judged } = await proxyTo(`${node.origin}/v1`);
    for (const form of ["tagged", "bare", "junk"]) await (await fetch(`${url}/accounts/0x1/transaction_summaries?form=${form}`)).text();
    expect(judged.map((j) => statuses(j.results)["4.3/summaries"])).toEqual(["passed", "passed", "failed"]);
  });
});
