// POST /v1/transactions (§4.8, the family's convention): JSON and BCS submissions that commit, the media of the 202,
// and the refusals: malformed bodies, 413 over the body limit, 403 when switched off, 507 when full.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toHex, transactionHash } from "../../../src/codec/index.ts";
import { startNode, type RunningNode, type StartNodeOptions } from "../../../src/node/index.ts";
import { ManualClock } from "../../../src/node/ledger/index.ts";
import {
  bcsBody,
  call,
  expectError,
  fixtureAccount,
  header,
  ledgerHeaders,
  postJson,
  signedTransfer,
  transferJson,
  type Reply,
} from "./helpers.ts";

const NODE_BCS = "application/x.node.signed_transaction+bcs";
const APTOS_BCS = "application/x.aptos.signed_transaction+bcs";

/** A node on a clock that moves only when a test says so. */
async function smallNode(options: StartNodeOptions = {}): Promise<RunningNode> {
  return startNode({ clock: new ManualClock(), ...options });
}

function postBcs(base: string, body: Uint8Array, contentType = NODE_BCS, headers: Record<string, string> = {}): Promise<Reply> {
  return call(base, "/transactions", { method: "POST", body, headers: { "content-type": contentType, ...headers } });
}

/** Advances the clock past a few blocks (the next request's info() produces them). */
async function commit(node: RunningNode): Promise<void> {
  (node.clock as ManualClock).advance(3_000);
  await call(node.url, "");
}

async function summaryHashes(node: RunningNode, address: string): Promise<string[]> {
  const reply = await call(node.url, `/accounts/${address}/transaction_summaries`);
  expect(reply.status).toBe(200);
  return (reply.json() as { transaction_hash: string }[]).map((s) => s.transaction_hash);
}

describe("submission that commits", () => {
  let node: RunningNode;
  beforeAll(async () => {
    node = await smallNode();
  });
  afterAll(() => node.close());

  it("accepts JSON with 202 and the pending transaction, then commits it", async () => {
    const sender = fixtureAccount(node, 0);
    const signed = signedTransfer(node, sender, node.fixtures.accounts[1]?.address ?? "", 1_000n);
    const reply = await postJson(node.url, "/transactions", transferJson(signed));
    expect(reply.status, reply.text).toBe(202);
    ledgerHeaders(reply);
    const pending = reply.json() as Record<string, unknown>;
    const hash = toHex(transactionHash(bcsBody(signed)));
    expect(pending).toMatchObject({
      hash,
      sender: node.fixtures.accounts[0]?.address,
      sequence_number: String(signed.raw_txn.sequence_number),
    });

    // An identical resubmission is accepted again (the family's convention).
    expect((await postJson(node.url, "/transactions", transferJson(signed))).status).toBe(202);

    await commit(node);
    expect(await summaryHashes(node, node.fixtures.accounts[0]?.address ?? "")).toContain(hash);
  });

  it("accepts BCS with 202: the pending transaction in JSON, an empty body when BCS is accepted", async () => {
    const sender = fixtureAccount(node, 2);
    const first = signedTransfer(node, sender, node.fixtures.accounts[3]?.address ?? "", 7n);
    const asJson = await postBcs(node.url, bcsBody(first));
    expect(asJson.status, asJson.text).toBe(202);
    expect((asJson.json() as { hash: string }).hash).toBe(toHex(transactionHash(bcsBody(first))));

    const second = signedTransfer(node, sender, node.fixtures.accounts[3]?.address ?? "", 8n);
    const asBcs = await postBcs(node.url, bcsBody(second), NODE_BCS, { accept: "application/x-bcs" });
    expect(asBcs.status, asBcs.text).toBe(202);
    expect(asBcs.bytes).toHaveLength(0);
    ledgerHeaders(asBcs);

    await commit(node);
    const hashes = await summaryHashes(node, node.fixtures.accounts[2]?.address ?? "");
    expect(hashes).toContain(toHex(transactionHash(bcsBody(first))));
    expect(hashes).toContain(toHex(transactionHash(bcsBody(second))));
  });

  it("passes the engine's vm_error_code on: a bad signature is 400 vm_error with code 1", async () => {
    const signed = signedTransfer(node, fixtureAccount(node, 4), node.fixtures.accounts[0]?.address ?? "", 1n);
    const bytes = bcsBody(signed);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff; // last byte of the signature
    const reply = await postBcs(node.url, bytes);
    expectError(reply, 400, "vm_error");
    expect((reply.json() as { vm_error_code?: number }).vm_error_code).toBe(1);
  });

  it("refuses BCS that does not decode, or has trailing bytes, with 400 invalid_input", async () => {
    expectError(await postBcs(node.url, new Uint8Array([1, 2, 3])), 400, "invalid_input");
    const signed = bcsBody(signedTransfer(node, fixtureAccount(node, 4), node.fixtures.accounts[0]?.address ?? "", 1n));
    expectError(await postBcs(node.url, new Uint8Array([...signed, 0])), 400, "invalid_input");
  });

  it("refuses a JSON body that is not a submission with 400 invalid_input", async () => {
    expectError(await postJson(node.url, "/transactions", {}), 400, "invalid_input");
    expectError(await postJson(node.url, "/transactions", [1, 2]), 400, "invalid_input");
  });

  it("refuses what the framework cannot take with 400 web_framework_error", async () => {
    const signed = bcsBody(signedTransfer(node, fixtureAccount(node, 4), node.fixtures.accounts[0]?.address ?? "", 1n));
    expectError(await postBcs(node.url, signed, APTOS_BCS), 400, "web_framework_error");
    expectError(await postBcs(node.url, signed, "application/octet-stream"), 400, "web_framework_error");
    expectError(
      await call(node.url, "/transactions", { method: "POST", body: "{", headers: { "content-type": "application/json" } }),
      400,
      "web_framework_error",
    );
    expectError(
      await call(node.url, "/transactions", { method: "POST", body: "", headers: { "content-type": "application/json" } }),
      400,
      "web_framework_error",
    );
    expectError(await call(node.url, "/transactions", { method: "POST" }), 400, "web_framework_error");
  });

  it("answers a body over the default 8 MiB limit with 413", async () => {
    const reply = await postBcs(node.url, new Uint8Array(8 * 1024 * 1024 + 1));
    expectError(reply, 413, "web_framework_error");
  });
});

describe("submission limits and switches", () => {
  it("answers a body over the configured bodyLimit with 413, on every POST route", async () => {
    const node = await smallNode({ bodyLimit: 1024 });
    try {
      const signed = bcsBody(signedTransfer(node, fixtureAccount(node, 0), node.fixtures.accounts[1]?.address ?? "", 1n));
      expect(signed.length).toBeLessThan(1024);
      expect((await postBcs(node.url, signed)).status).toBe(202);
      expectError(await postBcs(node.url, new Uint8Array(1025)), 413, "web_framework_error");
      expectError(
        await postJson(node.url, `/tables/${node.fixtures.table.handle}/item`, {
          key_type: "u64",
          value_type: "u64",
          key: "1".repeat(1100),
        }),
        413,
        "web_framework_error",
      );
    } finally {
      await node.close();
    }
  });

  it("answers 403 api_disabled to every submission when submission is off", async () => {
    const node = await smallNode({ submit: false });
    try {
      const signed = signedTransfer(node, fixtureAccount(node, 0), node.fixtures.accounts[1]?.address ?? "", 1n);
      expectError(await postBcs(node.url, bcsBody(signed)), 403, "api_disabled");
      expectError(await postJson(node.url, "/transactions", transferJson(signed)), 403, "api_disabled");
      expectError(await postJson(node.url, "/transactions", {}), 403, "api_disabled");
      // Reads are unaffected.
      expect((await call(node.url, "/estimate_gas_price")).status).toBe(200);
    } finally {
      await node.close();
    }
  });

  it("answers 507 mempool_is_full when the mempool is at capacity", async () => {
    const node = await smallNode({ mempoolCapacity: 1, engine: { backgroundTransfersPerBlock: 0 } });
    try {
      const to = node.fixtures.accounts[2]?.address ?? "";
      expect((await postBcs(node.url, bcsBody(signedTransfer(node, fixtureAccount(node, 0), to, 1n)))).status).toBe(202);
      expectError(await postBcs(node.url, bcsBody(signedTransfer(node, fixtureAccount(node, 1), to, 1n))), 507, "mempool_is_full");
    } finally {
      await node.close();
    }
  });
});

describe("the aptos profile", () => {
  it("uses X-APTOS- headers and the aptos BCS content type, and refuses the neutral one", async () => {
    const node = await smallNode({ profile: "aptos" });
    try {
      const signed = bcsBody(signedTransfer(node, fixtureAccount(node, 0), node.fixtures.accounts[1]?.address ?? "", 1n));
      // A Content-Type the route does not take is 415 there, as on aptos-core (src/node/http/profile.ts).
      expectError(await postBcs(node.url, signed, NODE_BCS), 415, "web_framework_error", "X-APTOS-");
      const reply = await postBcs(node.url, signed, APTOS_BCS);
      expect(reply.status, reply.text).toBe(202);
      ledgerHeaders(reply, "X-APTOS-");
      expect(header(reply, "X-NODE-LEDGER-VERSION")).toBeUndefined();
    } finally {
      await node.close();
    }
  });

  it("takes a header prefix override", async () => {
    const node = await smallNode({ headerPrefix: "X-LEDGER-" });
    try {
      ledgerHeaders(await call(node.url, "/estimate_gas_price"), "X-LEDGER-");
    } finally {
      await node.close();
    }
  });
});
