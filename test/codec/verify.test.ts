// Signature verification: signatures we make verify with the Aptos SDK and the SDK's with ours, for
// every signer shape; tampering with any byte of a signature or of the signed message is caught.
import * as sdk from "@aptos-labs/ts-sdk";
import { describe, expect, it } from "vitest";
import {
  decodeRawTransaction,
  decodeSignedTransaction,
  ed25519PublicKey,
  ed25519Sign,
  ed25519Verify,
  Ed25519Account,
  encodeSignedTransaction,
  fromHex,
  secp256k1Sign,
  secp256k1Verify,
  signFeePayerTransaction,
  signingMessage,
  signingMessageWithData,
  signMultiAgentTransaction,
  toHex,
  verifyTransactionAuthenticator,
  type SignedTransaction,
} from "../../src/codec/index.ts";
import { keyBytes, SDK_AUTHENTICATORS, SDK_PAYLOADS, sdkRawTransaction, secp256k1Key } from "./sdk-builders.ts";

const sdkSigned = (bytes: Uint8Array) => sdk.SignedTransaction.deserialize(new sdk.Deserializer(bytes));

/** A raw transaction for `sender`, built by the SDK and decoded by us. */
function rawFor(sender: Uint8Array) {
  const raw = sdkRawTransaction(sdk.AccountAddress.from(sender), SDK_PAYLOADS.entry_function!());
  return { sdkRaw: raw, ours: decodeRawTransaction(raw.bcsToBytes()) };
}

describe("ed25519 primitives", () => {
  const privateKey = keyBytes(40);
  const message = new TextEncoder().encode("a message to sign");

  it("derive the SDK's public key and make signatures the SDK verifies", () => {
    const sdkKey = new sdk.Ed25519PrivateKey(privateKey, false);
    expect(toHex(ed25519PublicKey(privateKey))).toBe(sdkKey.publicKey().toString());
    const signature = ed25519Sign(message, privateKey);
    expect(toHex(signature)).toBe(sdkKey.sign(message).toString());
    expect(sdkKey.publicKey().verifySignature({ message, signature: new sdk.Ed25519Signature(signature) })).toBe(true);
  });

  it("reject every single-byte change of the signature, the message or the key", () => {
    const publicKey = ed25519PublicKey(privateKey);
    const signature = ed25519Sign(message, privateKey);
    expect(ed25519Verify(signature, message, publicKey)).toBe(true);
    const flipped = (bytes: Uint8Array, i: number) => bytes.map((b, j) => (j === i ? b ^ 0x01 : b));
    for (let i = 0; i < signature.length; i++)
      expect(ed25519Verify(flipped(signature, i), message, publicKey), `sig byte ${i}`).toBe(false);
    for (let i = 0; i < message.length; i++) expect(ed25519Verify(signature, flipped(message, i), publicKey), `msg byte ${i}`).toBe(false);
    for (let i = 0; i < publicKey.length; i++)
      expect(ed25519Verify(signature, message, flipped(publicKey, i)), `key byte ${i}`).toBe(false);
  });

  it("reject a small-order public key, whose identity signature would otherwise verify every message", () => {
    const identity = Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0));
    const forged = Uint8Array.from([...identity, ...new Uint8Array(32)]);
    expect(ed25519Verify(forged, message, identity)).toBe(false);
  });

  it("answer false, never throw, on malformed input", () => {
    expect(ed25519Verify(new Uint8Array(3), message, new Uint8Array(32))).toBe(false);
    expect(ed25519Verify(new Uint8Array(64), message, new Uint8Array(5))).toBe(false);
    expect(ed25519Verify(new Uint8Array(64).fill(0xff), message, ed25519PublicKey(privateKey))).toBe(false);
  });
});

describe("secp256k1 primitives (SHA3-256 of the message, low-S)", () => {
  const key = secp256k1Key(41);
  const message = new TextEncoder().encode("another message");

  it("verify the SDK's signatures, and make ones the SDK verifies", () => {
    const publicKey = key.publicKey().toUint8Array();
    expect(secp256k1Verify(key.sign(message).toUint8Array(), message, publicKey)).toBe(true);
    const ours = secp256k1Sign(message, key.toUint8Array());
    expect(key.publicKey().verifySignature({ message, signature: new sdk.Secp256k1Signature(ours) })).toBe(true);
  });

  it("reject the high-S twin of a valid signature (malleability)", () => {
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const publicKey = key.publicKey().toUint8Array();
    const signature = secp256k1Sign(message, key.toUint8Array());
    const s = BigInt(toHex(signature.slice(32)));
    const highS = Uint8Array.from([...signature.slice(0, 32), ...fromHex(`0x${(n - s).toString(16).padStart(64, "0")}`)]);
    expect(secp256k1Verify(signature, message, publicKey)).toBe(true);
    expect(secp256k1Verify(highS, message, publicKey)).toBe(false);
  });

  it("reject every single-byte change of the signature or the message", () => {
    const publicKey = key.publicKey().toUint8Array();
    const signature = secp256k1Sign(message, key.toUint8Array());
    const flipped = (bytes: Uint8Array, i: number) => bytes.map((b, j) => (j === i ? b ^ 0x01 : b));
    for (let i = 0; i < signature.length; i++)
      expect(secp256k1Verify(flipped(signature, i), message, publicKey), `sig byte ${i}`).toBe(false);
    for (let i = 0; i < message.length; i++)
      expect(secp256k1Verify(signature, flipped(message, i), publicKey), `msg byte ${i}`).toBe(false);
  });
});

describe("Ed25519Account signs transactions the SDK accepts", () => {
  const sender = new Ed25519Account(keyBytes(50));
  const secondary = new Ed25519Account(keyBytes(51));
  const feePayer = new Ed25519Account(keyBytes(52));

  it("derives the SDK's authentication key and address", () => {
    const sdkAccount = sdk.Account.fromPrivateKey({ privateKey: new sdk.Ed25519PrivateKey(keyBytes(50), false), legacy: true });
    expect(toHex(sender.authenticationKey)).toBe(sdkAccount.publicKey.authKey().toString());
    expect(toHex(sender.address)).toBe(sdkAccount.accountAddress.toStringLong());
    expect(toHex(Ed25519Account.fromHex(toHex(keyBytes(50))).address)).toBe(toHex(sender.address));
    expect(toHex(Ed25519Account.fromHex(`ed25519-priv-${toHex(keyBytes(50))}`).address)).toBe(toHex(sender.address));
  });

  it("single signer: the SDK verifies our signature over its own signing message", () => {
    const { sdkRaw, ours } = rawFor(sender.address);
    const signed = sender.signTransaction(ours);
    const parsed = sdkSigned(encodeSignedTransaction(signed)).authenticator as sdk.TransactionAuthenticatorEd25519;
    const message = sdk.generateSigningMessageForTransaction(new sdk.SimpleTransaction(sdkRaw));
    expect(parsed.public_key.verifySignature({ message, signature: parsed.signature })).toBe(true);
    expect(verifyTransactionAuthenticator(signed)).toMatchObject({ ok: true });
  });

  it("single key: the SDK verifies our SingleSender(SingleKey(ed25519)) signature", () => {
    const { sdkRaw, ours } = rawFor(sender.address);
    const signed = sender.signTransactionAsSingleKey(ours);
    const parsed = sdkSigned(encodeSignedTransaction(signed)).authenticator as sdk.TransactionAuthenticatorSingleSender;
    const auth = parsed.sender as sdk.AccountAuthenticatorSingleKey;
    const message = sdk.generateSigningMessageForTransaction(new sdk.SimpleTransaction(sdkRaw));
    expect(auth.public_key.verifySignature({ message, signature: auth.signature })).toBe(true);
    expect(verifyTransactionAuthenticator(signed)).toMatchObject({ ok: true });
  });

  it("multi-agent: the SDK verifies every signature over its RawTransactionWithData message", () => {
    const { sdkRaw, ours } = rawFor(sender.address);
    const signed = signMultiAgentTransaction(ours, sender, [secondary]);
    const parsed = sdkSigned(encodeSignedTransaction(signed)).authenticator as sdk.TransactionAuthenticatorMultiAgent;
    const message = sdk.generateSigningMessageForTransaction(
      new sdk.MultiAgentTransaction(sdkRaw, [sdk.AccountAddress.from(secondary.address)]),
    );
    for (const auth of [parsed.sender, ...parsed.secondary_signers] as sdk.AccountAuthenticatorEd25519[])
      expect(auth.public_key.verifySignature({ message, signature: auth.signature })).toBe(true);
    expect(verifyTransactionAuthenticator(signed)).toMatchObject({ ok: true });
  });

  it("fee payer: the SDK verifies every signature over the message with the fee payer's address", () => {
    const { sdkRaw, ours } = rawFor(sender.address);
    const signed = signFeePayerTransaction(ours, sender, [secondary], feePayer);
    const parsed = sdkSigned(encodeSignedTransaction(signed)).authenticator as sdk.TransactionAuthenticatorFeePayer;
    const message = sdk.generateSigningMessageForTransaction(
      new sdk.MultiAgentTransaction(sdkRaw, [sdk.AccountAddress.from(secondary.address)], sdk.AccountAddress.from(feePayer.address)),
    );
    const all = [parsed.sender, ...parsed.secondary_signers, parsed.fee_payer.authenticator] as sdk.AccountAuthenticatorEd25519[];
    for (const auth of all) expect(auth.public_key.verifySignature({ message, signature: auth.signature })).toBe(true);
    const verdict = verifyTransactionAuthenticator(signed);
    expect(verdict.ok && verdict.signers.map((s) => s.role)).toEqual(["sender", "secondary", "fee_payer"]);
  });

  it("fee payer: sender may sign over fee payer 0x0 or the real one; the fee payer only over its own address", () => {
    const { ours } = rawFor(sender.address);
    const message = (payer: Uint8Array) =>
      signingMessageWithData({
        MultiAgentWithFeePayer: { raw_txn: ours, secondary_signer_addresses: [], fee_payer_address: payer },
      });
    const zero = message(new Uint8Array(32));
    const real = message(feePayer.address);
    const build = (senderMessage: Uint8Array, payerMessage: Uint8Array) =>
      decodeSignedTransaction(
        encodeSignedTransaction({
          raw_txn: ours,
          authenticator: {
            FeePayer: {
              sender: sender.authenticator(senderMessage),
              secondary_signer_addresses: [],
              secondary_signers: [],
              fee_payer_address: feePayer.address,
              fee_payer_signer: feePayer.authenticator(payerMessage),
            },
          },
        }),
      );
    expect(verifyTransactionAuthenticator(build(zero, real)).ok).toBe(true);
    expect(verifyTransactionAuthenticator(build(real, real)).ok).toBe(true);
    expect(verifyTransactionAuthenticator(build(real, zero)).ok).toBe(false);
    expect(verifyTransactionAuthenticator(build(zero, zero)).ok).toBe(false);
  });

  it("uses the domain prefix it is given", () => {
    const { ours } = rawFor(sender.address);
    const signed = sender.signTransaction(ours, "OTHER");
    expect(verifyTransactionAuthenticator(signed, "OTHER")).toMatchObject({ ok: true });
    expect(verifyTransactionAuthenticator(signed)).toMatchObject({ ok: false });
    expect(toHex(signingMessage(ours, "OTHER"))).not.toBe(toHex(signingMessage(ours)));
  });
});

describe("tampering with any byte of an SDK-signed transaction", () => {
  const cases = ["ed25519", "multi_ed25519", "single_key_ed25519", "single_key_secp256k1", "multi_key", "multi_agent", "fee_payer"];
  for (const name of cases) {
    it(`${name}: every flipped byte fails to decode, fails to verify, or changes the claimed signers`, () => {
      const made = SDK_AUTHENTICATORS[name]!(SDK_PAYLOADS.entry_function!());
      const original = verifyTransactionAuthenticator(decodeSignedTransaction(made.bytes));
      expect(original.ok).toBe(true);
      if (!original.ok) return;
      const claim = (signers: typeof original.signers) => signers.map((s) => toHex(s.address) + toHex(s.authenticationKey)).join();
      let verifiedFailures = 0;
      for (let i = 0; i < made.bytes.length; i++) {
        const tampered = made.bytes.slice();
        tampered[i] = tampered[i]! ^ 0x01;
        let signed: SignedTransaction;
        try {
          signed = decodeSignedTransaction(tampered);
        } catch {
          continue;
        }
        const verdict = verifyTransactionAuthenticator(signed);
        if (verdict.ok) expect(claim(verdict.signers), `byte ${i} verified with the original signers`).not.toBe(claim(original.signers));
        else verifiedFailures++;
      }
      // Most flips reach the verifier (they do not merely break decoding).
      expect(verifiedFailures).toBeGreaterThan(made.bytes.length / 2);
    });
  }
});

describe("threshold and bitmap rules", () => {
  const signers = [new Ed25519Account(keyBytes(60)), new Ed25519Account(keyBytes(61)), new Ed25519Account(keyBytes(62))];
  const raw = rawFor(new Uint8Array(32).fill(1)).ours;
  const message = signingMessage(raw);
  const bitmap = (...bits: number[]) =>
    Uint8Array.from([0, 0, 0, 0], (_, byte) => bits.filter((b) => b >> 3 === byte).reduce((acc, b) => acc | (0x80 >> (b & 7)), 0));
  const multiEd = (threshold: number, bits: number[], signWith: Ed25519Account[]) =>
    decodeSignedTransaction(
      encodeSignedTransaction({
        raw_txn: raw,
        authenticator: {
          MultiEd25519: {
            public_key: { public_keys: signers.map((s) => s.publicKey), threshold },
            signature: { signatures: signWith.map((s) => s.sign(message)), bitmap: bitmap(...bits) },
          },
        },
      }),
    );

  it("multi-ed25519 accepts threshold-many signatures in bitmap order", () => {
    expect(verifyTransactionAuthenticator(multiEd(2, [0, 2], [signers[0]!, signers[2]!])).ok).toBe(true);
  });
  it("multi-ed25519 rejects fewer signatures than the threshold", () => {
    expect(verifyTransactionAuthenticator(multiEd(3, [0, 2], [signers[0]!, signers[2]!]))).toMatchObject({ ok: false });
  });
  it("multi-ed25519 rejects signatures paired with the wrong keys", () => {
    expect(verifyTransactionAuthenticator(multiEd(2, [0, 1], [signers[0]!, signers[2]!]))).toMatchObject({ ok: false });
  });
  it("multi-ed25519 rejects a bitmap bit beyond the keys", () => {
    expect(verifyTransactionAuthenticator(multiEd(1, [5], [signers[0]!]))).toMatchObject({ ok: false });
  });

  const multiKey = (required: number, bits: number[], signatures: Uint8Array[]) =>
    decodeSignedTransaction(
      encodeSignedTransaction({
        raw_txn: raw,
        authenticator: {
          SingleSender: {
            sender: {
              MultiKey: {
                public_keys: { public_keys: signers.map((s) => ({ Ed25519: s.publicKey })), signatures_required: required },
                signatures: signatures.map((sig) => ({ Ed25519: sig })),
                signatures_bitmap: bitmap(...bits),
              },
            },
          },
        },
      }),
    );

  it("multi-key accepts enough signatures and rejects too few, misplaced or forged ones", () => {
    const [a, b, c] = signers as [Ed25519Account, Ed25519Account, Ed25519Account];
    expect(verifyTransactionAuthenticator(multiKey(2, [1, 2], [b.sign(message), c.sign(message)])).ok).toBe(true);
    expect(verifyTransactionAuthenticator(multiKey(3, [1, 2], [b.sign(message), c.sign(message)])).ok).toBe(false);
    expect(verifyTransactionAuthenticator(multiKey(2, [0, 2], [b.sign(message), c.sign(message)])).ok).toBe(false);
    expect(verifyTransactionAuthenticator(multiKey(1, [0], [a.sign(new Uint8Array([1]))])).ok).toBe(false);
    expect(verifyTransactionAuthenticator(multiKey(1, [0, 1], [a.sign(message)])).ok).toBe(false);
  });

  it("a key of one scheme with a signature of another is invalid, not unsupported", () => {
    const signed = decodeSignedTransaction(
      encodeSignedTransaction({
        raw_txn: raw,
        authenticator: {
          SingleSender: {
            sender: {
              SingleKey: { public_key: { Ed25519: signers[0]!.publicKey }, signature: { Secp256k1Ecdsa: signers[0]!.sign(message) } },
            },
          },
        },
      }),
    );
    expect(verifyTransactionAuthenticator(signed)).toEqual({ ok: false, reason: expect.stringContaining("cannot carry") });
  });

  it("multi-agent with addresses and signers of different lengths is invalid", () => {
    const signed = signMultiAgentTransaction(raw, signers[0]!, [signers[1]!]);
    const broken = { ...signed, authenticator: { ...signed.authenticator } } as SignedTransaction;
    if (broken.authenticator.$kind !== "MultiAgent") throw new Error("expected multi-agent");
    broken.authenticator.MultiAgent = { ...broken.authenticator.MultiAgent, secondary_signers: [] };
    expect(verifyTransactionAuthenticator(broken)).toMatchObject({ ok: false });
  });
});
