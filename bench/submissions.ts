// Distinct, valid BCS submissions for the throughput run. Each request must carry a transaction the
// node has not seen, or the node answers it as a resubmission or a stale sequence number; so
// they are signed before the run (signing during it would take CPU from the server on 2 cores), spread
// over every fixture account with sequence numbers 0, 1, 2, … per account. Node's own ed25519 signs
// them (about twenty times faster here than the pure-JavaScript signer; ed25519 signatures are
// deterministic, so the bytes are the same), which lets the pool be far larger than any run needs.

import { createPrivateKey, sign, type KeyObject } from "node:crypto";
import { Ed25519Account, encodeSignedTransaction, parseAddress, signingMessage, type RawTransactionInput } from "../src/codec/index.ts";
import type { EngineFixtures } from "../src/node/ledger/index.ts";

const TRANSFER = { address: parseAddress("0x1"), name: "aptos_account" } as const;
/** Long enough for any run; the prologue only needs it after the chain's time. */
const TTL_SECONDS = 3_600n;
/** DER of a PKCS#8 ed25519 private key, up to the 32-byte seed. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

export class SubmissionPool {
  private next = 0;
  /** Requests that had to reuse a transaction because the pool ran out. */
  repeated = 0;

  constructor(
    readonly bodies: readonly Buffer[],
    /** How many accounts the transactions are spread over. */
    readonly senders: number,
  ) {
    if (bodies.length === 0) throw new RangeError("SubmissionPool needs at least one transaction");
  }

  /** The next unsent transaction; after the last one it starts over and counts the repeats. */
  take(): Buffer {
    if (this.next >= this.bodies.length) this.repeated++;
    const body = this.bodies[this.next % this.bodies.length] as Buffer;
    this.next++;
    return body;
  }
}

/**
 * `count` signed 0x1::aptos_account::transfer transactions, round-robin over the fixture accounts
 * (transaction i is account i mod n with sequence number floor(i / n)), each account paying the next.
 * Assumes fresh accounts (sequence number 0), as a newly started node's fixture accounts are.
 */
export function signTransfers(fixtures: EngineFixtures, count: number): SubmissionPool {
  const accounts = fixtures.accounts.map((a) => Ed25519Account.fromHex(a.privateKey));
  if (accounts.length === 0) throw new Error("the fixtures name no accounts to submit from");
  const keys = accounts.map(nodeKey);
  const expiration = BigInt(Math.floor(Date.now() / 1000)) + TTL_SECONDS;
  const amount = new Uint8Array(8);
  amount[0] = 1; // 1 octa, u64 little-endian
  const bodies: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const sender = accounts[i % accounts.length] as Ed25519Account;
    const key = keys[i % accounts.length] as KeyObject;
    const recipient = accounts[(i + 1) % accounts.length] as Ed25519Account;
    const raw: RawTransactionInput = {
      sender: sender.address,
      sequence_number: BigInt(Math.floor(i / accounts.length)),
      payload: { EntryFunction: { module: TRANSFER, function: "transfer", ty_args: [], args: [recipient.address, amount] } },
      max_gas_amount: 2_000n,
      gas_unit_price: 100n,
      expiration_timestamp_secs: expiration,
      chain_id: fixtures.chainId,
    };
    const signature = sign(null, signingMessage(raw), key);
    const signed = encodeSignedTransaction({ raw_txn: raw, authenticator: { Ed25519: { public_key: sender.publicKey, signature } } });
    bodies.push(Buffer.from(signed));
  }
  return new SubmissionPool(bodies, accounts.length);
}

function nodeKey(account: Ed25519Account): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, account.privateKey]), format: "der", type: "pkcs8" });
}
