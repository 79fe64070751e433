// §4.8 Submit transaction, with the inputs of §2.1 at their edges: an entry function's type argument
// written with blanks (§2.1 MoveType "Blank characters are ignored when two struct tags are compared";
// §2.8.1), and an entry function id whose module or function name is in another case (§2.1 "Module and
// function names are case-sensitive").
//
// The blanks: the same call without them is accepted, so with them it must be too, as the same
// transaction (the same hash). The case: no function has that name, so the call is refused, or, when a
// node accepts it to the mempool (a BCS payload is not checked against the modules before it runs), it
// is never committed as a success. Whether it ran is read from the family's transaction by hash (beyond
// the spec); a node without it leaves that case undecided.

import { encodeMoveValue, parseAddress, parseTypeTag, type TransactionPayloadInput } from "../src/codec/index.ts";
import { check, CheckNotApplicable, describeEndpoint, errorCodeOf, type CheckContext, type HttpResponse } from "../src/harness/index.ts";
import {
  buildTransfer,
  forgetSequenceNumber,
  isSequenceConflict,
  markSequenceNumberUsed,
  nextSequenceNumber,
  staleBookkeeping,
  submitSetup,
  TRANSFER_AMOUNT,
  waitForCommit,
  type BuiltTransaction,
  type SubmitFormat,
  type SubmitSetup,
} from "./support/submission.ts";
import { withBlanks } from "./support/type-blanks.ts";

const isSuccess = (status: number) => status >= 200 && status < 300;

const shown = (res: HttpResponse) =>
  `${res.status}${errorCodeOf(res) === undefined ? "" : ` ${errorCodeOf(res)}`}: ${res.text.slice(0, 200)}`;

/** A call of 0x1::{module}::{fn}<typeArgs>(recipient, amount): the transfer's arguments whatever the name. */
function call(setup: SubmitSetup, module: string, fn: string, typeArguments: readonly string[]): TransactionPayloadInput {
  return {
    EntryFunction: {
      module: { address: parseAddress("0x1"), name: module },
      function: fn,
      ty_args: typeArguments.map((a) => parseTypeTag(a)),
      args: [encodeMoveValue(parseTypeTag("address"), setup.recipient), encodeMoveValue(parseTypeTag("u64"), TRANSFER_AMOUNT.toString())],
    },
  };
}

/** The setup, with the transfer's parameters for `module::fn` too (so that its JSON form can be written). */
function callingAs(setup: SubmitSetup, module: string, fn: string): SubmitSetup {
  return {
    ...setup,
    functionParams: (address, m, f) =>
      address === "0x1" && m === module && f === fn
        ? setup.functionParams("0x1", "aptos_account", "transfer")
        : setup.functionParams(address, m, f),
  };
}

/** Sends `body` for `tx`; a refusal of the sequence number says nothing about the input: the check ends skipped. */
async function sendOnce(t: CheckContext, setup: SubmitSetup, tx: BuiltTransaction, body: { json: unknown } | { bcs: Uint8Array }) {
  const res = await t.request({ method: "POST", path: "/transactions", accept: "json", ...body });
  if (isSuccess(res.status)) markSequenceNumberUsed(setup, tx.sequenceNumber);
  else if (isSequenceConflict(res)) staleBookkeeping(setup, tx, res, "the refusal says nothing about the input");
  return res;
}

/** JSON type arguments with blanks: a struct tag (blanks around "::") and a generic one (blanks in its generics). */
const BLANK_CASES: readonly { readonly variant: string; readonly typeArgument: string }[] = [
  { variant: "entry function type argument 0x1 :: aptos_coin :: AptosCoin (JSON)", typeArgument: "0x1::aptos_coin::AptosCoin" },
  {
    variant: "entry function type argument 0x1 :: coin :: CoinStore< 0x1 :: aptos_coin :: AptosCoin > (JSON)",
    typeArgument: "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
  },
];

/** Entry function ids in another case than 0x1::aptos_account::transfer, and the format they go in. */
const CASE_CASES: readonly { readonly module: string; readonly fn: string; readonly format: SubmitFormat }[] = [
  { module: "Aptos_Account", fn: "transfer", format: "json" },
  { module: "aptos_account", fn: "Transfer", format: "json" },
  { module: "Aptos_Account", fn: "transfer", format: "bcs" },
];

describeEndpoint("submit_transaction", { inOrder: true }, () => {
  for (const { variant, typeArgument } of BLANK_CASES) {
    check("2.1/struct-tag-blanks-ignored", { variant }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = callingAs(await submitSetup(t, "accepted"), "aptos_account", "transfer_coins");
      const sequenceNumber = await nextSequenceNumber(t, setup);
      const tx = buildTransfer(setup, { sequenceNumber, payload: call(setup, "aptos_account", "transfer_coins", [typeArgument]) });
      const payload = tx.json.payload as Record<string, unknown>;
      const blanked = withBlanks(typeArgument);
      const res = await sendOnce(t, setup, tx, { json: { ...tx.json, payload: { ...payload, type_arguments: [blanked] } } });
      if (isSuccess(res.status)) {
        const hash = (res.json as { hash?: unknown } | undefined)?.hash;
        t.expect(
          typeof hash !== "string" || hash.toLowerCase() === tx.hash,
          `the transaction of type argument ${typeArgument} (hash ${tx.hash}): ${JSON.stringify(blanked)} is the same type (§2.1)`,
          res,
          `hash ${JSON.stringify(hash)}`,
        );
        return;
      }
      t.expect(res.status < 500, `not a server error for the type argument ${JSON.stringify(blanked)}`, res);
      // Refused: it is the blanks' doing only if the same call without them is accepted.
      const plain = await sendOnce(t, setup, tx, { json: tx.json });
      if (!isSuccess(plain.status)) {
        throw new CheckNotApplicable(`the call without blanks is refused too (${shown(plain)}): nothing to compare`);
      }
      t.fail(
        `the type argument ${JSON.stringify(blanked)} accepted as ${typeArgument} is (§2.1 "Blank characters are ignored")`,
        res,
        `with blanks: ${shown(res)}; the same transaction without them: ${shown(plain)}`,
      );
    });
  }

  for (const { module, fn, format } of CASE_CASES) {
    const id = `0x1::${module}::${fn}`;
    check("2.1/entry-function-id-case-sensitive", { variant: `${id} (${format.toUpperCase()})`, timeoutMs: 40_000 }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      // The sender of the transactions a node must refuse: one this node takes and never commits holds up
      // that sender only, not the one whose transfers must be accepted and committed.
      const setup = callingAs(await submitSetup(t, "rejected"), module, fn);
      const sequenceNumber = await nextSequenceNumber(t, setup);
      const tx = buildTransfer(setup, { sequenceNumber, payload: call(setup, module, fn, []) });
      const res = await sendOnce(t, setup, tx, format === "bcs" ? { bcs: tx.bytes } : { json: tx.json });
      if (!isSuccess(res.status)) {
        t.expectClientError(res, `${id} names no function (names are case-sensitive, §2.1)`);
        return;
      }
      // Accepted to the mempool: it must not run as 0x1::aptos_account::transfer.
      const from = t.ledgerState(res).ledgerVersion ?? 0n;
      const { summary } = await waitForCommit(t, setup, tx.hash, from);
      if (summary === undefined) {
        forgetSequenceNumber(setup, tx.sequenceNumber);
        throw new CheckNotApplicable(`${id} was accepted and not committed within 10 s: whether it runs cannot be told yet`);
      }
      const found = await t.request({ path: `/transactions/by_hash/${tx.hash}` });
      const success = (found.json as { success?: unknown } | undefined)?.success;
      if (found.status !== 200 || typeof success !== "boolean") {
        throw new CheckNotApplicable(
          `${id} was accepted and committed; whether it ran cannot be read: GET /transactions/by_hash (beyond the spec) answered ${shown(found)}`,
        );
      }
      t.expect(
        !success,
        `${id} committed as a failure: no function has that name (names are case-sensitive, §2.1)`,
        found,
        `success ${success}`,
      );
    });
  }
});
