// §2.8.1 Payload variants, the forms beyond the entry function that submit-transaction-accepted sends:
// a script_payload (a compiled Move script whose main transfers through 0x1::aptos_account::transfer)
// is accepted and committed; a multisig_payload is read as one (accepted, or refused with the VM's
// reason, never as unreadable input), and one that executes the next approved proposal of the fixtures'
// multisig account is accepted and committed; and an orderless transaction (a replay-protection nonce, the u64
// §2.8 shows between the payload and the signature) once committed is in the sender's summaries (§2.3
// "A summary covers committed transactions of both sequence-number-based and orderless kinds").
// Each form is sent in both formats of §4.8, and each has its tampered twin, the same transaction
// with one bit of its signature flipped, which must be refused (4.8/tampered-signature-rejected).
//
// Every transaction here is built and signed with the codec from the fixtures accounts, and may be
// accepted: each check calls t.requireSubmitAllowed() and t.needsFixture("accounts").

import { bytesEqual, Ed25519Account, formatAddress, parseAddress, type TransactionPayloadInput } from "../src/codec/index.ts";
import {
  CheckNotApplicable,
  CheckSkipped,
  check,
  describeEndpoint,
  errorCodeOf,
  vmErrorCodeOf,
  type CheckContext,
  type HttpResponse,
} from "../src/harness/index.ts";
import { buildOrderlessTransfer, multisigTransferPayload, randomNonce, scriptTransferPayload } from "./support/payload-forms.ts";
import { readReplayProtector, sequenceNumberOf } from "./support/replay-protector.ts";
import {
  buildTransfer,
  expectRefusedForFlaw,
  nextSequenceNumber,
  send,
  submitSetup,
  submitValidPayload,
  waitForCommit,
  withTamperedSignature,
  type SubmitFormat,
  type SubmitSetup,
} from "./support/submission.ts";

const FORMATS: readonly { format: SubmitFormat; variant: string }[] = [
  { format: "bcs", variant: "BCS" },
  { format: "json", variant: "JSON" },
];

const isSuccess = (status: number) => status >= 200 && status < 300;

/** The error codes that say the node could not read the request (§7.2), as opposed to the VM refusing what it asks. */
const UNREADABLE: ReadonlySet<string> = new Set(["invalid_input", "web_framework_error"]);

/**
 * The account a multisig payload names: a fixtures account other than the sender. It is not a
 * multisig account, so the VM refuses (or, executing it, fails) what the payload asks; the form is
 * what the check is about.
 */
function multisigAddressFor(t: CheckContext, setup: SubmitSetup): string {
  const other = t.needsFixture("accounts").find((a) => !bytesEqual(parseAddress(a.address), setup.senderBytes));
  return formatAddress(parseAddress(other?.address ?? setup.recipient));
}

/** Where the family shows a committed transaction (GET /transactions/by_hash/{hash}, beyond the spec): its version, if it shows one. */
async function committedVersionByHash(t: CheckContext, hash: string): Promise<{ version: string | undefined; res: HttpResponse }> {
  const res = await t.request({ path: `/transactions/by_hash/${hash}` });
  const json = res.json as { type?: unknown; version?: unknown } | undefined;
  const committed = res.status === 200 && json?.type === "user_transaction" && typeof json.version === "string";
  return { version: committed ? (json?.version as string) : undefined, res };
}

/** The family's VM status for a multisig account with no proposal to execute next (vm_status.rs StatusCode). */
const MULTISIG_TRANSACTION_NOT_FOUND = 33;

/** The signing setup of the fixtures account `owner` (the multisig account's owner): not applicable without its key. */
async function ownerSetup(t: CheckContext, owner: string): Promise<SubmitSetup> {
  const accounts = t.needsFixture("accounts");
  const entry = accounts.find((a) => bytesEqual(parseAddress(a.address), parseAddress(owner)));
  if (entry === undefined)
    throw new CheckNotApplicable(
      `the fixtures' accounts hold no key of multisigAccount.owner ${owner}, who must send the multisig transaction`,
    );
  const setup = await submitSetup(t, "accepted");
  const senderBytes = parseAddress(entry.address);
  return { ...setup, sender: Ed25519Account.fromHex(entry.privateKey), senderBytes, senderAddress: formatAddress(senderBytes) };
}

describeEndpoint("submit_transaction", { inOrder: true }, () => {
  for (const { format, variant } of FORMATS) {
    check("2.8.1/script-payload-accepted", { variant, timeoutMs: 40_000 }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "accepted");
      const { res, tx } = await submitValidPayload(t, setup, format, scriptTransferPayload(setup));
      t.expect(
        isSuccess(res.status),
        `a valid transaction with a script_payload (a transfer by script) sent as ${variant}, accepted with a 2xx`,
        res,
      );
      const from = t.ledgerState(res).ledgerVersion;
      const { summary, res: last } = await waitForCommit(t, setup, tx.hash, from ?? 0n);
      t.expect(
        summary !== undefined,
        `the script transaction ${tx.hash} committed: in the sender's summaries from version ${from ?? 0n} within 10 s`,
        last,
      );
      t.expectEqual(sequenceNumberOf(summary?.replay_protector), tx.sequenceNumber, "the sequence number of the committed summary", last);
    });

    check("4.8/tampered-signature-rejected", { variant: `script payload, ${variant}` }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "rejected");
      const signed = buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup), payload: scriptTransferPayload(setup) });
      const tx = withTamperedSignature(setup, signed);
      expectRefusedForFlaw(t, setup, tx, await send(t, tx, format), "the tampered signature of its script payload");
    });

    check("2.8.1/multisig-payload-understood", { variant }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "accepted");
      const payload = multisigTransferPayload(setup, multisigAddressFor(t, setup));
      const { res } = await submitValidPayload(t, setup, format, payload);
      if (isSuccess(res.status)) return;
      const code = errorCodeOf(res);
      const vmCode = vmErrorCodeOf(res);
      t.expect(
        res.status >= 400 && res.status < 500 && (code === "vm_error" || vmCode !== undefined) && !UNREADABLE.has(code ?? ""),
        `a multisig_payload sent as ${variant} read as one: accepted with a 2xx, or refused by the VM (a 4xx with error_code vm_error or a vm_error_code), never as unreadable input`,
        res,
        `status ${res.status}, error_code ${JSON.stringify(code)}${vmCode === undefined ? "" : `, vm_error_code ${vmCode}`}`,
      );
    });

    check("2.8.1/multisig-payload-accepted", { variant, timeoutMs: 40_000 }, async (t) => {
      t.requireSubmitAllowed();
      const multisig = t.needsFixture("multisigAccount");
      const setup = await ownerSetup(t, multisig.owner);
      const payload: TransactionPayloadInput = {
        Multisig: { multisig_address: parseAddress(multisig.address), transaction_payload: null },
      };
      const { res, tx } = await submitValidPayload(t, setup, format, payload);
      if (res.status >= 400 && res.status < 500 && vmErrorCodeOf(res) === MULTISIG_TRANSACTION_NOT_FOUND)
        throw new CheckNotApplicable(
          `the multisig account ${multisig.address} of the fixtures has no proposal left to execute (vm_error_code ${MULTISIG_TRANSACTION_NOT_FOUND}, MULTISIG_TRANSACTION_NOT_FOUND)`,
        );
      t.expect(
        isSuccess(res.status),
        `a multisig transaction of the owner ${setup.senderAddress} executing the next proposal of ${multisig.address} (a multisig_payload without an inner payload) sent as ${variant}, accepted with a 2xx`,
        res,
      );
      const from = t.ledgerState(res).ledgerVersion;
      const { summary, res: last } = await waitForCommit(t, setup, tx.hash, from ?? 0n);
      t.expect(
        summary !== undefined,
        `the multisig transaction ${tx.hash} committed: in the owner's summaries from version ${from ?? 0n} within 10 s`,
        last,
      );
    });

    check("4.8/tampered-signature-rejected", { variant: `multisig payload, ${variant}` }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "rejected");
      const payload = multisigTransferPayload(setup, multisigAddressFor(t, setup));
      const tx = withTamperedSignature(setup, buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup), payload }));
      expectRefusedForFlaw(t, setup, tx, await send(t, tx, format), "the tampered signature of its multisig payload");
    });

    check("4.8/tampered-signature-rejected", { variant: `orderless, ${variant}` }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "rejected");
      const tx = withTamperedSignature(setup, buildOrderlessTransfer(setup, randomNonce()));
      expectRefusedForFlaw(t, setup, tx, await send(t, tx, format), "the tampered signature of an orderless transaction");
    });
  }
});

describeEndpoint("get_account_transaction_summaries", { inOrder: true }, () => {
  for (const { format, variant } of FORMATS) {
    check("2.3/orderless-summarized", { variant, timeoutMs: 40_000 }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "accepted");
      const nonce = randomNonce();
      const tx = buildOrderlessTransfer(setup, nonce);
      const res = await send(t, tx, format);
      if (!isSuccess(res.status)) {
        throw new CheckNotApplicable(
          `the node did not accept the orderless transfer ${tx.hash} (nonce ${nonce}) sent as ${variant} (status ${res.status}` +
            `${errorCodeOf(res) === undefined ? "" : `, ${errorCodeOf(res)}`}), so there is no committed orderless transaction to look for`,
        );
      }
      const from = t.ledgerState(res).ledgerVersion ?? 0n;
      const { summary, res: last } = await waitForCommit(t, setup, tx.hash, from);
      if (summary === undefined) {
        const { version, res: byHash } = await committedVersionByHash(t, tx.hash);
        if (version === undefined)
          throw new CheckSkipped(
            `the orderless transfer ${tx.hash} is not in the sender's summaries from version ${from} within 10 s, and the node does not show it committed (GET /transactions/by_hash: ${byHash.status})`,
          );
        return t.fail(
          `the orderless transfer ${tx.hash}, committed at version ${version} (GET /transactions/by_hash), in the sender's summaries from version ${from}`,
          last,
          "no summary with its transaction_hash",
        );
      }
      const protector = readReplayProtector(summary.replay_protector);
      t.expect(
        protector !== undefined && protector.kind !== "sequence_number" && protector.value === nonce,
        `the summary's replay_protector carries the nonce ${nonce} (not a sequence number)`,
        last,
        `replay_protector ${JSON.stringify(summary.replay_protector)}`,
      );
    });
  }
});
