// A client nobody here wrote (the Aptos TypeScript SDK) builds, signs and submits transactions to the
// reference node, over BCS and over JSON, and finds them in the sender's transaction summaries; it looks
// accounts up and waits for its transactions through the two endpoints the node serves beyond the spec
// (GET /accounts/{address}, GET /transactions/by_hash/{hash}). This is the reference node's end-to-end
// proof of interoperability (issues: the reference node, and 8 "Done when").

import {
  Account,
  AccountAuthenticatorEd25519,
  AptosApiError,
  Aptos,
  AptosConfig,
  Ed25519PrivateKey,
  Network,
  PrivateKey,
  PrivateKeyVariants,
  generateUserTransactionHash,
} from "@aptos-labs/ts-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/node/ledger/clock.ts";
import { startNode, type RunningNode } from "../../src/node/index.ts";

let node: RunningNode;
let clock: ManualClock;
let aptos: Aptos;

beforeAll(async () => {
  clock = new ManualClock();
  // The SDK speaks the aptos profile: X-APTOS- headers and application/x.aptos.signed_transaction+bcs.
  node = await startNode({ profile: "aptos", clock });
  aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: node.url }));
});

afterAll(async () => {
  await node?.close();
});

function fixtureAccount(index: number): Account {
  const fixture = node.fixtures.accounts[index];
  if (!fixture) throw new Error(`the node's fixtures have no account ${index}`);
  // AIP-80 form ("ed25519-priv-0x…") so the SDK takes the key without a warning.
  const key = PrivateKey.formatPrivateKey(fixture.privateKey, PrivateKeyVariants.Ed25519);
  return Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(key) });
}

/** Lets the node commit what its mempool holds: time moves past a block interval, a read produces the due blocks. */
async function summariesOf(address: string): Promise<{ transaction_hash: string; version: string }[]> {
  clock.advance(5_000);
  const res = await fetch(`${node.url}/accounts/${address}/transaction_summaries`);
  expect(res.status).toBe(200);
  return (await res.json()) as { transaction_hash: string; version: string }[];
}

describe("the Aptos TypeScript SDK against the reference node", () => {
  it("reads the chain id, the gas estimate, modules and a table item", async () => {
    expect(await aptos.getChainId()).toBe(node.fixtures.chainId);
    const estimate = await aptos.getGasPriceEstimation();
    expect(estimate.gas_estimate).toBeGreaterThan(0);
    const modules = await aptos.getAccountModules({ accountAddress: node.fixtures.moduleAccount });
    expect(modules.map((m) => m.abi?.name)).toContain(node.fixtures.moduleName);
    const module = await aptos.getAccountModule({ accountAddress: node.fixtures.moduleAccount, moduleName: node.fixtures.moduleName });
    expect(module.bytecode).toMatch(/^0xa11ceb0b/);
    const { handle, keyType, valueType, key } = node.fixtures.table;
    const item = await aptos.getTableItem<string>({ handle, data: { key_type: keyType, value_type: valueType, key } });
    expect(item).toMatch(/^0x[0-9a-f]+$/);
  });

  it("derives the same addresses from the fixture keys", () => {
    expect(node.fixtures.accounts.length).toBeGreaterThanOrEqual(3);
    for (const [index, fixture] of node.fixtures.accounts.entries()) {
      expect(BigInt(fixtureAccount(index).accountAddress.toStringLong())).toBe(BigInt(fixture.address));
    }
  });

  it("builds, signs and submits a transfer over BCS (202), which then appears in the sender's summaries", async () => {
    const sender = fixtureAccount(0);
    const recipient = fixtureAccount(1).accountAddress;
    // The SDK reads the chain id from GET /v1, the gas price from /estimate_gas_price and the entry
    // function's ABI from /accounts/0x1/module/aptos_account: all served by the node.
    const transaction = await aptos.transaction.build.simple({
      sender: sender.accountAddress,
      data: { function: "0x1::aptos_account::transfer", functionArguments: [recipient, 1_000] },
      options: { accountSequenceNumber: 0 },
    });
    const senderAuthenticator = aptos.transaction.sign({ signer: sender, transaction });
    const pending = await aptos.transaction.submit.simple({ transaction, senderAuthenticator });
    expect(pending.hash).toBe(generateUserTransactionHash({ transaction, senderAuthenticator }));

    const hashes = (await summariesOf(sender.accountAddress.toStringLong())).map((s) => s.transaction_hash);
    expect(hashes).toContain(pending.hash);
  });

  it("submits an SDK-signed transfer as JSON (202), which then appears in the sender's summaries", async () => {
    const sender = fixtureAccount(2);
    const recipient = fixtureAccount(1).accountAddress.toStringLong();
    const transaction = await aptos.transaction.build.simple({
      sender: sender.accountAddress,
      data: { function: "0x1::aptos_account::transfer", functionArguments: [recipient, 2_500] },
      options: { accountSequenceNumber: 0 },
    });
    const senderAuthenticator = aptos.transaction.sign({ signer: sender, transaction });
    expect(senderAuthenticator).toBeInstanceOf(AccountAuthenticatorEd25519);
    const ed25519 = senderAuthenticator as AccountAuthenticatorEd25519;
    const raw = transaction.rawTransaction;
    const body = {
      sender: sender.accountAddress.toStringLong(),
      sequence_number: raw.sequence_number.toString(),
      max_gas_amount: raw.max_gas_amount.toString(),
      gas_unit_price: raw.gas_unit_price.toString(),
      expiration_timestamp_secs: raw.expiration_timestamp_secs.toString(),
      payload: {
        type: "entry_function_payload",
        function: "0x1::aptos_account::transfer",
        type_arguments: [],
        arguments: [recipient, "2500"],
      },
      signature: {
        type: "ed25519_signature",
        public_key: ed25519.public_key.toString(),
        signature: ed25519.signature.toString(),
      },
    };
    const res = await fetch(`${node.url}/transactions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const pending = (await res.json()) as { hash: string };
    expect(res.status, JSON.stringify(pending)).toBe(202);
    // The node rebuilt the BCS transaction from JSON: the hash it reports is the SDK's own.
    expect(pending.hash).toBe(generateUserTransactionHash({ transaction, senderAuthenticator }));

    const hashes = (await summariesOf(sender.accountAddress.toStringLong())).map((s) => s.transaction_hash);
    expect(hashes).toContain(pending.hash);
  });

  it("looks an account up (getAccountInfo): its sequence number and authentication key; an unknown one is 404", async () => {
    const account = fixtureAccount(1);
    const info = await aptos.getAccountInfo({ accountAddress: account.accountAddress });
    const state = node.engine.ledger.state.latestAccount(account.accountAddress.toUint8Array());
    expect(info.sequence_number).toBe(String(state?.sequenceNumber));
    expect(info.authentication_key).toBe(account.publicKey.authKey().toString());
    const unknown = Account.generate().accountAddress;
    const error = await aptos.getAccountInfo({ accountAddress: unknown }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AptosApiError);
    expect((error as AptosApiError).status).toBe(404);
    expect((error as AptosApiError).data).toMatchObject({ error_code: "account_not_found" });
  });

  it("submits with the sequence number it looked up, sees the transaction pending, and waits for it (waitForTransaction)", async () => {
    const sender = fixtureAccount(1);
    // No accountSequenceNumber: the SDK reads it from GET /accounts/{address}.
    const transaction = await aptos.transaction.build.simple({
      sender: sender.accountAddress,
      data: { function: "0x1::aptos_account::transfer", functionArguments: [fixtureAccount(0).accountAddress, 700] },
    });
    const before = await aptos.getAccountInfo({ accountAddress: sender.accountAddress });
    expect(transaction.rawTransaction.sequence_number).toBe(BigInt(before.sequence_number));
    const senderAuthenticator = aptos.transaction.sign({ signer: sender, transaction });
    const pending = await aptos.transaction.submit.simple({ transaction, senderAuthenticator });

    const inMempool = await aptos.getTransactionByHash({ transactionHash: pending.hash });
    expect(inMempool.type).toBe("pending_transaction");
    expect(inMempool.hash).toBe(pending.hash);

    // Time moves past a block; the next request produces the block that commits it.
    clock.advance(5_000);
    const committed = await aptos.waitForTransaction({ transactionHash: pending.hash });
    expect(committed.type).toBe("user_transaction");
    expect(committed.success).toBe(true);
    expect(committed.vm_status).toBe("Executed successfully");
    expect(committed.hash).toBe(pending.hash);
    const after = await aptos.getAccountInfo({ accountAddress: sender.accountAddress });
    expect(BigInt(after.sequence_number)).toBe(BigInt(before.sequence_number) + 1n);
  });
});
