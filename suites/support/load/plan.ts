// What the load reads and who writes, decided once before it starts: the versioned reads of the
// pruning laws (their fixtures' module listing, module and table item) and the module listings of the
// writers' accounts, where modules are published while the load runs; the accounts whose summaries
// move (the writers' and the fixtures' transactions account); and the writers: the fixtures accounts
// the submission suites leave alone (they send from the last three), each with its signing setup.

import { Ed25519Account, formatAddress, parseAddress } from "../../../src/codec/index.ts";
import type { CheckContext } from "../../../src/harness/index.ts";
import { moduleAccount } from "../account-modules.ts";
import { submitSetup, type SubmitSetup } from "../submission.ts";
import { moduleListingRead, versionedReads, type VersionedRead } from "../versioned-reads.ts";

/** Writers at most: each submits a few transactions a second, which a node's mempool takes in stride. */
const MAX_WRITERS = 3;
/** The fixtures accounts the submission suites send from (the last ones): never a writer's. */
const SUBMISSION_SUITES_ACCOUNTS = 3;

export interface LoadPlan {
  /** Reads that take a ledger_version: each is sent without one, then pinned at its answer's version. */
  readonly versioned: readonly VersionedRead[];
  /** Accounts whose transaction summaries are read (the newest ones, without start_version). */
  readonly summaryAccounts: readonly string[];
  /** Accounts whose module listing is walked page by page. */
  readonly walkAccounts: readonly string[];
  readonly writers: readonly SubmitSetup[];
  /** Why there are no writers; undefined when there are. */
  readonly writersSkipped: string | undefined;
}

export async function loadPlan(t: CheckContext): Promise<LoadPlan> {
  const { writers, writersSkipped } = await writerSetups(t);
  const writerAccounts = writers.map((w) => w.senderAddress);
  const transactions = t.fixtures.transactionsAccount;
  return {
    versioned: [...(await versionedReads(t)), ...writerAccounts.map((account) => moduleListingRead(account))],
    summaryAccounts: [...writerAccounts, ...(transactions === undefined ? [] : [formatAddress(parseAddress(transactions))])],
    walkAccounts: writerAccounts.length > 0 ? writerAccounts : [moduleAccount(t)],
    writers,
    writersSkipped,
  };
}

async function writerSetups(t: CheckContext): Promise<{ writers: SubmitSetup[]; writersSkipped: string | undefined }> {
  const refused = t.submitRefused();
  if (refused !== undefined) return { writers: [], writersSkipped: refused };
  const accounts = t.fixtures.accounts ?? [];
  const free = accounts.slice(0, Math.max(0, accounts.length - SUBMISSION_SUITES_ACCOUNTS)).slice(0, MAX_WRITERS);
  if (free.length === 0) {
    return {
      writers: [],
      writersSkipped: `the fixtures name ${accounts.length} accounts; writers need one beyond the ${SUBMISSION_SUITES_ACCOUNTS} the submission suites send from`,
    };
  }
  // Chain id, gas price and the transfer's ABI, read once; each writer signs with its own key.
  const base = await submitSetup(t, "accepted");
  const writers = free.map((entry, i): SubmitSetup => {
    const next = free[(i + 1) % free.length] ?? entry;
    const senderBytes = parseAddress(entry.address);
    return {
      ...base,
      sender: Ed25519Account.fromHex(entry.privateKey),
      senderBytes,
      senderAddress: formatAddress(senderBytes),
      recipient: formatAddress(parseAddress(next.address)),
    };
  });
  return { writers, writersSkipped: undefined };
}
