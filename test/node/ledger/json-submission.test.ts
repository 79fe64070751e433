// JSON submissions (the family's member names) become the signed transaction they describe, typed by the
// chain's own ABIs; anything that does not describe one is 400 invalid_input.

import { beforeAll, describe, expect, it } from "vitest";
import { signedTransactionToJson, type Ed25519Account } from "../../../src/codec/index.ts";
import { ledgerErrorOf, signedTransfer, testEngine, type TestEngine } from "./helpers.ts";

let t: TestEngine;
let alice: Ed25519Account;
let bob: Ed25519Account;

beforeAll(() => {
  t = testEngine();
  const [a, b] = t.genesis.keys.funded;
  if (!a || !b) throw new Error("funded accounts");
  [alice, bob] = [a, b];
});

/** The JSON request a client would send for `signed` (arguments typed by aptos_account::transfer's ABI). */
function requestFor(signed: ReturnType<typeof signedTransfer>): Record<string, unknown> {
  return signedTransactionToJson(signed, {
    functionParams: (address, module, fn) =>
      address === "0x1" && module === "aptos_account" && fn === "transfer" ? ["address", "u64"] : undefined,
  });
}

describe("signedTransactionFromJson", () => {
  it("reads a transfer request into the very transaction that was signed, and it is accepted", () => {
    const signed = signedTransfer(alice, { sequenceNumber: 0n, nowSeconds: t.engine.ledger.nowSeconds, to: bob.address, amount: 77n });
    const body = requestFor(signed);
    expect(body.payload).toMatchObject({ function: "0x1::aptos_account::transfer", arguments: [expect.stringMatching(/^0x/), "77"] });
    const parsed = t.engine.signedTransactionFromJson(body);
    expect(parsed).toEqual(signed);
    const result = t.engine.submit(parsed);
    expect(result.pendingJson).toMatchObject({ sender: body.sender, payload: body.payload, signature: body.signature });
  });

  it("answers 400 invalid_input for a request that does not describe a transaction", () => {
    const signed = signedTransfer(alice, { sequenceNumber: 1n, nowSeconds: t.engine.ledger.nowSeconds, to: bob.address });
    const body = requestFor(signed);
    const payload = body.payload as Record<string, unknown>;
    const bad: Record<string, unknown>[] = [
      {},
      { ...body, sender: "0xzz" },
      { ...body, sequence_number: 5 },
      { ...body, payload: { ...payload, function: "0x1::aptos_account::no_such_function" } },
      { ...body, payload: { ...payload, function: "0x1::coin::balance" } }, // a view function, not an entry function
      { ...body, payload: { ...payload, arguments: ["0x1"] } },
      { ...body, payload: { ...payload, arguments: ["0x1", "-3"] } },
      { ...body, payload: { type: "unknown_payload" } },
      { ...body, signature: { type: "ed25519_signature", public_key: "0x00", signature: "0x00" } },
    ];
    for (const request of bad) {
      const error = ledgerErrorOf(() => t.engine.signedTransactionFromJson(request));
      expect([error.status, error.code], JSON.stringify(request).slice(0, 120)).toEqual([400, "invalid_input"]);
    }
    for (const request of [null, "text", 42, []]) {
      const error = ledgerErrorOf(() => t.engine.signedTransactionFromJson(request));
      expect([error.status, error.code]).toEqual([400, "invalid_input"]);
    }
  });

  it("reads a module_bundle_payload, which submission then refuses with 400 invalid_input", () => {
    const body = {
      ...requestFor(signedTransfer(alice, { sequenceNumber: 1n, nowSeconds: t.engine.ledger.nowSeconds })),
      payload: { type: "module_bundle_payload" },
    };
    const parsed = t.engine.signedTransactionFromJson(body);
    expect(parsed.raw_txn.payload.$kind).toBe("ModuleBundle");
    const error = ledgerErrorOf(() => t.engine.submit(parsed));
    expect([error.status, error.code]).toEqual([400, "invalid_input"]);
  });
});
