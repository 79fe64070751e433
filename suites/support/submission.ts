// What the §4.8 suites need to build and send real transactions: the sender's next sequence number,
// the chain id (from the §2.7 header), the gas unit price (§4.6), the parameter types of
// 0x1::aptos_account::transfer (from its ABI, §4.4: the JSON form of the arguments needs them), and a
// transfer signed with the codec.
//
// Sequence numbers come from where the family's clients take them: GET /v1/accounts/{address} (beyond
// the spec; aptos-core api/src/accounts.rs answers AccountData {sequence_number: U64,
// authentication_key}, api/types/src/account.rs) when the target answers it 200 with a u64; else the
// sender's most recent transaction summaries (§4.3), which on a long-lived node may have been pruned.
// This worker also remembers the next number after every transaction it got accepted (summaries show
// committed ones only), and when the node still calls a number stale it moves up one, a bounded number
// of times: a number picked further ahead would be parked by the mempool, never committed. A number
// the suite cannot get right is its own bookkeeping, not a verdict on the node: the check is skipped
// with the reason (unless the node's own GET /accounts/{address} named it).

import {
  bytesEqual,
  decodeSignedTransaction,
  Ed25519Account,
  encodeMoveValue,
  encodeSignedTransaction,
  formatAddress,
  parseAddress,
  parseTypeTag,
  signedTransactionToJson,
  toHex,
  transactionHash,
  type FunctionParams,
  type RawTransactionInput,
  type SignedTransaction,
  type TransactionPayloadInput,
} from "../../src/codec/index.ts";
import {
  boundedInteger,
  CheckSkipped,
  errorCodeOf,
  runMemoryKey,
  SequenceBook,
  vmErrorCodeOf,
  type CheckContext,
  type HttpResponse,
} from "../../src/harness/index.ts";
import { sequenceNumberOf } from "./replay-protector.ts";

/** A transfer of this many octas: small, so a run costs the fixtures accounts next to nothing. */
export const TRANSFER_AMOUNT = 100n;
/** Enough for a transfer on the family's nodes, small enough for any funded account to cover. */
export const MAX_GAS_AMOUNT = 20_000n;
/** How long a valid transaction stays valid (the brief: now + 60 s). */
const TTL_SECONDS = 60n;
/** How long an accepted transaction may take to show up in the sender's summaries. */
export const COMMIT_TIMEOUT_MS = 10_000;
/**
 * The waits between looks at the summaries: short at first, as a node with short blocks commits within
 * a fraction of a second, then longer, so a slow node is asked a bounded number of times (~25 in 10 s).
 */
const FIRST_POLL_MS = 50;
const LONGEST_POLL_MS = 500;

/**
 * Which fixtures account sends: different files use different senders, so their sequence numbers never
 * race. "forms" funds the accounts of the signature forms (suites/support/signature-forms.ts); "bodies"
 * sends the valid transactions in flawed bodies (submit-transaction-body-flaws), beside "rejected".
 */
export type SenderRole = "accepted" | "rejected" | "forms" | "bodies";

/** How far from the end of the fixtures' accounts each role's sender is (the first account when there are fewer). */
const ROLE_OFFSET: Record<SenderRole, number> = { accepted: 1, rejected: 2, forms: 3, bodies: 4 };

/** What signing needs from the node besides keys, read with one §4.6 call. */
export interface ChainParameters {
  readonly chainId: number;
  readonly gasUnitPrice: bigint;
  /** Chain time (X-NODE-LEDGER-TIMESTAMPUSEC) in whole seconds when it was read (this machine's clock without the header). */
  readonly chainNowSeconds: bigint;
  /** This machine's clock, in ms, when the chain time was read. */
  readonly readAtMs: number;
}

export interface SubmitSetup extends ChainParameters {
  /** The key that signs. */
  readonly sender: Ed25519Account;
  /** The sender's address as the fixtures give it (a rotated key's account keeps its first address). */
  readonly senderBytes: Uint8Array;
  /** formatAddress of the sender. */
  readonly senderAddress: string;
  readonly recipient: string;
  /** Parameter types of the transfer function, for the JSON form. */
  readonly functionParams: FunctionParams;
  /** The run's book of the senders' next sequence numbers (every worker's submissions), by address. */
  readonly sequences: SequenceBook;
}

export interface BuiltTransaction {
  readonly raw: RawTransactionInput;
  readonly signed: SignedTransaction;
  /** The BCS body of a BCS submission. */
  readonly bytes: Uint8Array;
  /** The body of a JSON submission (the family's member names). */
  readonly json: Record<string, unknown>;
  /** transactionHash of `bytes`, as 0x + 64 hex digits. */
  readonly hash: string;
  readonly sequenceNumber: bigint;
}

export type SubmitFormat = "bcs" | "json";

// The answer to GET /accounts/{address} that submitSetup read beside the chain's parameters, until the
// check's first question about the account's sequence number takes it. A setup copied with another
// sender is another object, without one.
const accountReadWithSetup = new WeakMap<SubmitSetup, HttpResponse>();
/** A sender's transfer (made to get a committed sequence number) that was not committed in time. */
interface UncommittedTransfer {
  readonly hash: string;
  readonly from: bigint;
  readonly sequenceNumber: bigint;
  waitedAgain: boolean;
}
/** The run's uncommitted transfers, by sender address. */
const UNCOMMITTED = runMemoryKey("uncommitted transfers", () => new Map<string, UncommittedTransfer>());

/** The fixtures accounts (the check has called t.needsFixture("accounts")), the sender and the recipient for a role. */
function pickAccounts(t: CheckContext, role: SenderRole): { sender: Ed25519Account; senderBytes: Uint8Array; recipient: string } {
  const accounts = t.needsFixture("accounts");
  // The last accounts of the list: other suites tend to start at the first one.
  const index = Math.max(0, accounts.length - ROLE_OFFSET[role]);
  const entry = accounts[index] as (typeof accounts)[number];
  const sender = Ed25519Account.fromHex(entry.privateKey);
  const other = accounts.find((_, i) => i !== index) ?? entry;
  return { sender, senderBytes: parseAddress(entry.address), recipient: formatAddress(parseAddress(other.address)) };
}

/** Chain id, gas price and chain time from one GET /estimate_gas_price (§4.6); fails the check without them. */
export async function chainParameters(t: CheckContext): Promise<ChainParameters> {
  const gas = await t.request({ path: "/estimate_gas_price" });
  t.expectStatus(gas, 200);
  const gasUnitPrice = (gas.json as { gas_estimate?: unknown } | undefined)?.gas_estimate;
  t.expect(Number.isSafeInteger(gasUnitPrice), "a gas_estimate integer from /estimate_gas_price (to set gas_unit_price)", gas);
  const chainHeader = t.header(gas, "CHAIN-ID");
  const chainId = chainHeader !== undefined && /^[0-9]+$/.test(chainHeader) ? Number(chainHeader) : t.fixtures.chainId;
  t.expect(chainId !== undefined && chainId <= 255, `a ${t.headerName("CHAIN-ID")} header (the chain id to sign for)`, gas);
  const usec = t.ledgerState(gas).timestampUsec;
  const readAtMs = Date.now();
  const chainNowSeconds = usec === undefined ? BigInt(Math.floor(readAtMs / 1000)) : usec / 1_000_000n;
  return { chainId: chainId as number, gasUnitPrice: BigInt(gasUnitPrice as number), chainNowSeconds, readAtMs };
}

/** Reads what signing needs from the node (chainParameters) and the transfer ABI. */
export async function submitSetup(t: CheckContext, role: SenderRole): Promise<SubmitSetup> {
  const { sender, senderBytes, recipient } = pickAccounts(t, role);
  const senderAddress = formatAddress(senderBytes);
  // Three reads that depend on none of each other go at once: behind a slow link each is a round trip,
  // and a submission check is a few of them one after another. The sender's account is read with them
  // for the sequence number that the check asks for next (accountSequenceNumber); a failure is judged
  // in the order the reads were written.
  const [chainRead, moduleRead, accountRead] = await Promise.allSettled([
    chainParameters(t),
    t.request({ path: "/accounts/0x1/module/aptos_account" }),
    t.request({ path: `/accounts/${senderAddress}` }),
  ]);
  if (chainRead.status === "rejected") throw chainRead.reason;
  if (moduleRead.status === "rejected") throw moduleRead.reason;
  const chain = chainRead.value;
  const module = moduleRead.value;
  t.expectStatus(module, 200);
  const functions = (module.json as { abi?: { exposed_functions?: unknown } } | undefined)?.abi?.exposed_functions;
  const transfer = Array.isArray(functions)
    ? (functions as { name?: unknown; params?: unknown }[]).find((f) => f.name === "transfer")
    : undefined;
  const params = Array.isArray(transfer?.params)
    ? (transfer.params as unknown[]).filter((p): p is string => typeof p === "string")
    : undefined;
  t.expect(params !== undefined, "the ABI of 0x1::aptos_account with a transfer function and its params (for the JSON form)", module);
  const nonSigner = (params ?? []).filter((p) => !/^&?\s*signer$/.test(p.trim()));
  const functionParams: FunctionParams = (address, moduleName, functionName) =>
    address === "0x1" && moduleName === "aptos_account" && functionName === "transfer" ? nonSigner : undefined;

  const setup: SubmitSetup = { sender, senderBytes, senderAddress, recipient, ...chain, functionParams, sequences: t.sequences };
  if (accountRead.status === "fulfilled") accountReadWithSetup.set(setup, accountRead.value);
  return setup;
}

interface SummaryJson {
  sender?: unknown;
  version?: unknown;
  transaction_hash?: unknown;
  /** Either §2.3 form or aptos-core's bare u64 string: read with sequenceNumberOf. */
  replay_protector?: unknown;
}

/** The sender's summaries (§4.3) from `startVersion` (or the most recent ones); fails the check unless 200 with an array. */
async function summaries(t: CheckContext, address: string, startVersion?: bigint): Promise<{ res: HttpResponse; items: SummaryJson[] }> {
  const res = await t.request({
    path: `/accounts/${address}/transaction_summaries`,
    query: startVersion === undefined ? {} : { start_version: startVersion.toString(), limit: 100 },
  });
  t.expectStatus(res, 200);
  t.expect(Array.isArray(res.json), "the sender's transaction summaries as a JSON array", res);
  return { res, items: res.json as SummaryJson[] };
}

function sentBy(summary: SummaryJson, address: Uint8Array): boolean {
  try {
    return typeof summary.sender === "string" && bytesEqual(parseAddress(summary.sender), address);
  } catch {
    return false;
  }
}

/** The highest sequence number among the sender's committed transactions (most recent summaries), if any. */
export async function lastCommittedSequenceNumber(t: CheckContext, setup: SubmitSetup): Promise<bigint | undefined> {
  const { items } = await summaries(t, setup.senderAddress);
  let last: bigint | undefined;
  for (const s of items) {
    const seq = sequenceNumberOf(s.replay_protector);
    if (!sentBy(s, setup.senderBytes) || seq === undefined) continue;
    if (last === undefined || seq > last) last = seq;
  }
  return last;
}

/**
 * The account's sequence number (the next one it may use) from GET /accounts/{address}, when the
 * target offers that endpoint (beyond the spec) and answers 200 with a u64 sequence_number; else undefined.
 */
export async function accountSequenceNumber(t: CheckContext, setup: SubmitSetup): Promise<bigint | undefined> {
  const withSetup = accountReadWithSetup.get(setup);
  if (withSetup !== undefined) {
    // Read with the setup, and used once: any later question about the account is asked again.
    accountReadWithSetup.delete(setup);
    return sequenceNumberInAccount(withSetup);
  }
  return sequenceNumberInAccount(await t.request({ path: `/accounts/${setup.senderAddress}` }));
}

/** The u64 sequence_number of a 200 answer to GET /accounts/{address}, else undefined. */
export function sequenceNumberInAccount(res: HttpResponse): bigint | undefined {
  const seq = (res.json as { sequence_number?: unknown } | undefined)?.sequence_number;
  return res.status === 200 && typeof seq === "string" ? boundedInteger(seq) : undefined;
}

/**
 * The sender's next sequence number: the account's (GET /accounts/{address}), else after its last
 * committed transaction in its summaries (0 without one); or after what this worker got accepted, if higher.
 */
export async function nextSequenceNumber(t: CheckContext, setup: SubmitSetup): Promise<bigint> {
  return (await nextSequence(t, setup)).next;
}

/** nextSequenceNumber, and whether the node itself gave the account's number (GET /accounts/{address}). */
async function nextSequence(t: CheckContext, setup: SubmitSetup): Promise<{ next: bigint; fromAccount: boolean }> {
  const account = await accountSequenceNumber(t, setup);
  let committedNext = account;
  if (committedNext === undefined) {
    const last = await lastCommittedSequenceNumber(t, setup);
    committedNext = last === undefined ? 0n : last + 1n;
  }
  const known = setup.sequences.next(setup.senderBytes);
  return { next: committedNext > known ? committedNext : known, fromAccount: account !== undefined };
}

/**
 * Takes back markSequenceNumberUsed for the last number marked: its transaction, accepted, was not
 * committed in time and may have been dropped (a node may discard a transaction that cannot run), so
 * the next transfer asks for that number again (a refusal as taken moves on, submitValidTransfer).
 */
export function forgetSequenceNumber(setup: SubmitSetup, sequenceNumber: bigint): void {
  setup.sequences.forget(setup.senderBytes, sequenceNumber);
}

/** Records that `sequenceNumber` is taken (its transaction was accepted, or is pending elsewhere). */
export function markSequenceNumberUsed(setup: SubmitSetup, sequenceNumber: bigint): void {
  setup.sequences.markUsed(setup.senderBytes, sequenceNumber);
}

export interface TransferOptions {
  readonly sequenceNumber: bigint;
  readonly amount?: bigint;
  readonly chainId?: number;
  readonly expirationTimestampSecs?: bigint;
  /** Another payload than the transfer (e.g. a module bundle). */
  readonly payload?: TransactionPayloadInput;
}

/** Expiration of a valid transaction: 60 s after the later of chain time and this machine's clock. */
export function validExpiration(setup: SubmitSetup): bigint {
  const wall = BigInt(Math.floor(Date.now() / 1000));
  return (wall > setup.chainNowSeconds ? wall : setup.chainNowSeconds) + TTL_SECONDS;
}

/** Expiration of an expired transaction: 60 s before the earlier of chain time and this machine's clock. */
export function pastExpiration(setup: SubmitSetup): bigint {
  const wall = BigInt(Math.floor(Date.now() / 1000));
  const now = wall < setup.chainNowSeconds ? wall : setup.chainNowSeconds;
  return now > TTL_SECONDS ? now - TTL_SECONDS : 0n;
}

export function transferPayload(setup: SubmitSetup, amount: bigint = TRANSFER_AMOUNT): TransactionPayloadInput {
  return {
    EntryFunction: {
      module: { address: parseAddress("0x1"), name: "aptos_account" },
      function: "transfer",
      ty_args: [],
      args: [encodeMoveValue(parseTypeTag("address"), setup.recipient), encodeMoveValue(parseTypeTag("u64"), amount.toString())],
    },
  };
}

/** A transfer (or the given payload) from the sender, signed with the codec. */
export function buildTransfer(setup: SubmitSetup, options: TransferOptions): BuiltTransaction {
  const raw: RawTransactionInput = {
    sender: setup.senderBytes,
    sequence_number: options.sequenceNumber,
    payload: options.payload ?? transferPayload(setup, options.amount),
    max_gas_amount: MAX_GAS_AMOUNT,
    gas_unit_price: setup.gasUnitPrice,
    expiration_timestamp_secs: options.expirationTimestampSecs ?? validExpiration(setup),
    chain_id: options.chainId ?? setup.chainId,
  };
  return finish(setup, raw, setup.sender.signTransaction(raw), options.sequenceNumber);
}

/** The same transaction with one bit of its ed25519 signature flipped. */
export function withTamperedSignature(setup: SubmitSetup, tx: BuiltTransaction): BuiltTransaction {
  const auth = tx.signed.authenticator;
  if (auth.$kind !== "Ed25519") throw new Error("withTamperedSignature: expected an Ed25519 authenticator");
  const signature = new Uint8Array(auth.Ed25519.signature);
  signature[0] = (signature[0] ?? 0) ^ 0x01;
  const signed = { raw_txn: tx.raw, authenticator: { Ed25519: { public_key: auth.Ed25519.public_key, signature } } };
  const bytes = encodeSignedTransaction(signed);
  return finish(setup, tx.raw, decodeSignedTransaction(bytes), tx.sequenceNumber);
}

/** A raw transaction and its signature as the suite sends them: BCS bytes, JSON form, hash. */
export function finish(setup: SubmitSetup, raw: RawTransactionInput, signed: SignedTransaction, sequenceNumber: bigint): BuiltTransaction {
  const bytes = encodeSignedTransaction(signed);
  return {
    raw,
    signed,
    bytes,
    json: signedTransactionToJson(signed, { functionParams: setup.functionParams }),
    hash: toHex(transactionHash(bytes)),
    sequenceNumber,
  };
}

/** Sends a built transaction in one of the two §4.8 formats. */
export function send(t: CheckContext, tx: BuiltTransaction, format: SubmitFormat, accept: "json" | "bcs" = "json"): Promise<HttpResponse> {
  return t.request({ method: "POST", path: "/transactions", accept, ...(format === "bcs" ? { bcs: tx.bytes } : { json: tx.json }) });
}

/** A node that accepted what it should have refused took the sequence number: later checks must skip it. */
export function noteIfAccepted(setup: SubmitSetup, tx: BuiltTransaction, res: HttpResponse): void {
  if (res.status >= 200 && res.status < 300) markSequenceNumberUsed(setup, tx.sequenceNumber);
}

/**
 * A transaction with one flaw must be refused as the client's error: a 4xx (§4.8 lists 400 and 404 but
 * leaves their conditions unshown, §7.1; the family's 400 is 4.8/refusals-400's). A refusal of its
 * sequence number instead says nothing about the flaw (the suite's number was out of date): then the
 * check ends skipped.
 */
export function expectRefusedForFlaw(
  t: CheckContext,
  setup: SubmitSetup,
  tx: BuiltTransaction,
  res: HttpResponse,
  flaw: string,
  status?: 400,
): void {
  noteIfAccepted(setup, tx, res);
  if (isSequenceConflict(res)) staleBookkeeping(setup, tx, res, `the refusal says nothing about ${flaw}`);
  if (status === undefined) t.expectClientError(res, `a transaction refused for ${flaw}`);
  else t.expectStatus(res, status);
}

/** Whether a 400 says the sequence number is taken (committed or pending): a race, not a verdict on the transaction. */
export function isSequenceConflict(res: HttpResponse): boolean {
  return res.status === 400 && (errorCodeOf(res) === "invalid_transaction_update" || isStaleSequenceRefusal(res));
}

/** The stale-sequence-number refusal of the family's nodes: vm_error with vm_error_code 3 (SEQUENCE_NUMBER_TOO_OLD), or sequence_number_too_old. */
export function isStaleSequenceRefusal(res: HttpResponse): boolean {
  const code = errorCodeOf(res);
  return code === "sequence_number_too_old" || (code === "vm_error" && vmErrorCodeOf(res) === 3);
}

const ATTEMPTS = 3;

/** Ends the check skipped: the node refused the suite's sequence number, which says nothing about the requirement. */
export function staleBookkeeping(setup: SubmitSetup, tx: BuiltTransaction, res: HttpResponse, what: string): never {
  const vmCode = vmErrorCodeOf(res);
  throw new CheckSkipped(
    `${what}: the node refused sequence number ${tx.sequenceNumber} of ${setup.senderAddress} as taken (400 ${String(errorCodeOf(res))}` +
      `${vmCode === undefined ? "" : ` ${vmCode}`}): the suite's number was out of date ` +
      "(it reads GET /accounts/{address}, beyond the spec, else the account's summaries, which a long-lived node may have pruned)",
  );
}

/**
 * Builds a valid transfer at the sender's next sequence number and sends it; when the node says the
 * number is taken (another worker's transaction, pending or just committed, or history the summaries
 * no longer show), moves on to the next one, at most three times, and then ends the check skipped,
 * unless the numbers came from the node's own GET /accounts/{address}. Returns the accepted attempt,
 * or the last one refused. A 2xx marks the number used.
 */
export async function submitValidTransfer(
  t: CheckContext,
  setup: SubmitSetup,
  format: SubmitFormat,
  accept: "json" | "bcs" = "json",
): Promise<{ res: HttpResponse; tx: BuiltTransaction }> {
  return submitValidPayload(t, setup, format, undefined, accept);
}

/** submitValidTransfer with another payload than the transfer (undefined: the transfer). */
export async function submitValidPayload(
  t: CheckContext,
  setup: SubmitSetup,
  format: SubmitFormat,
  payload: TransactionPayloadInput | undefined,
  accept: "json" | "bcs" = "json",
): Promise<{ res: HttpResponse; tx: BuiltTransaction }> {
  let last: { res: HttpResponse; tx: BuiltTransaction } | undefined;
  let fromAccount = false;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const next = await nextSequence(t, setup);
    const sequenceNumber = next.next;
    fromAccount = next.fromAccount;
    const tx = buildTransfer(setup, { sequenceNumber, ...(payload === undefined ? {} : { payload }) });
    const res = await send(t, tx, format, accept);
    last = { res, tx };
    if (res.status >= 200 && res.status < 300) {
      markSequenceNumberUsed(setup, sequenceNumber);
      return last;
    }
    if (!isSequenceConflict(res)) return last;
    markSequenceNumberUsed(setup, sequenceNumber);
  }
  // The node named the account's number itself and still calls it stale, and its account, read again
  // after the refusal, still names that number as the next: its own contradiction, evidence about the
  // node (the check judges the refusal). A number the account has moved past was taken between the
  // read and the submission by another of the suite's transactions from the same sender (another
  // file's checks send from it at once; behind a slow link each try loses that race again). A number
  // taken by a transaction pending in the mempool (invalid_transaction_update) is no contradiction
  // either: the account shows committed transactions only. Otherwise the suite's guess.
  const { res, tx } = last as { res: HttpResponse; tx: BuiltTransaction };
  if (fromAccount && errorCodeOf(res) !== "invalid_transaction_update") {
    const accountNow = await accountSequenceNumber(t, setup);
    if (accountNow !== undefined && accountNow <= tx.sequenceNumber) return { res, tx };
  }
  const what = payload === undefined ? "a valid transfer" : `a valid transaction (${Object.keys(payload)[0]} payload)`;
  return staleBookkeeping(setup, tx, res, `${what} could not be submitted after ${ATTEMPTS} sequence numbers`);
}

/**
 * Polls the sender's summaries from `startVersion` until one carries `hash`, for up to COMMIT_TIMEOUT_MS.
 * Returns the summary found (or undefined) and the last response.
 */
export async function waitForCommit(
  t: CheckContext,
  setup: SubmitSetup,
  hash: string,
  startVersion: bigint,
): Promise<{ summary: SummaryJson | undefined; res: HttpResponse }> {
  const deadline = Date.now() + COMMIT_TIMEOUT_MS;
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(wait * 2, LONGEST_POLL_MS)) {
    // The wait runs from when the look was sent: behind a slow link its round trip is part of it.
    const lookedAt = performance.now();
    const { res, items } = await summaries(t, setup.senderAddress, startVersion);
    const summary = items.find((s) => typeof s.transaction_hash === "string" && s.transaction_hash.toLowerCase() === hash.toLowerCase());
    if (summary !== undefined || Date.now() + wait > deadline) return { summary, res };
    const left = wait - (performance.now() - lookedAt);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  }
}

/**
 * A sequence number the sender has already used in a committed transaction. Without one, commits a
 * transfer first; a node that does not commit it within the timeout leaves the check skipped (the
 * commit itself is 4.8/accepted-transaction-committed's concern).
 */
export async function committedSequenceNumber(t: CheckContext, setup: SubmitSetup): Promise<bigint> {
  const account = await accountSequenceNumber(t, setup);
  if (account !== undefined && account > 0n) return account - 1n;
  const last = account === undefined ? await lastCommittedSequenceNumber(t, setup) : undefined;
  if (last !== undefined) return last;
  // Nothing of the sender's is committed, and a transfer of it already waited out the timeout: another
  // would queue behind it (a sequence number the node holds and may never commit). So the next check
  // waits for that same transfer once more (a loaded node may be slow), and after that none waits.
  const uncommitted = t.remembered(UNCOMMITTED);
  const stuck = uncommitted.get(setup.senderAddress);
  if (stuck !== undefined) {
    if (!stuck.waitedAgain) {
      stuck.waitedAgain = true;
      const { summary } = await waitForCommit(t, setup, stuck.hash, stuck.from);
      if (summary !== undefined) {
        uncommitted.delete(setup.senderAddress);
        return stuck.sequenceNumber;
      }
    }
    throw new CheckSkipped(
      `the transfer ${stuck.hash} was not committed within ${(2 * COMMIT_TIMEOUT_MS) / 1000} s; this sender has no committed sequence number to reuse`,
    );
  }
  const { res, tx } = await submitValidTransfer(t, setup, "bcs");
  t.expect(res.status >= 200 && res.status < 300, "a valid transfer accepted (to get a committed sequence number)", res);
  const from = t.ledgerState(res).ledgerVersion ?? 0n;
  const { summary } = await waitForCommit(t, setup, tx.hash, from);
  if (summary === undefined) {
    uncommitted.set(setup.senderAddress, { hash: tx.hash, from, sequenceNumber: tx.sequenceNumber, waitedAgain: false });
    throw new CheckSkipped(
      `the transfer ${tx.hash} was not committed within ${COMMIT_TIMEOUT_MS / 1000} s, so no sequence number is stale yet`,
    );
  }
  return tx.sequenceNumber;
}

/**
 * A fresh key no node has seen, with the family's transfer signature (address, u64) and no request to
 * the node: its transactions cannot be accepted anywhere (no such account), so malformed variants of
 * them are safe to send to any target.
 */
export function strangerSetup(): SubmitSetup {
  const sender = Ed25519Account.generate();
  const params = ["address", "u64"];
  return {
    sender,
    senderBytes: sender.address,
    senderAddress: formatAddress(sender.address),
    recipient: "0x1",
    chainId: 0,
    gasUnitPrice: 100n,
    chainNowSeconds: BigInt(Math.floor(Date.now() / 1000)),
    readAtMs: Date.now(),
    functionParams: (address, moduleName, functionName) =>
      address === "0x1" && moduleName === "aptos_account" && functionName === "transfer" ? params : undefined,
    // A new account: no other submission of the run sends from it.
    sequences: new SequenceBook(),
  };
}
