// The two endpoints the node serves beyond the spec so real Aptos clients work end to end, in both
// profiles: GET /v1/accounts/{address} (aptos-core's AccountData, or the 0x1::account::Account resource
// under BCS) and GET /v1/transactions/by_hash/{hash} (pending while in the mempool, then committed).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountResourceBcs, decodeBcs, ed25519AuthenticationKey, IndexResponseBcs, toHex } from "../../../src/codec/index.ts";
import { startNode, type RunningNode } from "../../../src/node/index.ts";
import { ManualClock } from "../../../src/node/ledger/index.ts";
import {
  BCS,
  call,
  expectError,
  expectOk,
  fixtureAccount,
  header,
  ledgerVersion,
  postJson,
  signedTransfer,
  transferJson,
} from "./helpers.ts";

let node: RunningNode;
let aptos: RunningNode;

beforeAll(async () => {
  [node, aptos] = await Promise.all([startNode({ clock: new ManualClock() }), startNode({ profile: "aptos", clock: new ManualClock() })]);
});

afterAll(async () => {
  await Promise.all([node?.close(), aptos?.close()]);
});

describe("GET /v1/accounts/{address}", () => {
  it("answers the sequence number and authentication key, at the latest or a given ledger_version", async () => {
    const account = fixtureAccount(node, 0);
    const reply = await call(node.url, `/accounts/${toHex(account.address)}`);
    expectOk(reply);
    expect(reply.json()).toEqual({ sequence_number: "0", authentication_key: toHex(ed25519AuthenticationKey(account.publicKey)) });
    const at = await call(node.url, `/accounts/${toHex(account.address)}?ledger_version=${ledgerVersion(reply)}`);
    expect(at.json()).toEqual(reply.json());
  });

  it("answers BCS as aptos-core's 0x1::account::Account resource", async () => {
    const account = fixtureAccount(node, 0);
    const reply = await call(node.url, `/accounts/${toHex(account.address)}`, { headers: BCS });
    expectOk(reply);
    expect(header(reply, "content-type")).toBe("application/x-bcs");
    const resource = decodeBcs(AccountResourceBcs, reply.bytes);
    expect(resource.sequence_number).toBe(0n);
    expect(toHex(resource.authentication_key)).toBe(toHex(ed25519AuthenticationKey(account.publicKey)));
    expect(resource.key_rotation_events.guid.id).toEqual({ creation_num: 1n, addr: account.address });
  });

  it("is 404 account_not_found for an account without state, 400 for a malformed address, 410 below the window", async () => {
    expectError(await call(node.url, `/accounts/0x${"e".repeat(64)}`), 404, "account_not_found");
    expectError(await call(node.url, "/accounts/0xzz"), 400, "web_framework_error");
    expectError(await call(node.url, "/accounts/0x1?ledger_version=0"), 410, "version_pruned");
    expectError(await call(aptos.url, `/accounts/0x${"e".repeat(64)}`), 404, "account_not_found", "X-APTOS-");
  });
});

describe("GET /v1/transactions/by_hash/{hash}", () => {
  it.each([
    ["node", () => node, "X-NODE-"],
    ["aptos", () => aptos, "X-APTOS-"],
  ] as const)("%s profile: pending while in the mempool, then the committed user transaction", async (_name, which, prefix) => {
    const target = which();
    const signed = signedTransfer(target, fixtureAccount(target, 1), target.fixtures.accounts[0]?.address ?? "", 5n);
    const submitted = await postJson(target.url, "/transactions", transferJson(signed));
    expect(submitted.status, submitted.text).toBe(202);
    const { hash } = submitted.json() as { hash: string };

    const pending = await call(target.url, `/transactions/by_hash/${hash}`);
    expectOk(pending, prefix);
    const { type, ...rest } = pending.json() as Record<string, unknown>;
    expect(type).toBe("pending_transaction");
    // The same pending transaction the 202 gave.
    expect(rest).toEqual(submitted.json());

    (target.clock as ManualClock).advance(5_000);
    const committed = await call(target.url, `/transactions/by_hash/${hash.slice(2)}`);
    expectOk(committed, prefix);
    const body = committed.json() as Record<string, unknown>;
    expect(body).toMatchObject({
      type: "user_transaction",
      hash,
      success: true,
      vm_status: "Executed successfully",
      sender: rest.sender,
      sequence_number: rest.sequence_number,
    });
    expect(BigInt(body.version as string)).toBeLessThanOrEqual(ledgerVersion(committed, prefix));
    expect(BigInt(body.gas_used as string)).toBeGreaterThan(0n);
    expect(body.timestamp).toMatch(/^[0-9]+$/);
    if (prefix === "X-APTOS-") expect(body.replay_protection_nonce).toBeNull();
    else expect(body).not.toHaveProperty("replay_protection_nonce");
  });

  it("is 404 transaction_not_found for an unknown hash and 400 for one that is not 32 bytes of hex", async () => {
    expectError(await call(node.url, `/transactions/by_hash/0x${"ab".repeat(32)}`), 404, "transaction_not_found");
    expectError(await call(node.url, "/transactions/by_hash/0x1234"), 400, "web_framework_error");
    expectError(await call(node.url, `/transactions/by_hash/0x${"zz".repeat(32)}`), 400, "web_framework_error");
  });
});

describe("a committed user transaction from GET /v1/transactions/by_hash/{hash}", () => {
  it.each([
    ["node", () => node],
    ["aptos", () => aptos],
  ] as const)("%s profile: carries TransactionInfo's members, events and timestamp in aptos-core's order", async (_name, which) => {
    const target = which();
    const send = async (amount: bigint) => {
      const signed = signedTransfer(target, fixtureAccount(target, 2), target.fixtures.accounts[0]?.address ?? "", amount);
      const submitted = await postJson(target.url, "/transactions", transferJson(signed));
      expect(submitted.status, submitted.text).toBe(202);
      return (submitted.json() as { hash: string }).hash;
    };
    const first = await send(7n);
    (target.clock as ManualClock).advance(5_000);
    const second = await send(8n);
    (target.clock as ManualClock).advance(5_000);
    const read = async (hash: string) => (await call(target.url, `/transactions/by_hash/${hash}`)).json() as Record<string, unknown>;
    const [a, b] = [await read(first), await read(second)];
    const request = ["sender", "sequence_number", "max_gas_amount", "gas_unit_price", "expiration_timestamp_secs", "payload", "signature"];
    const nonce = _name === "aptos" ? ["replay_protection_nonce"] : [];
    expect(Object.keys(a)).toEqual([
      "version",
      "hash",
      "state_change_hash",
      "event_root_hash",
      "state_checkpoint_hash",
      "gas_used",
      "success",
      "vm_status",
      "accumulator_root_hash",
      "changes",
      ...request,
      ...nonce,
      "events",
      "timestamp",
      "type",
    ]);
    for (const member of ["state_change_hash", "event_root_hash", "accumulator_root_hash"]) expect(a[member]).toMatch(/^0x[0-9a-f]{64}$/);
    // No events: aptos-core's ACCUMULATOR_PLACEHOLDER_HASH.
    expect(a.event_root_hash).toBe(`0x${Buffer.from("ACCUMULATOR_PLACEHOLDER_HASH").toString("hex").padEnd(64, "0")}`);
    expect(a.state_checkpoint_hash).toBeNull();
    expect(a.changes).toEqual([]);
    expect(a.events).toEqual([]);
    // Different write sets, different versions: different stand-ins.
    expect(b.state_change_hash).not.toBe(a.state_change_hash);
    expect(b.accumulator_root_hash).not.toBe(a.accumulator_root_hash);
    // The same transaction read again: the same hashes.
    expect(await read(first)).toEqual(a);
  });
});

describe("GET /v1 with Accept: application/x-bcs", () => {
  it.each([
    ["node", () => node],
    ["aptos", () => aptos],
  ] as const)("%s profile: aptos-core's IndexResponseBcs, the same ledger as the JSON form", async (_name, which) => {
    const target = which();
    const reply = await call(target.url, "", { headers: BCS });
    expect(reply.status).toBe(200);
    expect(header(reply, "content-type")).toBe("application/x-bcs");
    const decoded = decodeBcs(IndexResponseBcs, reply.bytes);
    const json = (await call(target.url, "")).json() as Record<string, unknown>;
    expect(decoded.chain_id).toBe(json.chain_id);
    expect(decoded.node_role).toEqual({ FullNode: true, $kind: "FullNode" });
    expect(decoded.epoch).toBe(json.epoch);
    expect(decoded.oldest_ledger_version).toBe(json.oldest_ledger_version);
    expect(BigInt(decoded.ledger_version)).toBe(
      BigInt(header(reply, `${target === aptos ? "X-APTOS-" : "X-NODE-"}LEDGER-VERSION`) ?? "-1"),
    );
    expect(BigInt(decoded.block_height)).toBeGreaterThanOrEqual(BigInt(decoded.oldest_block_height));
  });
});
