// The embedded node of a run without --target lives on a thread of its own (src/run/embedded-node-thread.ts):
// it must listen on loopback with the fixtures of its genesis, answer as the node does, stop with close(),
// and turn a node that cannot start into a rejected start, not a hang.

import { describe, expect, it } from "vitest";
import { request } from "undici";
import { EMBEDDED_BLOCK_INTERVAL_MS, startEmbeddedNode } from "../../src/run/embedded-node.ts";
import type { ProfileName } from "../../src/harness/config.ts";

describe("startEmbeddedNode", () => {
  it("starts the node on its thread: a loopback URL, its fixtures, its answers; close() stops it", async () => {
    const node = await startEmbeddedNode("node", undefined);
    try {
      expect(node.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(node.fixtures.chainId).toBe(4);
      expect(node.fixtures.accounts?.length).toBeGreaterThan(0);
      const health = await request(`${node.url}/-/healthy`);
      expect(health.statusCode).toBe(200);
      expect(health.headers["x-node-chain-id"]).toBe("4");
      await health.body.dump();
      // Its blocks come every EMBEDDED_BLOCK_INTERVAL_MS: the ledger moves within a few intervals.
      const version = async () => {
        const res = await request(`${node.url}/estimate_gas_price`);
        await res.body.dump();
        return BigInt(res.headers["x-node-ledger-version"] as string);
      };
      const before = await version();
      await new Promise((resolve) => setTimeout(resolve, EMBEDDED_BLOCK_INTERVAL_MS * 5));
      expect(await version()).toBeGreaterThan(before);
    } finally {
      await node.close();
    }
    await expect(request(`${node.url}/-/healthy`)).rejects.toThrow();
  });

  it("takes the header prefix it is given", async () => {
    const node = await startEmbeddedNode("node", "X-CHAIN-");
    try {
      const res = await request(`${node.url}/-/healthy`);
      await res.body.dump();
      expect(res.headers["x-chain-chain-id"]).toBe("4");
    } finally {
      await node.close();
    }
  });

  it("rejects when the node cannot start", async () => {
    await expect(startEmbeddedNode("no-such-profile" as ProfileName, undefined)).rejects.toThrow();
  });
});
