// WebAuthn assertions with a secp256r1 key (src/codec/webauthn.ts, after aptos-core
// types/src/transaction/webauthn.rs): what the codec signs verifies, and every part the verifier
// reads is bound: the challenge, the authenticator data, the client data and the signature.

import { describe, expect, it } from "vitest";
import { concatBytes } from "@noble/hashes/utils.js";
import { PartialAuthenticatorAssertionResponse } from "../../src/codec/bcs-opaque.ts";
import { domainPrefix, secp256r1PublicKey, webAuthnProblem, webAuthnSign } from "../../src/codec/index.ts";

const privateKey = new Uint8Array(32).fill(7);
const publicKey = secp256r1PublicKey(privateKey);
const message = concatBytes(domainPrefix("RawTransaction"), new Uint8Array([1, 2, 3]));

function reassembled(change: (parts: typeof PartialAuthenticatorAssertionResponse.$inferType) => void): Uint8Array {
  const parts = PartialAuthenticatorAssertionResponse.parse(webAuthnSign(message, privateKey));
  change(parts);
  return PartialAuthenticatorAssertionResponse.serialize(parts).toBytes();
}

describe("webAuthnSign and webAuthnProblem", () => {
  it("an assertion over the signing message verifies under its key (65-byte uncompressed)", () => {
    expect(publicKey.length).toBe(65);
    expect(webAuthnProblem(webAuthnSign(message, privateKey), message, publicKey)).toBeUndefined();
  });

  it("refuses another message (the challenge), another key, and a changed part", () => {
    expect(webAuthnProblem(webAuthnSign(message, privateKey), new Uint8Array([9]), publicKey)).toMatch(/challenge/);
    expect(webAuthnProblem(webAuthnSign(message, privateKey), message, secp256r1PublicKey(new Uint8Array(32).fill(8)))).toMatch(
      /does not verify/,
    );
    const flipped = reassembled((p) => {
      const signature = p.signature.Secp256r1Ecdsa as Uint8Array;
      signature[5] = (signature[5] as number) ^ 1;
    });
    expect(webAuthnProblem(flipped, message, publicKey)).toMatch(/does not verify/);
    const otherData = reassembled((p) => {
      p.authenticator_data[32] = 0x01;
    });
    expect(webAuthnProblem(otherData, message, publicKey)).toMatch(/does not verify/);
  });

  it("refuses what is not an assertion: garbage bytes, client data that is not JSON, an oversize one", () => {
    expect(webAuthnProblem(new Uint8Array([1, 2, 3]), message, publicKey)).toMatch(/not a PartialAuthenticatorAssertionResponse/);
    expect(
      webAuthnProblem(
        reassembled((p) => (p.client_data_json = new Uint8Array([0x7b]))),
        message,
        publicKey,
      ),
    ).toMatch(/not JSON/);
    expect(
      webAuthnProblem(
        reassembled((p) => (p.authenticator_data = new Uint8Array(1000))),
        message,
        publicKey,
      ),
    ).toMatch(/above 1024/);
  });
});
