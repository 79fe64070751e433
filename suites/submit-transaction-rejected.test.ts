// §4.8 Submit transaction, signed transactions a node must refuse: a signature that is not a signature
// of the transaction, a sequence number already used, another chain's id, an expiration in the past, a
// module bundle (the family's convention), a valid body under a content type of neither format, JSON members of the
// wrong type, and a valid BCS body followed by one more byte. Each is built from a funded fixtures
// account with its next sequence number, so that the one flaw is the only reason to refuse it: a node
// that misses the flaw accepts it (and the check fails). That is also why every check here is gated by
// t.requireSubmitAllowed(): against a faulty node these transactions would change the ledger.
//
// The status (400) is what the spec implies for "not a valid signed transaction" (§4.8 errors); the
// error codes are the family's convention and are checked under their own SHOULD requirements.

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
      t.expectStatus(res, 400);
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
  check("4.8/wrong-chain-id-rejected", async (t) => {
    t.requireSubmitAllowed();
    t.needsFixture("accounts");
    const setup = await submitSetup(t, "rejected");
    const chainId = (setup.chainId + 1) % 256;
    const tx = buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup), chainId });
    expectRefusedForFlaw(t, setup, tx, await send(t, tx, "bcs"), `its chain id ${chainId}`);
  });

  for (const { format, variant } of FORMATS) {
    check("4.8/expired-transaction-rejected", { variant }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "rejected");
      const tx = buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup), expirationTimestampSecs: pastExpiration(setup) });
      expectRefusedForFlaw(t, setup, tx, await send(t, tx, format), "its past expiration");
    });
  }

  for (const { format, variant } of FORMATS) {
    check("4.8/module-bundle-rejected", { variant }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "rejected");
      const tx = buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup), payload: { ModuleBundle: { dummy_value: 0n } } });
      if (format === "json") t.expectEqual((tx.json.payload as { type?: unknown }).type, "module_bundle_payload", "the payload tag the suite sends");
      expectRefusedForFlaw(t, setup, tx, await send(t, tx, format), "its module bundle payload");
    });
  }

  const OTHER_TYPES: readonly { variant: string; format: SubmitFormat; contentType: string }[] = [
    { variant: "BCS body as application/octet-stream", format: "bcs", contentType: "application/octet-stream" },
    { variant: "JSON body as text/plain", format: "json", contentType: "text/plain" },
  ];
  for (const { variant, format, contentType } of OTHER_TYPES) {
    check("4.8/wrong-content-type-rejected", { variant }, async (t) => {
      t.requireSubmitAllowed();
      t.needsFixture("accounts");
      const setup = await submitSetup(t, "rejected");
      const tx = buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup) });
      const body = format === "bcs" ? tx.bytes : JSON.stringify(tx.json);
      const res = await t.request({ method: "POST", path: "/transactions", body, contentType });
      expectRefusedForFlaw(t, setup, tx, res, `its Content-Type ${contentType}`);
    });
  }

  check("4.8/json-wrong-member-type-rejected", async (t) => {
    t.requireSubmitAllowed();
    t.needsFixture("accounts");
    const setup = await submitSetup(t, "rejected");
    const tx = buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup) });
    const json = tx.json;
    // The u64 ones first: a lenient node reads them to the very transaction that was signed, and accepts.
    const mutations: readonly { what: string; body: Record<string, unknown> }[] = [
      { what: "sequence_number as a JSON number", body: { ...json, sequence_number: Number(json.sequence_number) } },
      { what: "max_gas_amount as a JSON number", body: { ...json, max_gas_amount: Number(json.max_gas_amount) } },
      { what: "gas_unit_price as a JSON number", body: { ...json, gas_unit_price: Number(json.gas_unit_price) } },
      { what: "expiration_timestamp_secs as a JSON number", body: { ...json, expiration_timestamp_secs: Number(json.expiration_timestamp_secs) } },
      { what: "sender as a JSON number", body: { ...json, sender: 1 } },
      { what: "payload as a string", body: { ...json, payload: "entry_function_payload" } },
      { what: "signature as an array", body: { ...json, signature: [json.signature] } },
    ];
    for (const { what, body } of mutations) {
      const res = await t.request({ method: "POST", path: "/transactions", json: body });
      noteIfAccepted(setup, tx, res);
      if (isSequenceConflict(res)) staleBookkeeping(setup, tx, res, `the refusal says nothing about its ${what}`);
      t.expect(res.status === 400, `status 400 for a submission with ${what}`, res, `status ${res.status}`);
    }
  });

  check("4.8/broken-bcs-rejected", { variant: "a valid transaction followed by one more byte" }, async (t) => {
    t.requireSubmitAllowed();
    t.needsFixture("accounts");
    const setup = await submitSetup(t, "rejected");
    const tx = buildTransfer(setup, { sequenceNumber: await nextSequenceNumber(t, setup) });
    const res = await t.request({ method: "POST", path: "/transactions", bcs: new Uint8Array([...tx.bytes, 0]) });
    expectRefusedForFlaw(t, setup, tx, res, "the byte after it");
  });
});
