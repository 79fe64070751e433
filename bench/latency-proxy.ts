// A loopback TCP proxy that makes a node on this machine look like one across the internet: every
// request reaches the node a random 0..maxDelayMs later (seeded, so runs compare). It works on bytes,
// not HTTP, so the suite's deliberately broken requests (truncated bodies, half-closes, bad framing)
// reach the node exactly as they were sent. A "request" here is a burst of bytes from the client after
// its connection was idle: the first chunk of a burst draws a delay, the chunks behind it keep their
// order and wait no longer than it. Answers come back at once.

import { createServer, connect, type Server, type Socket } from "node:net";
import { seededRandom } from "../src/harness/seeded-random.ts";

export interface LatencyProxy {
  /** The proxy's base URL with the upstream's path (…/v1). */
  readonly url: string;
  /** Bursts delayed so far. */
  readonly delayed: () => number;
  close(): Promise<void>;
}

export async function startLatencyProxy(upstreamUrl: string, options: { maxDelayMs: number; seed: number }): Promise<LatencyProxy> {
  const upstream = new URL(upstreamUrl);
  const random = seededRandom(options.seed);
  const sockets = new Set<Socket>();
  let delayed = 0;

  // Half-open: a client that half-closes after its request (as raw exchanges do) still gets the answer.
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    const node = connect({ host: upstream.hostname, port: Number(upstream.port) });
    sockets.add(client);
    sockets.add(node);
    // Bytes from the client not yet passed on, and when the burst they belong to may go.
    const queue: Buffer[] = [];
    let releaseAt = 0;
    let timer: NodeJS.Timeout | undefined;
    let clientEnded = false;
    const flush = () => {
      timer = undefined;
      for (const chunk of queue.splice(0)) node.write(chunk);
      if (clientEnded) node.end();
    };
    client.on("data", (chunk: Buffer) => {
      if (queue.length === 0 && timer === undefined) {
        delayed += 1;
        releaseAt = performance.now() + random() * options.maxDelayMs;
      }
      queue.push(chunk);
      timer ??= setTimeout(flush, Math.max(0, releaseAt - performance.now()));
    });
    client.on("end", () => {
      clientEnded = true;
      if (timer === undefined) node.end();
    });
    node.pipe(client);
    const drop = () => {
      clearTimeout(timer);
      client.destroy();
      node.destroy();
      sockets.delete(client);
      sockets.delete(node);
    };
    client.on("error", drop);
    node.on("error", drop);
    client.on("close", () => {
      if (timer === undefined) drop();
    });
    node.on("close", drop);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the latency proxy has no TCP address");
  return {
    url: `http://127.0.0.1:${address.port}${upstream.pathname.replace(/\/$/, "")}`,
    delayed: () => delayed,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
