// A body over the limit is answered 413, and every client reads that answer: the node reads and
// discards the rest of the body (up to a bound) before the connection may close, so a client still
// writing its body (Node.js `http`, which reads nothing until it has written everything) is not cut
// off by a reset. Before, the node closed at once and such a client saw EPIPE every time.

import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNode, type RunningNode } from "../../../src/node/index.ts";
import { ManualClock } from "../../../src/node/ledger/index.ts";

const LIMIT = 8 * 1024 * 1024;
/** Well over the limit, and over what the socket buffers take before the writer must wait for the reader. */
const BODY_BYTES = 9 * 1024 * 1024;

let node: RunningNode;
beforeAll(async () => {
  node = await startNode({ clock: new ManualClock(), bodyLimit: LIMIT });
});
afterAll(async () => {
  await node.close();
});

/**
 * A Node.js `http` client in a child process (in this process it would share the node's event loop,
 * which hides the race): POSTs `size` zero bytes as one write, `times` times, one after the other, and
 * prints what each got, the status and body read or the error the client saw.
 */
const CLIENT = `
const { request } = require("node:http");
const [url, contentType, size, times] = process.argv.slice(1);
const bytes = new Uint8Array(Number(size));
const once = () => new Promise((resolve) => {
  const req = request(url, { method: "POST", headers: { "content-type": contentType, "content-length": bytes.length, accept: "application/json" } }, (res) => {
    const chunks = [];
    res.on("data", (c) => chunks.push(c));
    res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString("utf8") }));
    res.on("error", (e) => resolve({ error: String(e.code) + " " + e.message }));
  });
  req.on("error", (e) => resolve({ error: String(e.code) + " " + e.message }));
  req.end(bytes);
});
(async () => { const out = []; for (let i = 0; i < Number(times); i++) out.push(await once()); process.stdout.write(JSON.stringify(out)); })();
`;

type Outcome = { status: number; body: string } | { error: string };

function postWithNodeHttp(url: string, contentType: string, size: number, times: number): Promise<Outcome[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["-e", CLIENT, url, contentType, String(size), String(times)],
      { timeout: 60_000, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Outcome[]);
      },
    );
  });
}

describe("a body over the limit", () => {
  it("is answered 413 to a Node.js http client writing it whole, 10 times out of 10", async () => {
    const outcomes = await postWithNodeHttp(`${node.url}/transactions`, "application/x.node.signed_transaction+bcs", BODY_BYTES, 10);
    expect(outcomes).toHaveLength(10);
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ status: 413 });
      expect(JSON.parse((outcome as { body: string }).body)).toMatchObject({ error_code: "web_framework_error" });
    }
  });

  it("is answered 413 on the JSON routes too (a table item request)", async () => {
    const outcomes = await postWithNodeHttp(`${node.url}/tables/${node.fixtures.table.handle}/item`, "application/json", BODY_BYTES, 3);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 413 });
  });

  it("leaves the node serving afterwards", async () => {
    const res = await fetch(`${node.url}/-/healthy`);
    expect(res.status).toBe(200);
  });
});
