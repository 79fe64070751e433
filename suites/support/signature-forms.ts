// The signature forms of §2.8.2, built for real: every transaction and account signature the suite can
// sign, each as a valid transfer and as a tampered twin, and the kinds that need a provider the suite
// cannot be (keyless and federated keyless proofs, WebAuthn from a passkey, account abstraction's Move
// function), each as a malformed envelope (aptos-core types/src/transaction/authenticator.rs and
// webauthn.rs, types/src/keyless for the layouts).
//
// The accounts are the suite's own: keys derived from the run's seed, one account per form and format,
// created and funded by transfers from a fixtures account (0x1::aptos_account::transfer creates the
// account it pays, with the authentication key = the address, which is the key's authentication key:
// SHA3-256 of the key's bytes and its scheme byte, aptos-core types/src/transaction/authenticator.rs
// `AuthenticationKey`). So nothing but the fixtures' `accounts` is needed, on any node.

import { utf8ToBytes } from "@noble/hashes/utils.js";
import {
  type AccountAuthenticatorInput,
  bytesEqual,
  decodeSignedTransaction,
  Ed25519Account,
  encodeSignedTransaction,
  FederatedKeylessPublicKeyLayout,
  formatAddress,
  KeylessPublicKeyLayout,
  parseAddress,
  KeylessSignatureLayout,
  multiEd25519AuthenticationKey,
  multiKeyAuthenticationKey,
  PartialAuthenticatorAssertionResponse,
  type RawTransactionInput,
  secp256k1PublicKey,
  secp256k1Sign,
  secp256r1PublicKey,
  type SignedTransactionInput,
  type TransactionPayloadInput,
  sha3_256,
  signedTransactionToJson,
  signingMessage,
  signingMessageWithData,
  singleKeyAuthenticationKey,
  toHex,
  transactionHash,
  webAuthnSign,
} from "../../src/codec/index.ts";
import { CheckFailure, CheckSkipped, type CheckContext, type HttpResponse, runMemoryKey, useRunSeed } from "../../src/harness/index.ts";
import {
  type BuiltTransaction,
  isSequenceConflict,
  MAX_GAS_AMOUNT,
  markSequenceNumberUsed,
  nextSequenceNumber,
  type SubmitFormat,
  type SubmitSetup,
  send,
  submitSetup,
  TRANSFER_AMOUNT,
  transferPayload,
  validExpiration,
  waitForCommit,
} from "./submission.ts";
import { twoSignerTransferPayload } from "./payload-forms.ts";

/** The forms the suite signs, each sent valid and as a tampered twin. */
export const FORMS = [
  { name: "multi_ed25519", what: "multi_ed25519_signature (2 of 3 ed25519 keys)", twin: "its second signature with one byte changed" },
  {
    name: "multi_agent",
    what: "multi_agent_signature (sender + one secondary signer)",
    twin: "the secondary signature with one byte changed",
  },
  { name: "fee_payer", what: "fee_payer_signature (sender + fee payer)", twin: "the sender's signature with one byte changed" },
  {
    name: "fee_payer_with_secondary",
    what: "fee_payer_signature (sender + one secondary signer + fee payer)",
    twin: "the secondary signature over other bytes (the multi-agent message, without the fee payer)",
  },
  {
    name: "sponsored_account_creation",
    what: "fee_payer_signature from a new account (sequence number 0, no account yet; the fee payer pays)",
    twin: "the fee payer's signature over other bytes (the single-signer message)",
  },
  { name: "single_key_ed25519", what: "single_sender with a single_key_signature (ed25519)", twin: "the signature with one byte changed" },
  {
    name: "single_key_secp256k1_ecdsa",
    what: "single_sender with a single_key_signature (secp256k1_ecdsa)",
    twin: "the signature with one byte changed",
  },
  {
    name: "single_key_secp256r1_web_authn",
    what: "single_sender with a single_key_signature (secp256r1_ecdsa key, web_authn signature)",
    twin: "the P-256 signature inside the assertion with one byte changed",
  },
  {
    name: "multi_key",
    what: "single_sender with a multi_key_signature (ed25519, secp256k1_ecdsa and secp256r1_ecdsa keys, 2 of 3)",
    twin: "the secp256k1_ecdsa signature with one byte changed",
  },
] as const;

export type FormName = (typeof FORMS)[number]["name"];

/** The kinds whose proof needs a provider the suite cannot be, each sent malformed. */
export const UNVERIFIABLE = [
  { name: "keyless", what: "a keyless key (unknown issuer) with a garbage Groth16 proof" },
  { name: "federated_keyless", what: "a federated_keyless key (unknown JWK address) with a garbage Groth16 proof" },
  { name: "web_authn", what: "a web_authn assertion with a zero signature and a challenge of other bytes" },
  { name: "abstraction", what: "an abstraction_signature naming an authentication function that does not exist" },
  { name: "no_account", what: "a no_account_signature, no signature at all, as the sender's" },
] as const;

export type UnverifiableName = (typeof UNVERIFIABLE)[number]["name"];

const FORMATS: readonly SubmitFormat[] = ["bcs", "json"];

/** A copy of `bytes` with one byte changed. */
function flip(bytes: Uint8Array, at = 0): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
}

/** A key of the suite's, derived from the run's seed and a label (32 bytes, valid for every curve here). */
function secret(seed: number, label: string): Uint8Array {
  return sha3_256(utf8ToBytes(`ledger-conformance signature forms/${seed}/${label}`));
}

/** MSB-first bitmap of `length` bytes with the bits of `indexes` set. */
function bitmap(length: number, indexes: readonly number[]): Uint8Array {
  const bits = new Uint8Array(length);
  for (const i of indexes) bits[i >> 3] = (bits[i >> 3] ?? 0) | (0x80 >> (i & 7));
  return bits;
}

/** An account key of one scheme: its address (= authentication key) and how it signs a message. */
interface FormKey {
  readonly address: Uint8Array;
  sign(message: Uint8Array, tamper: boolean): AccountAuthenticatorInput;
}

function legacyEd25519(account: Ed25519Account, address: Uint8Array = account.address): FormKey {
  return {
    address,
    sign: (message, tamper) => {
      const signature = account.sign(message);
      return { Ed25519: { public_key: account.publicKey, signature: tamper ? flip(signature) : signature } };
    },
  };
}

function singleKeyEd25519(account: Ed25519Account): FormKey {
  return {
    address: singleKeyAuthenticationKey({ Ed25519: account.publicKey }),
    sign: (message, tamper) => {
      const signature = account.sign(message);
      return { SingleKey: { public_key: { Ed25519: account.publicKey }, signature: { Ed25519: tamper ? flip(signature) : signature } } };
    },
  };
}

function singleKeySecp256k1(privateKey: Uint8Array): FormKey {
  const publicKey = secp256k1PublicKey(privateKey);
  return {
    address: singleKeyAuthenticationKey({ Secp256k1Ecdsa: publicKey }),
    sign: (message, tamper) => {
      const signature = secp256k1Sign(message, privateKey);
      return {
        SingleKey: { public_key: { Secp256k1Ecdsa: publicKey }, signature: { Secp256k1Ecdsa: tamper ? flip(signature, 40) : signature } },
      };
    },
  };
}

/** A passkey's assertion; tampered, one byte of the P-256 signature inside it changed (the challenge still right). */
function webAuthnAssertion(message: Uint8Array, privateKey: Uint8Array, tamper: boolean): Uint8Array {
  const assertion = webAuthnSign(message, privateKey);
  if (!tamper) return assertion;
  const parts = PartialAuthenticatorAssertionResponse.parse(assertion);
  const signature = parts.signature.Secp256r1Ecdsa as Uint8Array;
  return PartialAuthenticatorAssertionResponse.serialize({ ...parts, signature: { Secp256r1Ecdsa: flip(signature, 40) } }).toBytes();
}

function singleKeyWebAuthn(privateKey: Uint8Array): FormKey {
  const publicKey = secp256r1PublicKey(privateKey);
  return {
    address: singleKeyAuthenticationKey({ Secp256r1Ecdsa: publicKey }),
    sign: (message, tamper) => ({
      SingleKey: { public_key: { Secp256r1Ecdsa: publicKey }, signature: { WebAuthn: webAuthnAssertion(message, privateKey, tamper) } },
    }),
  };
}

/** ed25519, secp256k1 and secp256r1 keys, 2 of 3 required; keys 0 and 1 sign (bitmap of ceil(3/8) = 1 byte, as aptos-core's JSON form builds it). */
function multiKey(ed: Ed25519Account, k1: Uint8Array, r1: Uint8Array): FormKey {
  const public_keys = {
    public_keys: [{ Ed25519: ed.publicKey }, { Secp256k1Ecdsa: secp256k1PublicKey(k1) }, { Secp256r1Ecdsa: secp256r1PublicKey(r1) }],
    signatures_required: 2,
  };
  return {
    address: multiKeyAuthenticationKey(public_keys),
    sign: (message, tamper) => {
      const k1Signature = secp256k1Sign(message, k1);
      return {
        MultiKey: {
          public_keys,
          signatures: [{ Ed25519: ed.sign(message) }, { Secp256k1Ecdsa: tamper ? flip(k1Signature, 40) : k1Signature }],
          signatures_bitmap: bitmap(1, [0, 1]),
        },
      };
    },
  };
}

/** 3 ed25519 keys, threshold 2; keys 0 and 2 sign. Its form is the transaction authenticator MultiEd25519. */
function multiEd25519(keys: readonly Ed25519Account[]) {
  const public_key = { public_keys: keys.map((k) => k.publicKey), threshold: 2 };
  return {
    address: multiEd25519AuthenticationKey(public_key),
    sign: (message: Uint8Array, tamper: boolean) => {
      const signatures = [0, 2].map((i, n) => {
        const signature = (keys[i] as Ed25519Account).sign(message);
        return tamper && n === 1 ? flip(signature) : signature;
      });
      return { MultiEd25519: { public_key, signature: { signatures, bitmap: bitmap(4, [0, 2]) } } };
    },
  };
}

/** The keys of one format's forms. */
interface FormKeys {
  readonly multiEd25519: ReturnType<typeof multiEd25519>;
  readonly agent: FormKey;
  readonly payerSender: FormKey;
  readonly payer2Sender: FormKey;
  readonly singleKeyEd25519: FormKey;
  readonly secp256k1: FormKey;
  readonly webAuthn: FormKey;
  readonly multiKey: FormKey;
}

function formKeys(seed: number, format: SubmitFormat): FormKeys {
  const ed = (label: string) => new Ed25519Account(secret(seed, `${format}/${label}`));
  const raw = (label: string) => secret(seed, `${format}/${label}`);
  return {
    multiEd25519: multiEd25519([ed("multi-ed25519/0"), ed("multi-ed25519/1"), ed("multi-ed25519/2")]),
    agent: legacyEd25519(ed("multi-agent")),
    payerSender: legacyEd25519(ed("fee-payer")),
    payer2Sender: legacyEd25519(ed("fee-payer-with-secondary")),
    singleKeyEd25519: singleKeyEd25519(ed("single-key-ed25519")),
    secp256k1: singleKeySecp256k1(raw("single-key-secp256k1")),
    webAuthn: singleKeyWebAuthn(raw("single-key-secp256r1")),
    multiKey: multiKey(ed("multi-key/ed25519"), raw("multi-key/secp256k1"), raw("multi-key/secp256r1")),
  };
}

/** Every account a format's forms need funded, by sending address. */
function fundedAddresses(keys: FormKeys): Uint8Array[] {
  return [
    keys.multiEd25519.address,
    keys.agent.address,
    keys.payerSender.address,
    keys.payer2Sender.address,
    keys.singleKeyEd25519.address,
    keys.secp256k1.address,
    keys.webAuthn.address,
    keys.multiKey.address,
  ];
}

/** What a run's forms share: the signing setup, the keys, and the funder. */
interface FormsRun {
  readonly base: SubmitSetup;
  readonly seed: number;
  readonly keys: Readonly<Record<SubmitFormat, FormKeys>>;
  /** The funder as a form key: the secondary signer of multi_agent and every fee payer. */
  readonly funder: FormKey;
}

/** The run's forms run once opened: the run, or why the forms cannot be sent (the setup failed, or the funding was refused or not committed). */
const FORMS_RUN = runMemoryKey("signature forms' setup", (): { opened?: Promise<FormsRun | string> } => ({}));
/** The run's attempts of each form, by form and format. */
const ATTEMPTS = runMemoryKey("signature forms' attempts", () => new Map<string, Promise<Attempt>>());
/** The run's attempts of each unverifiable kind, by kind and format. */
const UNVERIFIABLE_ATTEMPTS = runMemoryKey("unverifiable signatures' attempts", () => new Map<string, Promise<HttpResponse>>());

/** One transaction's maximum fee (what the prologue wants the sender to hold) and its transfer, with room to spare. */
function fundingAmount(base: SubmitSetup): bigint {
  return MAX_GAS_AMOUNT * base.gasUnitPrice + 10n * TRANSFER_AMOUNT;
}

/** A transfer from the funder at `sequenceNumber` to `to`, signed. */
function fundingTransfer(base: SubmitSetup, to: Uint8Array, sequenceNumber: bigint): BuiltTransaction {
  const recipient = { ...base, recipient: formatAddress(to) };
  const raw: RawTransactionInput = {
    sender: base.senderBytes,
    sequence_number: sequenceNumber,
    payload: transferPayload(recipient, fundingAmount(base)),
    max_gas_amount: MAX_GAS_AMOUNT,
    gas_unit_price: base.gasUnitPrice,
    expiration_timestamp_secs: validExpiration(base),
    chain_id: base.chainId,
  };
  return built(base, base.sender.signTransaction(raw), sequenceNumber);
}

function built(base: SubmitSetup, signed: SignedTransactionInput, sequenceNumber: bigint): BuiltTransaction {
  const bytes = encodeSignedTransaction(signed);
  const decoded = decodeSignedTransaction(bytes);
  return {
    raw: signed.raw_txn,
    signed: decoded,
    bytes,
    json: signedTransactionToJson(decoded, { functionParams: base.functionParams }),
    hash: toHex(transactionHash(bytes)),
    sequenceNumber,
  };
}

/** Creates and funds every form's account with transfers from the funder, then waits for the last to commit. */
async function fund(t: CheckContext, base: SubmitSetup, targets: readonly Uint8Array[]): Promise<string | undefined> {
  let sequenceNumber = await nextSequenceNumber(t, base);
  let first: HttpResponse | undefined;
  let last: BuiltTransaction | undefined;
  for (const to of targets) {
    for (let attempt = 0; ; attempt++) {
      const tx = fundingTransfer(base, to, sequenceNumber);
      const res = await send(t, tx, "bcs");
      if (res.status >= 200 && res.status < 300) {
        markSequenceNumberUsed(base, sequenceNumber);
        sequenceNumber += 1n;
        first ??= res;
        last = tx;
        break;
      }
      if (!isSequenceConflict(res) || attempt >= 2)
        return `a transfer funding the forms' accounts from ${base.senderAddress} was refused (${res.status} ${res.text.slice(0, 200)})`;
      sequenceNumber += 1n;
    }
  }
  if (first === undefined || last === undefined) return undefined;
  const from = t.ledgerState(first).ledgerVersion ?? 0n;
  const { summary } = await waitForCommit(t, base, last.hash, from);
  return summary === undefined ? `the transfers funding the forms' accounts (the last ${last.hash}) were not committed in time` : undefined;
}

async function openFormsRun(t: CheckContext): Promise<FormsRun | string> {
  let base: SubmitSetup;
  try {
    base = await submitSetup(t, "forms");
  } catch (error) {
    // What signing needs (chain id, gas price, the transfer's ABI) is other requirements' to judge.
    if (error instanceof CheckFailure) return `the forms could not be signed: ${error.message.split("\n")[0]}`;
    throw error;
  }
  const seed = useRunSeed(t.config);
  const keys = { bcs: formKeys(seed, "bcs"), json: formKeys(seed, "json") };
  const funder = legacyEd25519(base.sender, base.senderBytes);
  const unavailable = await fund(t, base, [...fundedAddresses(keys.bcs), ...fundedAddresses(keys.json)]);
  return unavailable ?? { base, seed, keys, funder };
}

/** The forms run (opened once, by the first check that asks, with its requests). */
async function formsRunOf(t: CheckContext): Promise<FormsRun | string> {
  const formsRun = t.remembered(FORMS_RUN);
  formsRun.opened ??= openFormsRun(t).catch((error: unknown) => {
    formsRun.opened = undefined;
    throw error;
  });
  return formsRun.opened;
}

/** What sending one form in one format gave: the tampered twin's answer, then the valid one's. */
export interface Attempt {
  readonly sender: SubmitSetup;
  readonly valid: BuiltTransaction;
  readonly twin: BuiltTransaction;
  readonly twinRes: HttpResponse;
  readonly validRes: HttpResponse;
}

/** A SubmitSetup whose sender is `address` (for its sequence number and summaries). */
function senderSetup(base: SubmitSetup, address: Uint8Array): SubmitSetup {
  return { ...base, senderBytes: address, senderAddress: formatAddress(address) };
}

function rawFor(
  base: SubmitSetup,
  sender: Uint8Array,
  sequenceNumber: bigint,
  amount: bigint = TRANSFER_AMOUNT,
  payload: TransactionPayloadInput = transferPayload(base, amount),
): RawTransactionInput {
  return {
    sender,
    sequence_number: sequenceNumber,
    payload,
    max_gas_amount: MAX_GAS_AMOUNT,
    gas_unit_price: base.gasUnitPrice,
    expiration_timestamp_secs: validExpiration(base),
    chain_id: base.chainId,
  };
}

/** The message every signer of a fee-payer transaction signs (the fee payer's address set). */
function feePayerMessage(raw: RawTransactionInput, secondaries: readonly Uint8Array[], feePayer: Uint8Array): Uint8Array {
  return signingMessageWithData({
    MultiAgentWithFeePayer: { raw_txn: raw, secondary_signer_addresses: [...secondaries], fee_payer_address: feePayer },
  });
}

function multiAgentMessage(raw: RawTransactionInput, secondaries: readonly Uint8Array[]): Uint8Array {
  return signingMessageWithData({ MultiAgent: { raw_txn: raw, secondary_signer_addresses: [...secondaries] } });
}

/** A fee-payer transaction: sender and secondaries sign `senderMessage`, the fee payer `payerMessage`. */
function feePayerTransaction(
  raw: RawTransactionInput,
  sender: AccountAuthenticatorInput,
  secondaries: readonly { address: Uint8Array; auth: AccountAuthenticatorInput }[],
  funder: FormKey,
  payerAuth: AccountAuthenticatorInput,
): SignedTransactionInput {
  return {
    raw_txn: raw,
    authenticator: {
      FeePayer: {
        sender,
        secondary_signer_addresses: secondaries.map((s) => s.address),
        secondary_signers: secondaries.map((s) => s.auth),
        fee_payer_address: funder.address,
        fee_payer_signer: payerAuth,
      },
    },
  };
}

/** The valid transaction of a form and its tampered twin, with the sender they are sent from. */
function buildForm(
  s: FormsRun,
  form: FormName,
  format: SubmitFormat,
  sender: Uint8Array,
  sequenceNumber: bigint,
): { valid: SignedTransactionInput; twin: SignedTransactionInput } {
  const keys = s.keys[format];
  const both = (make: (tamper: boolean) => SignedTransactionInput) => ({ valid: make(false), twin: make(true) });
  const singleSender = (key: FormKey) =>
    both((tamper) => {
      const raw = rawFor(s.base, sender, sequenceNumber);
      return { raw_txn: raw, authenticator: { SingleSender: { sender: key.sign(signingMessage(raw), tamper) } } };
    });
  switch (form) {
    case "multi_ed25519":
      return both((tamper) => {
        const raw = rawFor(s.base, sender, sequenceNumber);
        return { raw_txn: raw, authenticator: keys.multiEd25519.sign(signingMessage(raw), tamper) };
      });
    case "multi_agent":
      return both((tamper) => {
        const raw = rawFor(s.base, sender, sequenceNumber, TRANSFER_AMOUNT, twoSignerTransferPayload(s.base));
        const message = multiAgentMessage(raw, [s.funder.address]);
        return {
          raw_txn: raw,
          authenticator: {
            MultiAgent: {
              sender: keys.agent.sign(message, false),
              secondary_signer_addresses: [s.funder.address],
              secondary_signers: [s.funder.sign(message, tamper)],
            },
          },
        };
      });
    case "fee_payer":
      return both((tamper) => {
        const raw = rawFor(s.base, sender, sequenceNumber);
        const message = feePayerMessage(raw, [], s.funder.address);
        return feePayerTransaction(raw, keys.payerSender.sign(message, tamper), [], s.funder, s.funder.sign(message, false));
      });
    case "fee_payer_with_secondary":
      return both((tamper) => {
        const raw = rawFor(s.base, sender, sequenceNumber, TRANSFER_AMOUNT, twoSignerTransferPayload(s.base));
        const secondaries = [keys.agent.address];
        const message = feePayerMessage(raw, secondaries, s.funder.address);
        const secondaryMessage = tamper ? multiAgentMessage(raw, secondaries) : message;
        return feePayerTransaction(
          raw,
          keys.payer2Sender.sign(message, false),
          [{ address: keys.agent.address, auth: keys.agent.sign(secondaryMessage, false) }],
          s.funder,
          s.funder.sign(message, false),
        );
      });
    case "sponsored_account_creation":
      return both((tamper) => {
        const fresh = freshKey(s, format, sender);
        const raw = rawFor(s.base, sender, 0n, 0n);
        const message = feePayerMessage(raw, [], s.funder.address);
        return feePayerTransaction(
          raw,
          fresh.sign(message, false),
          [],
          s.funder,
          s.funder.sign(tamper ? signingMessage(raw) : message, false),
        );
      });
    case "single_key_ed25519":
      return singleSender(keys.singleKeyEd25519);
    case "single_key_secp256k1_ecdsa":
      return singleSender(keys.secp256k1);
    case "single_key_secp256r1_web_authn":
      return singleSender(keys.webAuthn);
    case "multi_key":
      return singleSender(keys.multiKey);
  }
}

/** The sending address of a form (the sponsored creation's is chosen by freshAddress). */
function senderOf(s: FormsRun, form: Exclude<FormName, "sponsored_account_creation">, format: SubmitFormat): Uint8Array {
  const keys = s.keys[format];
  switch (form) {
    case "multi_ed25519":
      return keys.multiEd25519.address;
    case "multi_agent":
      return keys.agent.address;
    case "fee_payer":
      return keys.payerSender.address;
    case "fee_payer_with_secondary":
      return keys.payer2Sender.address;
    case "single_key_ed25519":
      return keys.singleKeyEd25519.address;
    case "single_key_secp256k1_ecdsa":
      return keys.secp256k1.address;
    case "single_key_secp256r1_web_authn":
      return keys.webAuthn.address;
    case "multi_key":
      return keys.multiKey.address;
  }
}

/** The candidate keys of the sponsored creation: a few, in case an earlier run with the same seed created the first. */
function freshCandidates(s: FormsRun, format: SubmitFormat): Ed25519Account[] {
  return [0, 1, 2, 3].map((i) => new Ed25519Account(secret(s.seed, `${format}/sponsored-account-creation/${i}`)));
}

function freshKey(s: FormsRun, format: SubmitFormat, address: Uint8Array): FormKey {
  const account = freshCandidates(s, format).find((a) => bytesEqual(a.address, address));
  if (account === undefined) throw new Error("freshKey: not a candidate address");
  return legacyEd25519(account);
}

/**
 * The first candidate address with no account and no transactions: GET /accounts/{address} (beyond the
 * spec) not 200, and no summaries (§4.3; `[]` by the family's convention, or a 404).
 */
async function freshAddress(t: CheckContext, s: FormsRun, format: SubmitFormat): Promise<Uint8Array> {
  for (const candidate of freshCandidates(s, format)) {
    const address = formatAddress(candidate.address);
    const account = await t.request({ path: `/accounts/${address}` });
    if (account.status === 200) continue;
    const summaries = await t.request({ path: `/accounts/${address}/transaction_summaries` });
    const none = summaries.status === 404 || (summaries.status === 200 && Array.isArray(summaries.json) && summaries.json.length === 0);
    if (none) return candidate.address;
  }
  throw new CheckSkipped("every candidate key for a new account already has an account or transactions (an earlier run with this --seed)");
}

/** The forms' formsRun, or the check ends skipped with why the forms cannot be sent. */
async function usableFormsRun(t: CheckContext): Promise<FormsRun> {
  const s = await formsRunOf(t);
  if (typeof s === "string") throw new CheckSkipped(s);
  return s;
}

async function sendForm(t: CheckContext, form: FormName, format: SubmitFormat): Promise<Attempt> {
  const s = await usableFormsRun(t);
  const address = form === "sponsored_account_creation" ? await freshAddress(t, s, format) : senderOf(s, form, format);
  const sender = senderSetup(s.base, address);
  const sequenceNumber = form === "sponsored_account_creation" ? 0n : await nextSequenceNumber(t, sender);
  const { valid, twin } = buildForm(s, form, format, address, sequenceNumber);
  const twinTx = built(s.base, twin, sequenceNumber);
  const validTx = built(s.base, valid, sequenceNumber);
  // The twin first: refused, it leaves the sequence number to the valid transaction.
  const twinRes = await send(t, twinTx, format);
  const validRes = await send(t, validTx, format);
  if (validRes.status >= 200 && validRes.status < 300) markSequenceNumberUsed(sender, sequenceNumber);
  return { sender, valid: validTx, twin: twinTx, twinRes, validRes };
}

/** Sends a form's twin and valid transaction once per run and format; both checks of the form read the answers. */
export function formAttempt(t: CheckContext, form: FormName, format: SubmitFormat): Promise<Attempt> {
  const key = `${form}/${format}`;
  const attempts = t.remembered(ATTEMPTS);
  let attempt = attempts.get(key);
  if (attempt === undefined) {
    attempt = sendForm(t, form, format);
    attempts.set(key, attempt);
  }
  return attempt;
}

export { FORMATS as SIGNATURE_FORM_FORMATS };

// ---- the unverifiable kinds ----

const GARBAGE_PROOF = { Groth16: { a: new Uint8Array(32).fill(1), b: new Uint8Array(64).fill(2), c: new Uint8Array(32).fill(3) } };

function keylessSignature(nowSeconds: bigint): Uint8Array {
  return KeylessSignatureLayout.serialize({
    cert: {
      ZeroKnowledgeSig: {
        proof: GARBAGE_PROOF,
        exp_horizon_secs: 10_000_000n,
        extra_field: null,
        override_aud_val: null,
        training_wheels_signature: null,
      },
    },
    jwt_header_json: '{"alg":"RS256","kid":"unknown","typ":"JWT"}',
    exp_date_secs: nowSeconds + 3600n,
    ephemeral_pubkey: { Ed25519: new Uint8Array(32).fill(4) },
    ephemeral_signature: { Ed25519: new Uint8Array(64).fill(5) },
  }).toBytes();
}

const keylessKey = () => ({ iss_val: "https://issuer.invalid", idc: new Uint8Array(32).fill(6) });

/** The malformed sender authenticator of a kind, and the address it speaks for. */
function unverifiableSender(kind: UnverifiableName, s: FormsRun, message: Uint8Array): AccountAuthenticatorInput {
  switch (kind) {
    case "keyless":
      return {
        SingleKey: {
          public_key: { Keyless: KeylessPublicKeyLayout.serialize(keylessKey()).toBytes() },
          signature: { Keyless: keylessSignature(s.base.chainNowSeconds) },
        },
      };
    case "federated_keyless":
      return {
        SingleKey: {
          public_key: {
            FederatedKeyless: FederatedKeylessPublicKeyLayout.serialize({
              jwk_addr: new Uint8Array(32).fill(0x0f),
              pk: keylessKey(),
            }).toBytes(),
          },
          signature: { Keyless: keylessSignature(s.base.chainNowSeconds) },
        },
      };
    case "web_authn": {
      const assertion = PartialAuthenticatorAssertionResponse.serialize({
        signature: { Secp256r1Ecdsa: new Uint8Array(64) },
        authenticator_data: new Uint8Array(37),
        client_data_json: utf8ToBytes('{"type":"webauthn.get","challenge":"AAAA","origin":"http://localhost"}'),
      }).toBytes();
      return {
        SingleKey: {
          public_key: { Secp256r1Ecdsa: secp256r1PublicKey(secret(s.seed, "unverifiable/web-authn")) },
          signature: { WebAuthn: assertion },
        },
      };
    }
    case "no_account":
      return { NoAccountAuthenticator: true };
    case "abstraction":
      return {
        Abstraction: {
          function_info: { module_address: parseAddress("0x1"), module_name: "no_such_authenticator", function_name: "authenticate" },
          auth_data: { V1: { signing_message_digest: sha3_256(message), authenticator: new Uint8Array(16).fill(9) } },
        },
      };
  }
}

/** The address a kind's sender claims: its key's authentication key, or for abstraction a derived one. */
function unverifiableAddress(kind: UnverifiableName, s: FormsRun, probe: AccountAuthenticatorInput): Uint8Array {
  if ("SingleKey" in probe && probe.SingleKey !== undefined) return singleKeyAuthenticationKey(probe.SingleKey.public_key);
  return sha3_256(utf8ToBytes(`ledger-conformance unverifiable/${s.seed}/${kind}`));
}

/**
 * A fee-payer transaction whose sender is a new account speaking through a malformed authenticator of
 * `kind`, with a valid fee payer signature: a node that skipped the sender's check would create the
 * account and commit it (the sponsored creation), so accepting it is accepting the malformed proof.
 */
async function sendUnverifiable(t: CheckContext, kind: UnverifiableName, format: SubmitFormat): Promise<HttpResponse> {
  const s = await usableFormsRun(t);
  const probe = unverifiableSender(kind, s, new Uint8Array());
  const address = unverifiableAddress(kind, s, probe);
  const raw = rawFor(s.base, address, 0n, 0n);
  const message = feePayerMessage(raw, [], s.funder.address);
  const signed = feePayerTransaction(raw, unverifiableSender(kind, s, message), [], s.funder, s.funder.sign(message, false));
  return send(t, built(s.base, signed, 0n), format);
}

export function unverifiableAttempt(t: CheckContext, kind: UnverifiableName, format: SubmitFormat): Promise<HttpResponse> {
  const key = `${kind}/${format}`;
  const unverifiableAttempts = t.remembered(UNVERIFIABLE_ATTEMPTS);
  let attempt = unverifiableAttempts.get(key);
  if (attempt === undefined) {
    attempt = sendUnverifiable(t, kind, format);
    unverifiableAttempts.set(key, attempt);
  }
  return attempt;
}
