// §4.8 Submit transaction, the success side: POST /v1/transactions takes a signed transaction as BCS
// (the profile's content type) or as the JSON submission request of §2.8, and accepts a valid one. The
// spec leaves the success unshown; the family's nodes give 202 with the pending transaction (an empty body with
// Accept application/x-bcs) and says an identical resubmission is accepted again.
//
// Every transaction here is a real transfer of 100 octas between two fixtures accounts, built and
// signed with the codec: each check calls t.requireSubmitAllowed() and t.needsFixture("accounts").
// The X-NODE-* headers of the 202 are checked by the observed contract on every response.

import { bytesEqual, parseAddress } from "../src/codec/index.ts";
import { check, describeEndpoint } from "../src/harness/index.ts";
import { sequenceNumberOf } from "./support/replay-protector.ts";
import { isSequenceConflict, send, submitSetup, submitValidTransfer, waitForCommit, type SubmitFormat } from "./support/submission.ts";

const FORMATS: readonly { format: SubmitFormat; variant: string }[] = [
  { format: "bcs", variant: "BCS" },
  { format: "json", variant: "JSON" },
];

const isSuccess = (status: number) => status >= 200 && status < 300;

function sameAddress(value: unknown, expected: string): boolean {
  try {
    return typeof value === "string" && bytesEqual(parseAddress(value), parseAddress(expected));
  } catch {
    return false;
  }
}

describeEndpoint("submit_transaction", { inOrder: true }, () => {
  check("4.8/bcs-submission-accepted", async (t) => {
    t.requireSubmitAllowed();
    t.needsFixture("accounts");
    const setup = await submitSetup(t, "accepted");
    const { res } = await submitValidTransfer(t, setup, "bcs");
    t.expect(isSuccess(res.status), `a valid transfer sent as ${t.profile.bcsSubmissionType} accepted with a 2xx`, res);
  });

  check("4.8/json-submission-accepted", async (t) => {
    t.requireSubmitAllowed();
    t.needsFixture("accounts");
    const setup = await submitSetup(t, "accepted");
    const { res } = await submitValidTransfer(t, setup, "json");
    t.expect(isSuccess(res.status), "a valid transfer sent as the application/json submission request accepted with a 2xx", res);
  });

  for (const { format, variant } of FORMATS) {
    check("4.8/accepted-with-202", { variant }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "accepted");
      const { res } = await submitValidTransfer(t, setup, format);
      t.expectStatus(res, 202);
    });

    check("4.8/pending-transaction-hash", { variant }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "accepted");
      const { res, tx } = await submitValidTransfer(t, setup, format);
      // The status is 4.8/accepted-with-202's to judge: this check judges the body of whatever success came.
      t.expect(isSuccess(res.status), "the transfer accepted with a 2xx", res);
      t.expectMediaType(res, "application/json");
      const pending = t.expectBodyMatchesSchema(res);
      t.expectEqual(
        String(pending.hash).toLowerCase(),
        tx.hash,
        'hash (SHA3-256 of the "APTOS::Transaction" salt, 0x00 and the signed transaction\'s BCS)',
        res,
      );
      // §2.1: leading zeros of an address may be stripped, so compare the 32 bytes.
      t.expect(
        sameAddress(pending.sender, setup.senderAddress),
        `sender ${setup.senderAddress}`,
        res,
        `sender ${JSON.stringify(pending.sender)}`,
      );
      t.expectEqual(pending.sequence_number, tx.sequenceNumber.toString(), "sequence_number", res);
    });
  }

  check("4.8/bcs-accept-empty-body", async (t) => {
    t.requireSubmitAllowed();
    t.needsFixture("accounts");
    const setup = await submitSetup(t, "accepted");
    const { res } = await submitValidTransfer(t, setup, "bcs", "bcs");
    // The status is 4.8/accepted-with-202's to judge: this check judges the body of whatever success came.
    t.expect(isSuccess(res.status), "the transfer accepted with a 2xx", res);
    t.expectEqual(res.body.length, 0, "the length of the success body with Accept application/x-bcs", res);
  });

  check("4.8/identical-resubmission-accepted", async (t) => {
    t.requireSubmitAllowed();
    t.needsFixture("accounts");
    const setup = await submitSetup(t, "accepted");
    // The resubmission must reach the node while the first copy is pending. Should a block commit it in
    // between (the node then rightly calls the number stale), the attempt says nothing: try a new one.
    for (let attempt = 0; attempt < 3; attempt++) {
      const { res: first, tx } = await submitValidTransfer(t, setup, "bcs");
      t.expect(isSuccess(first.status), "the first copy accepted with a 2xx", first);
      const again = await send(t, tx, "bcs");
      if (isSuccess(again.status) || !isSequenceConflict(again)) {
        t.expect(isSuccess(again.status), "the identical resubmission of a pending transaction accepted with a 2xx", again);
        return;
      }
      const from = t.ledgerState(first).ledgerVersion ?? 0n;
      const { summary } = await waitForCommit(t, setup, tx.hash, from);
      t.expect(
        summary !== undefined,
        "the identical resubmission accepted, or (when refused as stale) the first copy already committed",
        again,
      );
    }
    t.fail("an identical resubmission that reaches the node before the first copy is committed (3 attempts raced a block)");
  });

  for (const { format, variant } of FORMATS) {
    check("4.8/accepted-transaction-committed", { variant, timeoutMs: 40_000 }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "accepted");
      const { res, tx } = await submitValidTransfer(t, setup, format);
      t.expect(isSuccess(res.status), "the transfer accepted with a 2xx", res);
      const reported = (res.json as { hash?: unknown } | undefined)?.hash;
      const hash = typeof reported === "string" ? reported : tx.hash;
      const from = t.ledgerState(res).ledgerVersion;
      t.expect(from !== undefined, `a ${t.headerName("LEDGER-VERSION")} on the 202 (where to look for the commit)`, res);
      const { summary, res: last } = await waitForCommit(t, setup, hash, from ?? 0n);
      t.expect(
        summary !== undefined,
        `a summary with transaction_hash ${hash} in the sender's summaries from version ${from} within 10 s`,
        last,
      );
      t.expectEqual(
        sequenceNumberOf(summary?.replay_protector),
        tx.sequenceNumber,
        "the sequence number of the committed summary's replay_protector",
        last,
      );
    });
  }
});
