// §2.8.2 Signature variants, each submitted for real (§4.8, in both formats): multi_ed25519,
// multi_agent, fee_payer (with and without a secondary signer, and the sponsored creation of a new
// account), single_sender with single_key ed25519, secp256k1_ecdsa and secp256r1_ecdsa (a web_authn
// assertion, the one form a secp256r1 key signs in), and multi_key mixing schemes. Each valid one must
// be accepted and committed; each has a tampered twin (one byte of one signature changed, or one
// signature over other bytes) that must be refused. The kinds whose proof needs a provider the suite
// cannot be (keyless, federated_keyless, a passkey's web_authn, abstraction) are sent malformed and
// must be refused as the client's error.
//
// The forms' accounts are the suite's own (suites/support/signature-forms.ts): keys derived from the
// run's seed, created and funded by transfers from a fixtures account; the forms go out concurrently
// and their commits are awaited together. Every check calls t.requireSubmitAllowed() and
// t.needsFixture("accounts").

import { CheckSkipped, check, describeEndpoint, type CheckContext } from "../src/harness/index.ts";
import { sequenceNumberOf } from "./support/replay-protector.ts";
import { FORMS, formAttempt, SIGNATURE_FORM_FORMATS, UNVERIFIABLE, unverifiableAttempt } from "./support/signature-forms.ts";
import { isSequenceConflict, waitForCommit, type SubmitFormat } from "./support/submission.ts";

const FORMAT_NAME: Record<SubmitFormat, string> = { bcs: "BCS", json: "JSON" };
const isSuccess = (status: number) => status >= 200 && status < 300;
/** Funding, the twin, the valid transaction and its commit: two waits of up to 10 s each. */
const TIMEOUT_MS = 40_000;

function preconditions(t: CheckContext): void {
  t.requireSubmitAllowed();
  t.needsFixture("accounts");
}

describeEndpoint("submit_transaction", () => {
  for (const form of FORMS) {
    for (const format of SIGNATURE_FORM_FORMATS) {
      const variant = `${form.name}, ${FORMAT_NAME[format]}`;
      const sentAs = format === "bcs" ? "as BCS" : "as the JSON submission request";

      check("2.8.2/signature-variants-accepted", { variant, timeoutMs: TIMEOUT_MS }, async (t) => {
        preconditions(t);
        const { sender, valid, twinRes, validRes } = await formAttempt(t, form.name, format);
        // A node that took the twin gave it the sequence number: its refusal of the valid one then says
        // nothing more (2.8.2/tampered-variants-refused has failed the twin).
        if (isSuccess(twinRes.status) && isSequenceConflict(validRes))
          throw new CheckSkipped(
            `the tampered twin of the ${form.name} transaction was accepted and took sequence number ${valid.sequenceNumber}, so the valid one was refused as a conflict`,
          );
        t.expect(isSuccess(validRes.status), `a valid transfer signed with ${form.what}, sent ${sentAs}, accepted with a 2xx`, validRes);
        const reported = (validRes.json as { hash?: unknown } | undefined)?.hash;
        const hash = typeof reported === "string" ? reported : valid.hash;
        const from = t.ledgerState(validRes).ledgerVersion ?? 0n;
        const { summary, res } = await waitForCommit(t, sender, hash, from);
        t.expect(
          summary !== undefined,
          `the accepted ${form.name} transaction (${hash}) committed: in the summaries of its sender ${sender.senderAddress} from version ${from} within 10 s`,
          res,
        );
        t.expectEqual(
          sequenceNumberOf(summary?.replay_protector),
          valid.sequenceNumber,
          `the committed ${form.name} transaction's sequence number`,
          res,
        );
      });

      check("2.8.2/tampered-variants-refused", { variant, timeoutMs: TIMEOUT_MS }, async (t) => {
        preconditions(t);
        const { twinRes } = await formAttempt(t, form.name, format);
        t.expectClientError(twinRes, `the ${form.name} transaction with ${form.twin}, sent ${sentAs}, refused`);
      });
    }
  }

  for (const kind of UNVERIFIABLE) {
    for (const format of SIGNATURE_FORM_FORMATS) {
      check(
        "2.8.2/unverifiable-signatures-refused",
        { variant: `${kind.name}, ${FORMAT_NAME[format]}`, timeoutMs: TIMEOUT_MS },
        async (t) => {
          preconditions(t);
          const res = await unverifiableAttempt(t, kind.name, format);
          t.expectClientError(
            res,
            `a sponsored transaction from a new account whose sender signature is ${kind.what}, sent ${format === "bcs" ? "as BCS" : "as JSON"}, refused`,
          );
        },
      );
    }
  }
});
