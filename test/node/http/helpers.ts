// Shared by the HTTP tests: real requests over a socket (undici) to a node started on port 0.

import { expect } from "vitest";
import { request } from "undici";
import {
  Ed25519Account,
  encodeSignedTransaction,
  parseAddress,
  signedTransactionToJson,
  type SignedTransaction,
} from "../../../src/codec/index.ts";
import { ERROR_CODES } from "../../../src/node/ledger/api.ts";
import type { RunningNode } from "../../../src/node/index.ts";

export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly bytes: Uint8Array;
  readonly text: string;
  json(): unknown;
}

export interface CallOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Uint8Array;
}

/** `path` is relative to the node's base URL (which ends in /v1), e.g. "/accounts/0x1/modules". */
export async function call(base: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const response = await request(`${base}${path}`, {
    method: (options.method ?? "GET") as "GET",
    headers: options.headers,
    body: options.body,
  });
  const bytes = new Uint8Array(await response.body.arrayBuffer());
  const text = Buffer.from(bytes).toString("utf8");
  return { status: response.statusCode, headers: response.headers, bytes, text, json: () => JSON.parse(text) };
}

export function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return call(base, path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

export const LEDGER_HEADERS = [
  "CHAIN-ID",
  "LEDGER-VERSION",
  "LEDGER-OLDEST-VERSION",
  "LEDGER-TIMESTAMPUSEC",
  "EPOCH",
  "BLOCK-HEIGHT",
  "OLDEST-BLOCK-HEIGHT",
] as const;

export function header(reply: Reply, name: string): string | undefined {
  const value = reply.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(",") : value;
}

/** The §2.7 headers as bigints; fails unless every one is present and a decimal integer. */
export function ledgerHeaders(reply: Reply, prefix = "X-NODE-"): Record<(typeof LEDGER_HEADERS)[number], bigint> {
  const out = {} as Record<(typeof LEDGER_HEADERS)[number], bigint>;
  for (const name of LEDGER_HEADERS) {
    const value = header(reply, `${prefix}${name}`);
    expect(value, `${prefix}${name} on a ${reply.status}`).toMatch(/^[0-9]+$/);
    out[name] = BigInt(value as string);
  }
  return out;
}

export function ledgerVersion(reply: Reply, prefix = "X-NODE-"): bigint {
  return ledgerHeaders(reply, prefix)["LEDGER-VERSION"];
}

/** An error reply: status, §2.6 body with the code, the §2.7 headers, and never a cursor. */
export function expectError(reply: Reply, status: number, code: string, prefix = "X-NODE-"): void {
  expect(reply.status, reply.text).toBe(status);
  expect(header(reply, "content-type")).toMatch(/^application\/json/);
  const body = reply.json() as { message: unknown; error_code: unknown };
  expect(typeof body.message).toBe("string");
  expect(ERROR_CODES).toContain(body.error_code);
  expect(body.error_code, reply.text).toBe(code);
  ledgerHeaders(reply, prefix);
  expect(header(reply, `${prefix}CURSOR`)).toBeUndefined();
}

export function expectOk(reply: Reply, prefix = "X-NODE-"): void {
  expect(reply.status, reply.text).toBe(200);
  ledgerHeaders(reply, prefix);
}

export const BCS = { accept: "application/x-bcs" };

/** The account's next sequence number, committed and pending. */
export function nextSequenceNumber(node: RunningNode, account: Ed25519Account): bigint {
  const committed = node.engine.ledger.state.latestAccount(account.address)?.sequenceNumber ?? 0n;
  return committed + BigInt(node.engine.mempool.pendingOf(account.address).length);
}

/** A signed 0x1::aptos_account::transfer from a fixtures account, valid for a minute of chain time. */
export function signedTransfer(
  node: RunningNode,
  from: Ed25519Account,
  to: string,
  amount: bigint,
  sequenceNumber?: bigint,
): SignedTransaction {
  return from.signTransaction({
    sender: from.address,
    sequence_number: sequenceNumber ?? nextSequenceNumber(node, from),
    payload: {
      EntryFunction: {
        module: { address: parseAddress("0x1"), name: "aptos_account" },
        function: "transfer",
        ty_args: [],
        args: [parseAddress(to), u64Bytes(amount)],
      },
    },
    max_gas_amount: 2_000n,
    gas_unit_price: 100n,
    expiration_timestamp_secs: node.engine.ledger.nowSeconds + 60n,
    chain_id: node.fixtures.chainId,
  });
}

export function transferJson(signed: SignedTransaction): Record<string, unknown> {
  return signedTransactionToJson(signed, {
    functionParams: (address, module, fn) =>
      parseAddress(address)[31] === 1 && module === "aptos_account" && fn === "transfer" ? ["address", "u64"] : undefined,
  }) as Record<string, unknown>;
}

export function bcsBody(signed: SignedTransaction): Uint8Array {
  return encodeSignedTransaction(signed);
}

function u64Bytes(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

export function fixtureAccount(node: RunningNode, index: number): Ed25519Account {
  const account = node.fixtures.accounts[index];
  if (account === undefined) throw new Error(`the fixtures have no account ${index}`);
  return Ed25519Account.fromHex(account.privateKey);
}
