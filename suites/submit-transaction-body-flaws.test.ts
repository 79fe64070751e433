// §4.8 Submit transaction, a valid signed transaction in a body the node must not read as it: under a
// Content-Type of neither format, as JSON with members of the wrong type, and as BCS followed by one
// more byte. Each is built from a funded fixtures account of its own (the "bodies" sender) with its
// next sequence number, so that the one flaw is the only reason to refuse it: a node that misses the
// flaw accepts it (and the check fails). That is also why every check here is gated by
// t.requireSubmitAllowed(): against a faulty node these transactions would change the ledger. The
// transactions with a flaw of their own (signature, sequence number, chain, expiration, payload) are
// submit-transaction-rejected's; the two files' checks go one after another each (a sender's sequence
// numbers), and with a sender each, the files overlap.
//
// The spec lists §4.8's error statuses but leaves their conditions unshown (§7.1): a refusal is a MUST
// as a client error (4xx), and the family's 400 and error codes are checked under their own SHOULDs.

import { check, describeEndpoint } from "../src/harness/index.ts";
import {
  buildTransfer,
  expectRefusedForFlaw,
  isSequenceConflict,
  nextSequenceNumber,
  noteIfAccepted,
  staleBookkeeping,
  submitSetup,
  type SubmitFormat,
} from "./support/submission.ts";

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
const CONTENT_TYPE_CHECKS = refusalChecks("4.8/wrong-content-type-rejected", "4.8/unsupported-body-400");
const MEMBER_TYPE_CHECKS = refusalChecks("4.8/json-wrong-member-type-rejected");
const TRAILING_BYTE_CHECKS = refusalChecks("4.8/broken-bcs-rejected");

describeEndpoint("submit_transaction", { inOrder: true }, () => {
  const OTHER_TYPES: readonly { variant: string; format: SubmitFormat; contentType: string }[] = [
    { variant: "BCS body as application/octet-stream", format: "bcs", contentType: "application/octet-stream" },
    { variant: "JSON body as text/plain", format: "json", contentType: "text/plain" },
  ];
  for (const { variant: typeName, format, contentType } of OTHER_TYPES) {
    for (const [id, variant, status] of CONTENT_TYPE_CHECKS) {
      check(id, { variant: variant(typeName) }, async (t) => {
        t.requireSubmitAllowed();
        t.needsFixture("accounts");
        const setup = await submitSetup(t, "bodies");
        const tx = buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup) });
        const body = format === "bcs" ? tx.bytes : JSON.stringify(tx.json);
        const res = await t.request({ method: "POST", path: "/transactions", body, contentType });
        expectRefusedForFlaw(t, setup, tx, res, `its Content-Type ${contentType}`, status);
      });
    }
  }

  for (const [id, variant, status] of MEMBER_TYPE_CHECKS) {
    check(id, { variant: variant("JSON members of the wrong type") }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "bodies");
      const tx = buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup) });
      const json = tx.json;
      // The u64 ones first: a lenient node reads them to the very transaction that was signed, and accepts.
      const mutations: readonly { what: string; body: Record<string, unknown> }[] = [
        { what: "sequence_number as a JSON number", body: { ...json, sequence_number: Number(json.sequence_number) } },
        { what: "max_gas_amount as a JSON number", body: { ...json, max_gas_amount: Number(json.max_gas_amount) } },
        { what: "gas_unit_price as a JSON number", body: { ...json, gas_unit_price: Number(json.gas_unit_price) } },
        {
          what: "expiration_timestamp_secs as a JSON number",
          body: { ...json, expiration_timestamp_secs: Number(json.expiration_timestamp_secs) },
        },
        { what: "sender as a JSON number", body: { ...json, sender: 1 } },
        { what: "payload as a string", body: { ...json, payload: "entry_function_payload" } },
        { what: "signature as an array", body: { ...json, signature: [json.signature] } },
      ];
      for (const { what, body } of mutations) {
        const res = await t.request({ method: "POST", path: "/transactions", json: body });
        noteIfAccepted(setup, tx, res);
        if (isSequenceConflict(res)) staleBookkeeping(setup, tx, res, `the refusal says nothing about its ${what}`);
        if (status === undefined) t.expectClientError(res, `a submission with ${what}`);
        else t.expectStatus(res, status);
      }
    });
  }

  for (const [id, variant, status] of TRAILING_BYTE_CHECKS) {
    check(id, { variant: variant("a valid transaction followed by one more byte") }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "bodies");
      const tx = buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup) });
      const res = await t.request({ method: "POST", path: "/transactions", bcs: new Uint8Array([...tx.bytes, 0]) });
      expectRefusedForFlaw(t, setup, tx, res, "the byte after it", status);
    });
  }
});
