// A writer of the load: one fixtures account that, until the deadline, submits a transaction every few
// tens of milliseconds on its own connections: transfers to the next writer (JSON and BCS), now and
// then a package of one small module at its own account (which the readers walk meanwhile), and now
// and then two different transfers with one sequence number at once, on two connections, as a client
// that retries with a new transaction would (a node takes one of them at most).
//
// It reads its account's summaries back as they commit, from the version the load began at (about once
// a second, so that no pruning window passes them unread), and once the load ends it waits for what the
// node accepted to commit (bounded), then judges them:
// - 4.8/committed-at-most-once: no accepted transaction, and no sequence number, appears twice;
// - 4.8/accepted-committed-under-load: every accepted transaction appears, and the sequence numbers
//   rise without a gap.
// It also returns the versions at which its modules were published, for the cursor walk law.

import { publishPackageCall } from "../../../src/codec/index.ts";
import {
  boundedInteger,
  type LawTally,
  type LoadAnswer,
  type LoadClient,
  type LoadExchange,
  type LoadTraffic,
} from "../../../src/harness/index.ts";
import { readReplayProtector } from "../replay-protector.ts";
import {
  buildTransfer,
  COMMIT_TIMEOUT_MS,
  isSequenceConflict,
  sequenceNumberInAccount,
  type BuiltTransaction,
  type SubmitSetup,
} from "../submission.ts";
import { pick, type Random } from "./random.ts";

/** Between one submission and the next: some 20 a second per writer. */
const SUBMIT_EVERY_MS = 50;
/**
 * The n-th submission of a writer: every other one publishes a module (some ten a second per writer on
 * an idle machine, and still one every walk or two when a loaded machine slows round trips to a quarter
 * of a second: the cursor walk law is decided by walks a publish fell inside); of the others, one in
 * two is a double submission, and the transfers alternate between BCS and JSON.
 */
function submissionKind(n: number): "publish" | "double" | "transfer-bcs" | "transfer-json" {
  if (n % 2 === 1) return "publish";
  if (n % 4 === 2) return "double";
  return n % 8 === 0 ? "transfer-json" : "transfer-bcs";
}

/** After a refusal the node gave for load (5xx, 507) or no answer, before the next submission. */
const BACK_OFF_MS = 200;
/** Every this many submissions, the writer reads back what committed meanwhile: about once a second. */
const CATCH_UP_EVERY = 20;
/** Summaries a page when reading them back. */
const SUMMARIES_PAGE = 100;
/** A bound on the pages read back per writer. */
const MAX_SUMMARY_PAGES = 200;
/** Between two looks at whether the accepted transactions have committed. */
const COMMIT_POLL_MS = 200;

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

export interface Accepted {
  /** Lower case, as the summaries' hashes are compared. */
  readonly hash: string;
  readonly sequenceNumber: bigint;
  readonly publishes?: string;
  readonly exchange: LoadExchange;
}

export interface Writer {
  readonly traffic: LoadTraffic;
  readonly setup: SubmitSetup;
  /** Two clients: the second sends the other half of a double submission. */
  readonly clients: readonly [LoadClient, LoadClient];
  readonly random: Random;
  readonly accepted: Accepted[];
  /** The writer's next sequence number. */
  sequenceNumber: bigint;
  /** Its committed transactions read back so far (catchUp), in version order. */
  readonly committed: Committed[];
  /** The version its summaries are read from next. */
  nextVersion: bigint;
  /**
   * Set when a version it had not read yet was pruned first: the summaries below this version are
   * unknown, and so is whether a transaction accepted before them committed.
   */
  unreadBelow: bigint | undefined;
  /** Why its last read-back ended before the newest summaries (a 503, no answer); undefined when it got there. */
  unreadNewest: string | undefined;
}

export interface WriterTallies {
  readonly atMostOnce: LawTally;
  readonly allCommitted: LawTally;
  /** Per account, the versions at which a module was published there. */
  readonly publishedAt: Map<string, bigint[]>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const accepted = (answer: LoadAnswer) => answer.exchange.status !== null && answer.exchange.status >= 200 && answer.exchange.status < 300;

function submit(writer: Writer, client: LoadClient, tx: BuiltTransaction, format: "json" | "bcs"): Promise<LoadAnswer> {
  return writer.traffic.send(client, {
    method: "POST",
    path: "/transactions",
    ...(format === "bcs" ? { bcs: tx.bytes } : { json: tx.json }),
  });
}

/** A module name no earlier run chose, sorting anywhere among the account's modules. */
function moduleName(random: Random): string {
  return `load_${Array.from({ length: 8 }, () => pick(random, [...LETTERS])).join("")}`;
}

/** Submits until `deadline` (performance.now() ms) or until the load's bound on exchanges. */
export async function writeUntil(writer: Writer, deadline: number): Promise<void> {
  const [first, second] = writer.clients;
  for (let n = 1; performance.now() < deadline && writer.traffic.open; n++) {
    const sequenceNumber = writer.sequenceNumber;
    let answers: { tx: BuiltTransaction; answer: LoadAnswer; publishes?: string }[];
    const kind = submissionKind(n);
    if (kind === "publish") {
      const name = moduleName(writer.random);
      const payload = { EntryFunction: publishPackageCall(writer.setup.senderBytes, name, [name]) };
      const tx = buildTransfer(writer.setup, { sequenceNumber, payload });
      answers = [{ tx, answer: await submit(writer, first, tx, "bcs"), publishes: name }];
    } else if (kind === "double") {
      const a = buildTransfer(writer.setup, { sequenceNumber, amount: 101n });
      const b = buildTransfer(writer.setup, { sequenceNumber, amount: 102n });
      const [ra, rb] = await Promise.all([submit(writer, first, a, "bcs"), submit(writer, second, b, "json")]);
      answers = [
        { tx: a, answer: ra },
        { tx: b, answer: rb },
      ];
    } else {
      const tx = buildTransfer(writer.setup, { sequenceNumber });
      answers = [{ tx, answer: await submit(writer, first, tx, kind === "transfer-json" ? "json" : "bcs") }];
    }
    for (const { tx, answer, publishes } of answers) {
      if (accepted(answer)) {
        writer.accepted.push({
          hash: tx.hash.toLowerCase(),
          sequenceNumber,
          exchange: answer.exchange,
          ...(publishes === undefined ? {} : { publishes }),
        });
      }
    }
    if (answers.some(({ answer }) => accepted(answer))) {
      writer.sequenceNumber = sequenceNumber + 1n;
    } else if (answers.some(({ answer }) => answer.response !== undefined && isSequenceConflict(answer.response))) {
      // The writer's number is out of date (a transaction of another run, or one whose answer was lost).
      writer.sequenceNumber = (await accountSequenceNumber(writer)) ?? sequenceNumber + 1n;
    } else if (answers.some(({ answer }) => answer.exchange.status === null || answer.exchange.status >= 500)) {
      // Shed (503, 507) or lost: a submission without an answer may still have arrived; ask the account.
      await sleep(BACK_OFF_MS);
      writer.sequenceNumber = (await accountSequenceNumber(writer)) ?? sequenceNumber;
    }
    if (n % CATCH_UP_EVERY === 0) await catchUp(writer);
    await sleep(SUBMIT_EVERY_MS);
  }
}

/** The account's next sequence number, from GET /accounts/{address} (beyond the spec; the family's clients read it there), if the node answers it. */
async function accountSequenceNumber(writer: Writer): Promise<bigint | undefined> {
  const answer = await writer.traffic.send(writer.clients[0], { path: `/accounts/${writer.setup.senderAddress}` });
  return answer.response === undefined ? undefined : sequenceNumberInAccount(answer.response);
}

export interface Committed {
  readonly hash: string;
  readonly version: bigint;
  readonly sequenceNumber: bigint | undefined;
  readonly exchange: LoadExchange;
}

/**
 * Reads the writer's committed transactions from where it left off, page by page (start_version,
 * ascending), so that the node's pruning window never passes summaries not yet read: done every few
 * submissions while the load runs, and until the end. A start the node has pruned meanwhile (410) moves
 * to the oldest version the answer reports, and what lay below it stays unknown.
 */
async function catchUp(writer: Writer): Promise<void> {
  for (let page = 0; page < MAX_SUMMARY_PAGES; page++) {
    const answer = await writer.traffic.send(writer.clients[0], {
      path: `/accounts/${writer.setup.senderAddress}/transaction_summaries`,
      query: { start_version: writer.nextVersion.toString(), limit: SUMMARIES_PAGE },
    });
    const oldest = answer.exchange.state.oldestVersion;
    if (answer.response?.status === 410 && oldest !== undefined && oldest > writer.nextVersion) {
      writer.unreadBelow = oldest;
      writer.nextVersion = oldest;
      continue;
    }
    if (answer.response?.status !== 200 || !Array.isArray(answer.response.json)) {
      // Shed or lost: no evidence that anything is missing, only that the newest summaries are unread.
      writer.unreadNewest = `its summaries from version ${writer.nextVersion} were answered ${answer.exchange.status ?? "not at all"}`;
      return;
    }
    const items = answer.response.json as unknown[];
    for (const item of items) {
      const { version, transaction_hash, replay_protector } = item as Record<string, unknown>;
      const at = typeof version === "string" ? boundedInteger(version) : undefined;
      if (at === undefined || typeof transaction_hash !== "string" || at < writer.nextVersion) continue;
      const rp = readReplayProtector(replay_protector);
      writer.committed.push({
        hash: transaction_hash.toLowerCase(),
        version: at,
        sequenceNumber: rp !== undefined && rp.kind !== "nonce" ? rp.value : undefined,
        exchange: answer.exchange,
      });
      writer.nextVersion = at + 1n;
    }
    if (items.length < SUMMARIES_PAGE) {
      writer.unreadNewest = undefined;
      return;
    }
  }
  writer.unreadNewest = `its summaries run past ${MAX_SUMMARY_PAGES} pages of ${SUMMARIES_PAGE}`;
}

/** Waits (bounded) until every accepted transaction of the writer has committed, reading its summaries as they come. */
async function settle(writer: Writer): Promise<void> {
  const deadline = performance.now() + COMMIT_TIMEOUT_MS;
  for (;;) {
    await catchUp(writer);
    const hashes = new Set(writer.committed.map((c) => c.hash));
    if (writer.accepted.every((a) => hashes.has(a.hash)) || performance.now() > deadline) return;
    await sleep(COMMIT_POLL_MS);
  }
}

/** Settles the writer and judges its summaries; adds its published modules' versions to `tallies.publishedAt`. */
export async function judgeWriter(writer: Writer, tallies: WriterTallies): Promise<void> {
  if (writer.accepted.length === 0) {
    tallies.atMostOnce.undecided(`the node accepted no transaction of ${writer.setup.senderAddress} under load`);
    tallies.allCommitted.undecided(`the node accepted no transaction of ${writer.setup.senderAddress} under load`);
    return;
  }
  await settle(writer);
  const committed = writer.committed;
  const sender = writer.setup.senderAddress;
  const acceptedByHash = new Map(writer.accepted.map((a) => [a.hash, a]));

  const published = tallies.publishedAt.get(sender) ?? [];
  for (const c of committed) if (acceptedByHash.get(c.hash)?.publishes !== undefined) published.push(c.version);
  tallies.publishedAt.set(sender, published);

  // At most once: by hash, and by sequence number.
  const seen = new Map<string, Committed>();
  const bySequence = new Map<bigint, Committed>();
  let twice = false;
  for (const c of committed) {
    const earlier = seen.get(c.hash) ?? (c.sequenceNumber === undefined ? undefined : bySequence.get(c.sequenceNumber));
    if (earlier !== undefined) {
      twice = true;
      const submissions = writer.accepted.filter((a) => a.hash === c.hash || a.sequenceNumber === c.sequenceNumber);
      tallies.atMostOnce.fail({
        expected: `each transaction of ${sender}, and each of its sequence numbers, committed at most once`,
        found:
          earlier.hash === c.hash
            ? `transaction ${c.hash} committed at versions ${earlier.version} and ${c.version}`
            : `sequence number ${c.sequenceNumber} committed twice: ${earlier.hash} at version ${earlier.version}, ${c.hash} at version ${c.version}`,
        exchanges: [...submissions.map((a) => a.exchange), c.exchange],
      });
    }
    seen.set(c.hash, c);
    if (c.sequenceNumber !== undefined) bySequence.set(c.sequenceNumber, c);
  }
  if (committed.length === 0) tallies.atMostOnce.undecided(`no committed transaction of ${sender} was read back`);
  else if (!twice) tallies.atMostOnce.decide();

  // Every accepted transaction committed, and the sequence numbers without a gap.
  const committedHashes = new Set(committed.map((c) => c.hash));
  // Below versions pruned before they were read, a transaction may have committed unseen: those whose
  // sequence number comes before the first one read after them are not judged.
  const firstSeen = committed.find((c) => c.sequenceNumber !== undefined)?.sequenceNumber;
  const judged = (a: Accepted) => writer.unreadBelow === undefined || (firstSeen !== undefined && a.sequenceNumber >= firstSeen);
  if (writer.unreadNewest !== undefined || !writer.accepted.some(judged)) {
    tallies.allCommitted.undecided(
      writer.unreadNewest ??
        `every transaction of ${sender} the node accepted may have committed below versions pruned before they were read`,
    );
    return;
  }
  const missing = writer.accepted.filter((a) => judged(a) && !committedHashes.has(a.hash));
  const numbers = [...bySequence.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const gaps = numbers.filter((n, i) => i > 0 && n !== (numbers[i - 1] as bigint) + 1n);
  if (missing.length === 0 && gaps.length === 0) {
    tallies.allCommitted.decide();
    return;
  }
  tallies.allCommitted.fail({
    expected: `every transaction the node accepted from ${sender} under load committed within ${COMMIT_TIMEOUT_MS} ms of the load's end, its sequence numbers without a gap`,
    found: [
      missing.length === 0 ? "" : `${missing.length} accepted transaction(s) not among the summaries (first: ${missing[0]?.hash})`,
      gaps.length === 0 ? "" : `sequence numbers jump to ${gaps.join(", ")}`,
    ]
      .filter((s) => s !== "")
      .join("; "),
    exchanges: [
      ...missing.slice(0, 3).map((a) => a.exchange),
      ...(committed.at(-1) === undefined ? [] : [(committed.at(-1) as Committed).exchange]),
    ],
  });
}
