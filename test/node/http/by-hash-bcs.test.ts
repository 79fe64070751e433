// GET /v1/transactions/by_hash/{hash} with Accept: application/x-bcs answers aptos-core's TransactionData
// (api/src/transactions.rs `get_transaction_inner`, BCS arm), in both profiles: decoded with the codec, it
// says what the JSON form of the same transaction says.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeBcs,
  encodeSignedTransaction,
  fromHex,
  parseAddress,
  toHex,
  TransactionDataBcs,
  type SignedTransaction,
} from "../../../src/codec/index.ts";
import { startNode, type RunningNode } from "../../../src/node/index.ts";
import { ManualClock } from "../../../src/node/ledger/index.ts";
import { BCS, call, fixtureAccount, header, postJson, signedTransfer, transferJson } from "./helpers.ts";

let node: RunningNode;
let aptos: RunningNode;

beforeAll(async () => {
  [node, aptos] = await Promise.all([startNode({ clock: new ManualClock() }), startNode({ profile: "aptos", clock: new ManualClock() })]);
});

afterAll(async () => {
  await Promise.all([node?.close(), aptos?.close()]);
});

const profiles = [
  ["node", () => node],
  ["aptos", () => aptos],
] as const;

async function submit(target: RunningNode, signed: SignedTransaction): Promise<string> {
  const submitted = await postJson(target.url, "/transactions", transferJson(signed));
  expect(submitted.status, submitted.text).toBe(202);
  return (submitted.json() as { hash: string }).hash;
}

async function readBoth(target: RunningNode, hash: string) {
  const bcs = await call(target.url, `/transactions/by_hash/${hash}`, { headers: BCS });
  expect(bcs.status, bcs.text).toBe(200);
  expect(header(bcs, "content-type")).toBe("application/x-bcs");
  const json = await call(target.url, `/transactions/by_hash/${hash}`);
  return { data: decodeBcs(TransactionDataBcs, bcs.bytes), json: json.json() as Record<string, unknown> };
}

describe("GET /v1/transactions/by_hash/{hash} with Accept: application/x-bcs", () => {
  it.each(profiles)(
    "%s profile: a pending transaction is TransactionData::Pending, the signed transaction as submitted",
    async (_n, which) => {
      const target = which();
      const signed = signedTransfer(target, fixtureAccount(target, 3), target.fixtures.accounts[0]?.address ?? "", 11n);
      const hash = await submit(target, signed);
      const { data, json } = await readBoth(target, hash);
      expect(json.type).toBe("pending_transaction");
      if (data.$kind !== "Pending") throw new Error(`expected Pending, got ${data.$kind}`);
      expect(toHex(encodeSignedTransaction(data.Pending))).toBe(toHex(encodeSignedTransaction(signed)));
      (target.clock as ManualClock).advance(5_000);
    },
  );

  it.each(profiles)("%s profile: a committed transaction is TransactionData::OnChain, agreeing with the JSON form", async (_n, which) => {
    const target = which();
    const signed = signedTransfer(target, fixtureAccount(target, 4), target.fixtures.accounts[0]?.address ?? "", 12n);
    const hash = await submit(target, signed);
    (target.clock as ManualClock).advance(5_000);
    const { data, json } = await readBoth(target, hash);
    expect(json.type).toBe("user_transaction");
    if (data.$kind !== "OnChain") throw new Error(`expected OnChain, got ${data.$kind}`);
    const onChain = data.OnChain;
    expect(onChain.version.toString()).toBe(json.version);
    if (onChain.transaction.$kind !== "UserTransaction") throw new Error("expected a user transaction");
    expect(toHex(encodeSignedTransaction(onChain.transaction.UserTransaction))).toBe(toHex(encodeSignedTransaction(signed)));
    const info = onChain.info.V0;
    expect(info.gas_used.toString()).toBe(json.gas_used);
    expect(info.status).toEqual({ Success: true, $kind: "Success" });
    expect(toHex(info.transaction_hash)).toBe(json.hash);
    expect(toHex(info.state_change_hash)).toBe(json.state_change_hash);
    expect(toHex(info.event_root_hash)).toBe(json.event_root_hash);
    expect(info.state_checkpoint_hash).toBe(json.state_checkpoint_hash);
    expect(info.auxiliary_info_hash).toBeNull();
    expect(toHex(onChain.accumulator_root_hash)).toBe(json.accumulator_root_hash);
    // As the JSON form: no events, no changes.
    expect([onChain.events, json.events]).toEqual([[], []]);
    expect([onChain.changes, json.changes]).toEqual([{ V0: [], $kind: "V0" }, []]);
  });

  it.each(profiles)("%s profile: a failed transaction carries the ExecutionStatus its vm_status names", async (_n, which) => {
    const target = which();
    const from = fixtureAccount(target, 1);
    const balance = target.engine.ledger.state.latestAccount(from.address)?.balance ?? 0n;
    const hash = await submit(target, signedTransfer(target, from, target.fixtures.accounts[0]?.address ?? "", balance));
    (target.clock as ManualClock).advance(5_000);
    const { data, json } = await readBoth(target, hash);
    expect([json.success, json.vm_status]).toEqual([
      false,
      expect.stringMatching(/^Move abort in 0x1::coin: EINSUFFICIENT_BALANCE\(0x10006\)/),
    ]);
    if (data.$kind !== "OnChain") throw new Error(`expected OnChain, got ${data.$kind}`);
    const status = data.OnChain.info.V0.status;
    if (status.$kind !== "MoveAbort") throw new Error(`expected MoveAbort, got ${status.$kind}`);
    expect(status.MoveAbort.code).toBe(0x10006n);
    expect(status.MoveAbort.info).toBeNull();
    const location = status.MoveAbort.location;
    if (location.$kind !== "Module") throw new Error(`expected a module location, got ${location.$kind}`);
    expect([toHex(location.Module.address), location.Module.name]).toEqual([toHex(parseAddress("0x1")), "coin"]);
  });

  it("an unknown hash is still 404 transaction_not_found under BCS", async () => {
    const reply = await call(node.url, `/transactions/by_hash/${toHex(fromHex(`0x${"cd".repeat(32)}`))}`, { headers: BCS });
    expect(reply.status).toBe(404);
    expect((reply.json() as { error_code: string }).error_code).toBe("transaction_not_found");
  });
});
