// The Aptos TypeScript SDK's sponsored flow against the reference node, in both profiles: a brand-new
// account sends a transaction whose gas a funded account pays (withFeePayer), and afterwards the node
// answers the new account (aptos-core creates it: aptos_vm.rs `is_account_init_for_sponsored_transaction`).
// The SDK builds and signs in both profiles. Under the aptos profile it also submits and waits, as it
// would with a real fullnode; under the node profile, whose submission type and headers the SDK does
// not speak, the SDK's signed transaction goes out as the node profile's BCS submission and is waited
// for with plain requests.

import {
  Account,
  Aptos,
  AptosConfig,
  Ed25519PrivateKey,
  generateSignedTransaction,
  generateUserTransactionHash,
  Network,
  PrivateKey,
  PrivateKeyVariants,
  type AnyRawTransaction,
  type AccountAuthenticator,
} from "@aptos-labs/ts-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WIRE_PROFILES, type ProfileName } from "../../src/codec/index.ts";
import { ManualClock } from "../../src/node/ledger/clock.ts";
import { startNode, type RunningNode } from "../../src/node/index.ts";

interface Signed {
  readonly transaction: AnyRawTransaction;
  readonly senderAuthenticator: AccountAuthenticator;
  readonly feePayerAuthenticator: AccountAuthenticator;
}

/** Submits and waits: the SDK itself under the aptos profile, plain requests under the node profile. */
type Submit = (node: RunningNode, clock: ManualClock, aptos: Aptos, signed: Signed) => Promise<{ success: boolean; vm_status: string }>;

const SUBMIT: Record<ProfileName, Submit> = {
  aptos: async (_node, clock, aptos, signed) => {
    const pending = await aptos.transaction.submit.simple(signed);
    clock.advance(5_000);
    return aptos.waitForTransaction({ transactionHash: pending.hash });
  },
  node: async (node, clock, _aptos, signed) => {
    const body = generateSignedTransaction(signed);
    const res = await fetch(`${node.url}/transactions`, {
      method: "POST",
      headers: { "content-type": WIRE_PROFILES.node.bcsSubmissionType },
      body,
    });
    const pending = (await res.json()) as { hash: string };
    expect(res.status, JSON.stringify(pending)).toBe(202);
    expect(pending.hash).toBe(generateUserTransactionHash(signed));
    clock.advance(5_000);
    const found = await fetch(`${node.url}/transactions/by_hash/${pending.hash}`);
    expect(found.status).toBe(200);
    const committed = (await found.json()) as { type: string; success: boolean; vm_status: string };
    expect(committed.type).toBe("user_transaction");
    return committed;
  },
};

for (const profile of ["aptos", "node"] as const) {
  describe(`the SDK's sponsored flow creates the sender's account (${profile} profile)`, () => {
    let node: RunningNode;
    let clock: ManualClock;
    let aptos: Aptos;

    beforeAll(async () => {
      clock = new ManualClock();
      node = await startNode({ profile, clock });
      aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: node.url }));
    });

    afterAll(async () => {
      await node?.close();
    });

    function fixtureAccount(index: number): Account {
      const fixture = node.fixtures.accounts[index];
      if (!fixture) throw new Error(`the node's fixtures have no account ${index}`);
      const key = PrivateKey.formatPrivateKey(fixture.privateKey, PrivateKeyVariants.Ed25519);
      return Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(key) });
    }

    it("a brand-new account's fee-payer transaction commits, and GET /accounts/{address} answers the account", async () => {
      const alice = Account.generate();
      const sponsor = fixtureAccount(1);
      const address = alice.accountAddress.toStringLong();
      expect((await fetch(`${node.url}/accounts/${address}`)).status).toBe(404);
      const sponsorBefore = node.engine.ledger.state.latestAccount(sponsor.accountAddress.toUint8Array())?.balance ?? 0n;

      const transaction = await aptos.transaction.build.simple({
        sender: alice.accountAddress,
        withFeePayer: true,
        data: { function: "0x1::aptos_account::transfer", functionArguments: [fixtureAccount(0).accountAddress, 0] },
        options: { accountSequenceNumber: 0 },
      });
      const senderAuthenticator = aptos.transaction.sign({ signer: alice, transaction });
      const feePayerAuthenticator = aptos.transaction.signAsFeePayer({ signer: sponsor, transaction });
      const committed = await SUBMIT[profile](node, clock, aptos, { transaction, senderAuthenticator, feePayerAuthenticator });
      expect(committed.success, committed.vm_status).toBe(true);

      const res = await fetch(`${node.url}/accounts/${address}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ sequence_number: "1", authentication_key: alice.publicKey.authKey().toString() });
      const sponsorAfter = node.engine.ledger.state.latestAccount(sponsor.accountAddress.toUint8Array())?.balance ?? 0n;
      expect(sponsorAfter).toBeLessThan(sponsorBefore);
    });
  });
}
