// A publish_package_txn submitted over HTTP (§4.8) and read back (§4.5, §4.6): the committed transaction
// reports success, and its module is in the sender's modules listing and served by name, in JSON and in
// BCS, at its version and later, and not at the version before.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeBcs,
  minimalModule,
  ModuleBytecodeBcs,
  ModuleMapBcs,
  moduleIdString,
  publishPackageCall,
  toHex,
  transactionHash,
  type Ed25519Account,
} from "../../../src/codec/index.ts";
import { startNode, type RunningNode } from "../../../src/node/index.ts";
import { ManualClock } from "../../../src/node/ledger/index.ts";
import { BCS, bcsBody, call, expectError, expectOk, fixtureAccount, nextSequenceNumber } from "./helpers.ts";

let node: RunningNode;
let sender: Ed25519Account;
let address: string;
let version: bigint;
const NAME = "http_walked";

beforeAll(async () => {
  node = await startNode({ clock: new ManualClock() });
  sender = fixtureAccount(node, 2);
  address = node.fixtures.accounts[2]?.address ?? "";
  const signed = sender.signTransaction({
    sender: sender.address,
    sequence_number: nextSequenceNumber(node, sender),
    payload: { EntryFunction: publishPackageCall(sender.address, "http_pkg", [NAME]) },
    max_gas_amount: 20_000n,
    gas_unit_price: 100n,
    expiration_timestamp_secs: node.engine.ledger.nowSeconds + 60n,
    chain_id: node.fixtures.chainId,
  });
  const body = bcsBody(signed);
  const submitted = await call(node.url, "/transactions", {
    method: "POST",
    body,
    headers: { "content-type": "application/x.node.signed_transaction+bcs" },
  });
  expect(submitted.status, submitted.text).toBe(202);
  (node.clock as ManualClock).advance(3_000);
  const committed = await call(node.url, `/transactions/by_hash/${toHex(transactionHash(body))}`);
  expectOk(committed);
  const txn = committed.json() as { type: string; version: string; success: boolean; vm_status: string };
  expect([txn.type, txn.success, txn.vm_status]).toEqual(["user_transaction", true, "Executed successfully"]);
  version = BigInt(txn.version);
});
afterAll(() => node.close());

describe("a module published over HTTP", () => {
  it("is in the sender's modules listing from its version on, in JSON and in BCS", async () => {
    const json = await call(node.url, `/accounts/${address}/modules?ledger_version=${version}`);
    expectOk(json);
    const modules = json.json() as { bytecode: string; abi: { address: string; name: string } }[];
    expect(modules.map((m) => m.abi.name)).toEqual([NAME]);
    expect(modules[0]?.bytecode).toBe(toHex(minimalModule(sender.address, NAME)));
    expect(modules[0]?.abi.address).toBe(address);

    const bcs = await call(node.url, `/accounts/${address}/modules?ledger_version=${version}`, { headers: BCS });
    expectOk(bcs);
    expect(decodeBcs(ModuleMapBcs, bcs.bytes).map((e) => [e.key, toHex(e.value)])).toEqual([
      [moduleIdString(sender.address, NAME), toHex(minimalModule(sender.address, NAME))],
    ]);

    const before = await call(node.url, `/accounts/${address}/modules?ledger_version=${version - 1n}`);
    expectOk(before);
    expect(before.json()).toEqual([]);
  });

  it("is served by name from its version on, in JSON and in BCS, and is not found at the version before", async () => {
    const path = `/accounts/${address}/module/${NAME}`;
    const json = await call(node.url, `${path}?ledger_version=${version}`);
    expectOk(json);
    expect((json.json() as { abi: { name: string } }).abi.name).toBe(NAME);
    const bcs = await call(node.url, path, { headers: BCS });
    expectOk(bcs);
    expect(decodeBcs(ModuleBytecodeBcs, bcs.bytes)).toEqual(minimalModule(sender.address, NAME));
    expectError(await call(node.url, `${path}?ledger_version=${version - 1n}`), 404, "module_not_found");
  });
});
