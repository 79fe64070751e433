// §4.8 Submit transaction, bodies that are no transaction at all: none, bytes that are not one BCS
// signed transaction, text that is not JSON, JSON missing a member of §2.8, and a body far above any
// limit (§4.8 lists 413; §8 leaves the size unstated, the family's nodes use 8 MiB by default).
//
// Nothing here could be accepted by any node (garbage, or transactions of a fresh key that owns no
// account), so these checks need no fixture and run against every target, read-only ones included.
// What they catch is a node that crashes (500), hangs, or takes garbage for a transaction.

import { check, describeEndpoint, type CheckContext, type HttpResponse } from "../src/harness/index.ts";
import { buildTransfer, strangerSetup } from "./support/submission.ts";

/** Well above the family's default limit of 8 MiB. */
const OVERSIZED_BYTES = 9 * 1024 * 1024;

/** A complete submission request of a key no node knows: only what a check removes from it is wrong. */
function strangerTransaction() {
  const setup = strangerSetup();
  return buildTransfer(setup, { sequenceNumber: 0n });
}

/**
 * Sends the oversized body and returns the node's answer. A node may answer as soon as it reads the
 * Content-Length and close the connection while the client is still sending (fine by HTTP); the
 * client then sees a write error and loses that answer. So when the full send gets no answer, the
 * same request is sent over a bare socket with only its first 64 KiB, to read the answer the node gives
 * from the declared length. A node that answers neither way fails the check ("an HTTP answer").
 */
async function sendOversized(t: CheckContext): Promise<HttpResponse> {
  const body = new Uint8Array(OVERSIZED_BYTES);
  const full = await t.tryRequest({ method: "POST", path: "/transactions", bcs: body });
  if (full.ok) return full.response;
  const raw = await t.requestRaw({
    method: "POST",
    path: "/transactions",
    headers: { "content-type": t.profile.bcsSubmissionType, accept: "application/json" },
    body: body.subarray(0, 64 * 1024),
    contentLength: OVERSIZED_BYTES,
    ending: "keep-open",
  });
  if (raw.response !== undefined) return raw.response;
  return t.fail(
    `an HTTP answer to a ${OVERSIZED_BYTES}-byte body (sent whole: ${full.failure.message}; declared, first 64 KiB sent: ${raw.end}${raw.error ? ` ${raw.error}` : ""})`,
  );
}

/** A body that is no transaction, and the MUST requirement its refusal belongs to. */
interface MalformedCase {
  readonly requirement: string;
  readonly variant: string;
  readonly send: (t: CheckContext) => Promise<HttpResponse>;
}

const submit = (t: CheckContext, body: { body?: string; contentType?: string; bcs?: Uint8Array; json?: unknown }) =>
  t.request({ method: "POST", path: "/transactions", ...body });

/** The complete request with one of the seven members of §2.8 left out. */
const withoutMember = (member: string) => (t: CheckContext) => {
  const { json } = strangerTransaction();
  t.expect(member in json, `the complete request the suite starts from has ${member}`);
  return submit(t, { json: Object.fromEntries(Object.entries(json).filter(([k]) => k !== member)) });
};

const MALFORMED: readonly MalformedCase[] = [
  { requirement: "4.8/body-required", variant: "no body, no Content-Type", send: (t) => submit(t, {}) },
  {
    requirement: "4.8/body-required",
    variant: "empty application/json body",
    send: (t) => submit(t, { body: "", contentType: "application/json" }),
  },
  { requirement: "4.8/body-required", variant: "empty BCS body", send: (t) => submit(t, { bcs: new Uint8Array() }) },
  { requirement: "4.8/broken-bcs-rejected", variant: "garbage bytes", send: (t) => submit(t, { bcs: new Uint8Array(64).fill(0xff) }) },
  {
    requirement: "4.8/broken-bcs-rejected",
    variant: "a signed transaction cut short",
    send: (t) => {
      const { bytes } = strangerTransaction();
      return submit(t, { bcs: bytes.subarray(0, bytes.length - 10) });
    },
  },
  {
    requirement: "4.8/broken-json-rejected",
    variant: "an unterminated object",
    send: (t) => submit(t, { body: '{"sender": "0x1", "sequence_number": ', contentType: "application/json" }),
  },
  {
    requirement: "4.8/broken-json-rejected",
    variant: "plain words",
    send: (t) => submit(t, { body: "not a transaction", contentType: "application/json" }),
  },
  ...["sender", "sequence_number", "max_gas_amount", "gas_unit_price", "expiration_timestamp_secs", "payload", "signature"].map(
    (member): MalformedCase => ({
      requirement: "4.8/json-missing-member-rejected",
      variant: `without ${member}`,
      send: withoutMember(member),
    }),
  ),
];

describeEndpoint("submit_transaction", () => {
  // Each case twice: refused as the client's error (the MUST), and with the family's 400 (the SHOULD;
  // a submission without a body has an id of its own: aptos-core refuses it with 415).
  for (const c of MALFORMED) {
    check(c.requirement, { variant: c.variant }, async (t) => {
      t.expectClientError(await c.send(t), c.variant);
    });
    check(c.requirement === "4.8/body-required" ? "4.8/unsupported-body-400" : "4.8/refusals-400", { variant: c.variant }, async (t) => {
      t.expectStatus(await c.send(t), 400);
    });
  }

  check("4.8/oversized-body-refused", { timeoutMs: 60_000 }, async (t) => {
    const res = await sendOversized(t);
    t.expect(res.status >= 400 && res.status < 500, `a client error (4xx) for a ${OVERSIZED_BYTES}-byte body`, res, `status ${res.status}`);
  });

  check("4.8/oversized-body-413", { timeoutMs: 60_000 }, async (t) => {
    const res = await sendOversized(t);
    t.expectStatus(res, 413);
  });
});
