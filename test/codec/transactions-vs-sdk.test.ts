// Cross-checks of the transaction codec against the Aptos TS SDK (the family's convention): for every payload and
// every authenticator variant, our BCS equals the SDK's both ways, and so do the signing messages and
// the transaction hashes; SDK signatures verify with our verifier and name the SDK's signers.
import * as sdk from "@aptos-labs/ts-sdk";
import { describe, expect, it } from "vitest";
import {
  decodeSignedTransaction,
  encodeSignedTransaction,
  encodeRawTransaction,
  decodeRawTransaction,
  signingMessage,
  signingMessageWithData,
  transactionHash,
  toHex,
  verifyTransactionAuthenticator,
  type SignedTransaction,
} from "../../src/codec/index.ts";
import { SDK_AUTHENTICATORS, SDK_PAYLOADS } from "./sdk-builders.ts";

const PAYLOAD_KINDS: [abstract new (...args: never[]) => unknown, string][] = [
  [sdk.TransactionPayloadScript, "Script"],
  [sdk.TransactionPayloadEntryFunction, "EntryFunction"],
  [sdk.TransactionPayloadMultiSig, "Multisig"],
  [sdk.TransactionInnerPayloadV1, "Payload"],
];
const AUTHENTICATOR_KINDS: [abstract new (...args: never[]) => unknown, string][] = [
  [sdk.TransactionAuthenticatorEd25519, "Ed25519"],
  [sdk.TransactionAuthenticatorMultiEd25519, "MultiEd25519"],
  [sdk.TransactionAuthenticatorMultiAgent, "MultiAgent"],
  [sdk.TransactionAuthenticatorFeePayer, "FeePayer"],
  [sdk.TransactionAuthenticatorSingleSender, "SingleSender"],
];
const kindOf = (value: unknown, table: [abstract new (...args: never[]) => unknown, string][]) =>
  table.find(([type]) => value instanceof type)?.[1];

const sdkRoundTrip = (bytes: Uint8Array) => sdk.SignedTransaction.deserialize(new sdk.Deserializer(bytes)).bcsToBytes();

/** Our signing message for whichever shape the authenticator signs. */
function ourSigningMessage(signed: SignedTransaction): Uint8Array {
  const auth = signed.authenticator;
  if (auth.$kind === "MultiAgent")
    return signingMessageWithData({
      MultiAgent: { raw_txn: signed.raw_txn, secondary_signer_addresses: auth.MultiAgent.secondary_signer_addresses },
    });
  if (auth.$kind === "FeePayer")
    return signingMessageWithData({
      MultiAgentWithFeePayer: {
        raw_txn: signed.raw_txn,
        secondary_signer_addresses: auth.FeePayer.secondary_signer_addresses,
        fee_payer_address: auth.FeePayer.fee_payer_address,
      },
    });
  return signingMessage(signed.raw_txn);
}

for (const [payloadName, makePayload] of Object.entries(SDK_PAYLOADS)) {
  describe(`payload ${payloadName}`, () => {
    for (const [authName, sign] of Object.entries(SDK_AUTHENTICATORS)) {
      describe(`authenticator ${authName}`, () => {
        const made = sign(makePayload());

        it("decodes the SDK's bytes and re-encodes them byte for byte", () => {
          const ours = decodeSignedTransaction(made.bytes);
          expect(toHex(encodeSignedTransaction(ours))).toBe(toHex(made.bytes));
        });

        it("decodes to the fields the SDK built", () => {
          const ours = decodeSignedTransaction(made.bytes);
          const theirs = sdk.SignedTransaction.deserialize(new sdk.Deserializer(made.bytes));
          expect(toHex(ours.raw_txn.sender)).toBe(theirs.raw_txn.sender.toStringLong());
          expect(ours.raw_txn.sequence_number).toBe(theirs.raw_txn.sequence_number);
          expect(ours.raw_txn.max_gas_amount).toBe(theirs.raw_txn.max_gas_amount);
          expect(ours.raw_txn.gas_unit_price).toBe(theirs.raw_txn.gas_unit_price);
          expect(ours.raw_txn.expiration_timestamp_secs).toBe(theirs.raw_txn.expiration_timestamp_secs);
          expect(ours.raw_txn.chain_id).toBe(theirs.raw_txn.chain_id.chainId);
          expect(ours.raw_txn.payload.$kind).toBe(kindOf(theirs.raw_txn.payload, PAYLOAD_KINDS));
          expect(ours.authenticator.$kind).toBe(kindOf(theirs.authenticator, AUTHENTICATOR_KINDS));
        });

        it("encodes bytes the SDK decodes back to the same transaction", () => {
          const ours = encodeSignedTransaction(decodeSignedTransaction(made.bytes));
          expect(toHex(sdkRoundTrip(ours))).toBe(toHex(made.bytes));
        });

        it("computes the SDK's signing message", () => {
          expect(toHex(ourSigningMessage(decodeSignedTransaction(made.bytes)))).toBe(toHex(made.signingMessage));
        });

        it("computes the SDK's transaction hash", () => {
          expect(toHex(transactionHash(made.bytes))).toBe(sdk.generateUserTransactionHash(made.submission));
          expect(toHex(transactionHash(decodeSignedTransaction(made.bytes)))).toBe(sdk.generateUserTransactionHash(made.submission));
        });

        it(made.verifiable ? "verifies the SDK's signatures and names the SDK's signers" : "reports the variant as not verifiable", () => {
          const verdict = verifyTransactionAuthenticator(decodeSignedTransaction(made.bytes));
          if (!made.verifiable) {
            expect(verdict.ok).toBe(false);
            // A WebAuthn assertion is verified (webauthn.ts): the SDK's filler bytes are an invalid one.
            if (authName === "no_account" || authName === "single_key_webauthn") expect(verdict).not.toHaveProperty("unsupported", true);
            else expect(verdict).toMatchObject({ ok: false, unsupported: true });
            return;
          }
          expect(verdict).toMatchObject({ ok: true });
          if (!verdict.ok) return;
          expect(verdict.signers.map((s) => [toHex(s.address), toHex(s.authenticationKey)])).toEqual(
            made.signers.map((s) => [toHex(s.address.toUint8Array()), toHex(s.authKey)]),
          );
        });
      });
    }
  });
}

describe("RawTransaction", () => {
  it("encodes and decodes as the SDK does", () => {
    const raw = new sdk.RawTransaction(
      sdk.AccountAddress.from("0x5"),
      2n ** 64n - 1n,
      SDK_PAYLOADS.entry_function!(),
      0n,
      1n,
      2n ** 63n,
      new sdk.ChainId(255),
    );
    const ours = decodeRawTransaction(raw.bcsToBytes());
    expect(ours.sequence_number).toBe(2n ** 64n - 1n);
    expect(ours.chain_id).toBe(255);
    expect(toHex(encodeRawTransaction(ours))).toBe(toHex(raw.bcsToBytes()));
  });
});
