// Real signature verification for every authenticator variant the node accepts: a correctly signed
// transaction is accepted, one with a tampered signature is 400 vm_error INVALID_SIGNATURE (1). The
// variants the node cannot verify (keyless, account abstraction) are 400 invalid_input with a message
// that says so. A WebAuthn assertion with a secp256r1 key is verified like any signature.

import * as sdk from "@aptos-labs/ts-sdk";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AccountAuthenticator,
  decodeBcs,
  decodeSignedTransaction,
  encodeSignedTransaction,
  secp256k1Sign,
  secp256r1PublicKey,
  singleKeyAuthenticationKey,
  webAuthnSign,
  signFeePayerTransaction,
  signingMessage,
  signMultiAgentTransaction,
  transactionHash,
  type AccountAuthenticatorInput,
  type RawTransactionInput,
  type SignedTransaction,
  type SignedTransactionInput,
} from "../../../src/codec/index.ts";
import { VmStatus } from "../../../src/node/ledger/vm-status.ts";
import { ledgerErrorOf, rawTransaction, testEngine, transferPayload, type TestEngine } from "./helpers.ts";

// One engine for the file: rejected submissions change nothing, and each accepted one is committed
// before the next test builds its transaction on the sender's current sequence number.
let t: TestEngine;
beforeAll(() => {
  t = testEngine();
});

const normalize = (input: SignedTransactionInput): SignedTransaction => decodeSignedTransaction(encodeSignedTransaction(input));
const raw = (sender: Uint8Array): RawTransactionInput =>
  rawTransaction({
    sender,
    sequenceNumber: t.engine.ledger.state.latestAccount(sender)?.sequenceNumber ?? 0n,
    nowSeconds: t.engine.ledger.nowSeconds,
    to: t.genesis.keys.funded[4]?.address,
  });

/** A copy of `bytes` with one bit flipped. */
function flip(bytes: Uint8Array, at = 7): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[at] = (copy[at] as number) ^ 0x01;
  return copy;
}

function expectAccepted(signed: SignedTransaction): void {
  const result = t.engine.submit(signed);
  t.nextBlock();
  expect(t.engine.committedTransaction(result.hash)?.success).toBe(true);
}

function expectInvalidSignature(signed: SignedTransaction): void {
  const error = ledgerErrorOf(() => t.engine.submit(signed));
  expect([error.status, error.code, error.vmErrorCode], error.message).toEqual([400, "vm_error", VmStatus.INVALID_SIGNATURE]);
}

// Builders for each variant: `tamper` flips a bit of one signature.

function ed25519(tamper: boolean): SignedTransaction {
  const key = t.genesis.keys.funded[0];
  if (!key) throw new Error("a funded account");
  const signed = key.signTransaction(raw(key.address));
  if (!tamper || signed.authenticator.$kind !== "Ed25519") return signed;
  const auth = signed.authenticator.Ed25519;
  return normalize({
    raw_txn: signed.raw_txn,
    authenticator: { Ed25519: { public_key: auth.public_key, signature: flip(auth.signature) } },
  });
}

function multiEd25519(tamper: boolean, signers = [0, 2]): SignedTransaction {
  const { address, keys, threshold } = t.genesis.keys.multiEd25519;
  const rawTxn = raw(address);
  const message = signingMessage(rawTxn);
  const signatures = signers.map((i, n) => {
    const signature = (keys[i] as (typeof keys)[number]).sign(message);
    return tamper && n === 1 ? flip(signature) : signature;
  });
  const bitmap = new Uint8Array(4);
  for (const i of signers) bitmap[i >> 3] = (bitmap[i >> 3] as number) | (0x80 >> (i & 7));
  return normalize({
    raw_txn: rawTxn,
    authenticator: {
      MultiEd25519: { public_key: { public_keys: keys.map((k) => k.publicKey), threshold }, signature: { signatures, bitmap } },
    },
  });
}

function singleSender(sender: Uint8Array, authenticator: (message: Uint8Array) => AccountAuthenticatorInput): SignedTransaction {
  const rawTxn = raw(sender);
  return normalize({ raw_txn: rawTxn, authenticator: { SingleSender: { sender: authenticator(signingMessage(rawTxn)) } } });
}

function singleKeyEd25519(tamper: boolean): SignedTransaction {
  const { address, key } = t.genesis.keys.singleKeyEd25519;
  return singleSender(address, (message) => ({
    SingleKey: { public_key: { Ed25519: key.publicKey }, signature: { Ed25519: tamper ? flip(key.sign(message)) : key.sign(message) } },
  }));
}

function singleKeySecp256k1(tamper: boolean): SignedTransaction {
  const { address, privateKey, publicKey } = t.genesis.keys.singleKeySecp256k1;
  return singleSender(address, (message) => {
    const signature = secp256k1Sign(message, privateKey);
    return {
      SingleKey: { public_key: { Secp256k1Ecdsa: publicKey }, signature: { Secp256k1Ecdsa: tamper ? flip(signature, 40) : signature } },
    };
  });
}

/** A secp256r1 passkey account, created (funded) by a transfer to its address first. */
const passkeyPrivateKey = new Uint8Array(32).fill(7);
const passkeyPublicKey = secp256r1PublicKey(passkeyPrivateKey);
const passkeyAddress = singleKeyAuthenticationKey({ Secp256r1Ecdsa: passkeyPublicKey });

function singleKeyWebAuthn(tamper: boolean): SignedTransaction {
  return singleSender(passkeyAddress, (message) => ({
    SingleKey: {
      public_key: { Secp256r1Ecdsa: passkeyPublicKey },
      signature: { WebAuthn: webAuthnSign(tamper ? flip(message, 40) : message, passkeyPrivateKey) },
    },
  }));
}

function multiKey(tamper: boolean): SignedTransaction {
  const { address, keys, signaturesRequired } = t.genesis.keys.multiKey;
  return singleSender(address, (message) => ({
    MultiKey: {
      public_keys: { public_keys: keys.map((k) => ({ Ed25519: k.publicKey })), signatures_required: signaturesRequired },
      signatures: [0, 1].map((i) => {
        const signature = (keys[i] as (typeof keys)[number]).sign(message);
        return { Ed25519: tamper && i === 1 ? flip(signature) : signature };
      }),
      signatures_bitmap: new Uint8Array([0xc0, 0, 0, 0]),
    },
  }));
}

function multiAgent(tamper: boolean): SignedTransaction {
  const [alice, bob] = t.genesis.keys.funded;
  if (!alice || !bob) throw new Error("funded accounts");
  const signed = signMultiAgentTransaction(raw(alice.address), alice, [bob]);
  if (!tamper || signed.authenticator.$kind !== "MultiAgent") return signed;
  const auth = signed.authenticator.MultiAgent;
  const secondary = auth.secondary_signers[0];
  if (secondary?.$kind !== "Ed25519") throw new Error("an Ed25519 secondary signer");
  return normalize({
    raw_txn: signed.raw_txn,
    authenticator: {
      MultiAgent: {
        ...auth,
        secondary_signers: [{ Ed25519: { public_key: secondary.Ed25519.public_key, signature: flip(secondary.Ed25519.signature) } }],
      },
    },
  });
}

function feePayer(tamper: boolean): SignedTransaction {
  const [alice, , carol] = t.genesis.keys.funded;
  if (!alice || !carol) throw new Error("funded accounts");
  const signed = signFeePayerTransaction(raw(alice.address), alice, [], carol);
  if (!tamper || signed.authenticator.$kind !== "FeePayer") return signed;
  const auth = signed.authenticator.FeePayer;
  if (auth.fee_payer_signer.$kind !== "Ed25519") throw new Error("an Ed25519 fee payer");
  const payer = auth.fee_payer_signer.Ed25519;
  return normalize({
    raw_txn: signed.raw_txn,
    authenticator: {
      FeePayer: { ...auth, fee_payer_signer: { Ed25519: { public_key: payer.public_key, signature: flip(payer.signature) } } },
    },
  });
}

const VARIANTS: Record<string, (tamper: boolean) => SignedTransaction> = {
  ed25519,
  multi_ed25519: (tamper) => multiEd25519(tamper),
  single_key_ed25519: singleKeyEd25519,
  single_key_secp256k1: singleKeySecp256k1,
  single_key_web_authn: singleKeyWebAuthn,
  multi_key: multiKey,
  multi_agent: multiAgent,
  fee_payer: feePayer,
};

describe("every verifiable authenticator variant", () => {
  beforeAll(() => {
    const funder = t.genesis.keys.funded[3] as NonNullable<(typeof t.genesis.keys.funded)[number]>;
    const funding = rawTransaction({
      sender: funder.address,
      sequenceNumber: t.engine.ledger.state.latestAccount(funder.address)?.sequenceNumber ?? 0n,
      nowSeconds: t.engine.ledger.nowSeconds,
      payload: transferPayload(passkeyAddress, 100_000_000n),
    });
    expectAccepted(funder.signTransaction(funding));
  });

  for (const [name, build] of Object.entries(VARIANTS)) {
    it(`${name}: accepted when signed, 400 vm_error INVALID_SIGNATURE when a signature is tampered with`, () => {
      expectInvalidSignature(build(true));
      expectAccepted(build(false));
    });
  }

  it("multi_ed25519 below its threshold: INVALID_SIGNATURE", () => {
    expectInvalidSignature(multiEd25519(false, [1]));
  });

  it("web_authn with filler bytes for its assertion: INVALID_SIGNATURE", () => {
    const filler = new sdk.AccountAuthenticatorSingleKey(
      new sdk.AnyPublicKey(sdk.Secp256r1PrivateKey.generate().publicKey()),
      new sdk.AnySignature(
        new sdk.WebAuthnSignature(new Uint8Array(64).fill(3), new Uint8Array(37).fill(4), new Uint8Array(90).fill(0x7b)),
      ),
    );
    const sender = decodeBcs(AccountAuthenticator, filler.bcsToBytes());
    expectInvalidSignature(singleSender(passkeyAddress, () => sender));
  });

  it("no_account_signature as the sender: INVALID_SIGNATURE", () => {
    expectInvalidSignature(singleSender(t.genesis.keys.funded[0]?.address as Uint8Array, () => ({ NoAccountAuthenticator: true })));
  });

  it("fee payer: the fee payer pays the gas, the sender only the amount", () => {
    const [alice, , carol] = t.genesis.keys.funded;
    if (!alice || !carol) throw new Error("funded accounts");
    const balance = (a: Uint8Array) => t.engine.ledger.state.latestAccount(a)?.balance ?? 0n;
    const [aliceBefore, carolBefore] = [balance(alice.address), balance(carol.address)];
    const signed = feePayer(false);
    const { hash } = t.engine.submit(signed);
    t.nextBlock();
    const committed = t.engine.committedTransaction(hash);
    expect(committed?.success).toBe(true);
    expect(balance(alice.address)).toBe(aliceBefore - 1_000n);
    expect(balance(carol.address)).toBe(carolBefore - (committed?.gasUsed ?? 0n) * signed.raw_txn.gas_unit_price);
  });
});

describe("variants the node cannot verify", () => {
  const sdkAuthenticators: Record<string, () => sdk.AccountAuthenticator> = {
    keyless: () =>
      new sdk.AccountAuthenticatorSingleKey(
        new sdk.AnyPublicKey(new sdk.KeylessPublicKey("https://accounts.google.com", new Uint8Array(32).fill(5))),
        new sdk.AnySignature(sdk.KeylessSignature.getSimulationSignature()),
      ),
    abstraction: () =>
      new sdk.AccountAuthenticatorAbstraction(
        "0x1::permissioned_delegation::authenticate",
        new Uint8Array(32).fill(8),
        new Uint8Array(16).fill(9),
        new Uint8Array(33).fill(10),
      ),
  };

  for (const [name, build] of Object.entries(sdkAuthenticators)) {
    it(`${name}: 400 invalid_input saying the node cannot verify it`, () => {
      const sender = decodeBcs(AccountAuthenticator, build().bcsToBytes());
      const signed = normalize({
        raw_txn: raw(t.genesis.keys.funded[0]?.address as Uint8Array),
        authenticator: { SingleSender: { sender } },
      });
      const error = ledgerErrorOf(() => t.engine.submit(signed));
      expect([error.status, error.code, error.vmErrorCode]).toEqual([400, "invalid_input", undefined]);
      expect(error.message).toMatch(/cannot verify/);
    });
  }
});

describe("the signing domain", () => {
  it("is configurable: signatures and hashes are over the node's domain prefix", () => {
    const other = testEngine({ domain: "LEDGER" });
    const key = other.genesis.keys.funded[0];
    if (!key) throw new Error("a funded account");
    const rawTxn = rawTransaction({ sender: key.address, sequenceNumber: 0n, nowSeconds: other.engine.ledger.nowSeconds });
    const aptosSigned = key.signTransaction(rawTxn); // under "APTOS"
    const error = ledgerErrorOf(() => other.engine.submit(aptosSigned));
    expect([error.status, error.code, error.vmErrorCode]).toEqual([400, "vm_error", VmStatus.INVALID_SIGNATURE]);
    const signed = key.signTransaction(rawTxn, "LEDGER");
    const { hash } = other.engine.submit(signed);
    expect(hash).toEqual(transactionHash(encodeSignedTransaction(signed), "LEDGER"));
    expect(hash).not.toEqual(transactionHash(encodeSignedTransaction(signed), "APTOS"));
  });
});
