// §4.8 Submit transaction, signed transactions a node must refuse: a signature that is not a signature
// of the transaction, a sequence number already used, another chain's id, an expiration in the past, a
// module bundle (the family's convention). A valid transaction in a body the node must not read as one
// is submit-transaction-body-flaws's: a file and a sender of its own, so that behind a slow link the two
// files' checks, each going one after another, overlap. Each is built from a funded fixtures account
// with its next sequence number, so that the one flaw is the only reason to refuse it: a node
// that misses the flaw accepts it (and the check fails). That is also why every check here is gated by
// t.requireSubmitAllowed(): against a faulty node these transactions would change the ledger.
//
// The spec lists §4.8's error statuses but leaves their conditions unshown (§7.1): a refusal is a MUST
// as a client error (4xx), and the family's 400 and error codes are checked under their own SHOULDs.

import { check, describeEndpoint } from "../src/harness/index.ts";
import {
  buildTransfer,
  committedSequenceNumber,
  expectRefusedForFlaw,
  isSequenceConflict,
  isStaleSequenceRefusal,
  nextSequenceNumber,
  noteIfAccepted,
  pastExpiration,
  send,
  staleBookkeeping,
  submitSetup,
  withTamperedSignature,
  type SubmitFormat,
} from "./support/submission.ts";

const FORMATS: readonly { format: SubmitFormat; variant: string }[] = [
  { format: "bcs", variant: "BCS" },
  { format: "json", variant: "JSON" },
];

/**
 * Each refusal is checked twice: as the client's error (its MUST: §7.1 leaves the conditions of the
 * statuses unshown) and with the family's 400 (4.8/refusals-400, a SHOULD; for a Content-Type of neither
 * format 4.8/unsupported-body-400, which aptos-core answers 415). A check's variant names the case, and
 * for the SHOULD the MUST it goes with.
 */
type RefusalCheck = readonly [id: string, variant: (what: string) => string, status: 400 | undefined];
const refusalChecks = (must: string, should = "4.8/refusals-400"): readonly RefusalCheck[] => [
  [must, (what) => what, undefined],
  [should, (what) => `${what} (${must})`, 400],
];
const REFUSAL_CHECKS = refusalChecks("4.8/wrong-chain-id-rejected");
const EXPIRED_CHECKS = refusalChecks("4.8/expired-transaction-rejected");

/** An amount other than the usual one, so a transaction at a reused sequence number differs from the original. */
const OTHER_AMOUNT = 101n;

describeEndpoint("submit_transaction", { inOrder: true }, () => {
  for (const { format, variant } of FORMATS) {
    check("4.8/tampered-signature-rejected", { variant }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "rejected");
      const tx = withTamperedSignature(setup, buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup) }));
      expectRefusedForFlaw(t, setup, tx, await send(t, tx, format), "its tampered signature");
    });
  }

  check("4.8/tampered-signature-vm-error", async (t) => {
    t.requireSubmitAllowed();
    t.needsFixture("accounts");
    const setup = await submitSetup(t, "rejected");
    const tx = withTamperedSignature(setup, buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup) }));
    const res = await send(t, tx, "bcs");
    noteIfAccepted(setup, tx, res);
    if (isSequenceConflict(res)) staleBookkeeping(setup, tx, res, "the refusal says nothing about its tampered signature");
    t.expectError(res, 400, "vm_error");
    t.expectEqual((res.json as { vm_error_code?: unknown }).vm_error_code, 1, "vm_error_code (INVALID_SIGNATURE)", res);
  });

  for (const { format, variant } of FORMATS) {
    check("4.8/stale-sequence-number-rejected", { variant, timeoutMs: 40_000 }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "rejected");
      const used = await committedSequenceNumber(t, setup);
      const tx = buildTransfer(setup, { sequenceNumber: used, amount: OTHER_AMOUNT });
      const res = await send(t, tx, format);
      noteIfAccepted(setup, tx, res);
      t.expectClientError(res, `a transaction at sequence number ${used}, already committed`);
    });
  }

  check("4.8/stale-sequence-number-code", { timeoutMs: 40_000 }, async (t) => {
    t.requireSubmitAllowed();
    t.needsFixture("accounts");
    const setup = await submitSetup(t, "rejected");
    const used = await committedSequenceNumber(t, setup);
    const tx = buildTransfer(setup, { sequenceNumber: used, amount: OTHER_AMOUNT });
    const res = await send(t, tx, "bcs");
    noteIfAccepted(setup, tx, res);
    t.expectStatus(res, 400);
    const body = res.json as { error_code?: unknown; vm_error_code?: unknown };
    t.expect(
      isStaleSequenceRefusal(res),
      "error_code vm_error with vm_error_code 3 (SEQUENCE_NUMBER_TOO_OLD), or error_code sequence_number_too_old",
      res,
      `error_code ${JSON.stringify(body.error_code)}, vm_error_code ${JSON.stringify(body.vm_error_code)}`,
    );
  });

  // JSON carries no chain id (the node supplies its own), so only BCS can name another chain.
  for (const [id, variant, status] of REFUSAL_CHECKS) {
    check(id, { variant: variant("wrong chain id") }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "rejected");
      const chainId = (setup.chainId + 1) % 256;
      const tx = buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup), chainId });
      expectRefusedForFlaw(t, setup, tx, await send(t, tx, "bcs"), `its chain id ${chainId}`, status);
    });
  }

  for (const { format, variant: formatName } of FORMATS) {
    for (const [id, variant, status] of EXPIRED_CHECKS) {
      check(id, { variant: variant(formatName) }, async (t) => {
        t.requireSubmitAllowed();
        t.needsFixture("accounts");
        const setup = await submitSetup(t, "rejected");
        const tx = buildTransfer(setup, {
          sequenceNumber: await nextSequenceNumber(t, setup),
          expirationTimestampSecs: pastExpiration(setup),
        });
        expectRefusedForFlaw(t, setup, tx, await send(t, tx, format), "its past expiration", status);
      });
    }
  }

  for (const { format, variant } of FORMATS) {
    check("4.8/module-bundle-rejected", { variant }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "rejected");
      const tx = buildTransfer(setup, {
        sequenceNumber: await nextSequenceNumber(t, setup),
        payload: { ModuleBundle: { dummy_value: 0n } },
      });
      if (format === "json")
        t.expectEqual((tx.json.payload as { type?: unknown }).type, "module_bundle_payload", "the payload tag the suite sends");
      expectRefusedForFlaw(t, setup, tx, await send(t, tx, format), "its module bundle payload");
    });
  }
});
