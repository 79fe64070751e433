// A reading client of the load: until the deadline it sends, one at a time on its own connections, a
// mix of the reads the laws under load judge as their answers arrive:
// - a versioned read without ledger_version, then the same read pinned at the version its answer's
//   headers name: the two must agree (4/snapshot-under-load), in JSON or in BCS;
// - the newest transaction summaries of an account whose transactions keep coming: none may be newer
//   than the answer's own ledger version (4/snapshot-under-load);
// - a walk of an account's module listing, a few modules a page, pinned at the first page's version,
//   then the listing at that version at the node's page size: the walk must yield each module once, in
//   order (4.5/cursor-walk-under-load; whether a publish fell inside the walk is known once the writers'
//   commits are, writers.ts);
// - the health check and the gas estimate, which only add to the traffic the contract and the
//   monotonic law (2.7/monotonic-under-load) judge.

import { isDeepStrictEqual } from "node:util";
import {
  boundedInteger,
  headerValue,
  type Anomaly,
  type HttpResponse,
  type LawTally,
  type LoadAnswer,
  type LoadClient,
  type LoadTraffic,
} from "../../../src/harness/index.ts";
import type { ModuleRecordJson } from "../account-modules.ts";
import type { LoadPlan } from "./plan.ts";
import { pick, type Random } from "./random.ts";

/**
 * Pages a walk aims at: the page size is the account's listing (as last read whole) over this, so that a
 * walk spans several pages, and under load a commit, however many modules the account has.
 */
const WALK_PAGES = 6;
/** A bound on a walk's pages; a listing longer than that is not walked to its end. */
const MAX_WALK_PAGES = 200;

/** One walk of a listing, for 4.5/cursor-walk-under-load once the writers' publishes are known. */
export interface Walk {
  readonly account: string;
  /** The version the walk is pinned at: the first page's. */
  readonly version: bigint;
  /** The highest ledger version an answer of the walk reported: a publish at the account in (version, latest] fell inside it. */
  readonly latest: bigint;
  /** How the walk and the listing at `version` disagree, or undefined when they agree. */
  readonly disagreement: Anomaly | undefined;
}

export interface ReaderTallies {
  readonly snapshot: LawTally;
  readonly walks: Walk[];
  /** Per walked account, how many modules its listing had when last read whole. */
  readonly listingSizes: Map<string, number>;
}

export interface Reader {
  readonly traffic: LoadTraffic;
  readonly client: LoadClient;
  readonly plan: LoadPlan;
  readonly random: Random;
  readonly tallies: ReaderTallies;
  /** The §2.7 header prefix, for messages. */
  readonly headerPrefix: string;
}

/** Reads until `deadline` (performance.now() ms) or until the load's bound on exchanges. */
export async function readUntil(reader: Reader, deadline: number): Promise<void> {
  while (performance.now() < deadline && reader.traffic.open) {
    const roll = reader.random();
    if (roll < 0.4) await pinnedPair(reader);
    else if (roll < 0.65) await newestSummaries(reader);
    else if (roll < 0.8) await walk(reader);
    else await reader.traffic.send(reader.client, { path: reader.random() < 0.5 ? "/-/healthy" : "/estimate_gas_price" });
  }
}

const versionOf = (answer: LoadAnswer) => answer.exchange.state.ledgerVersion;

/** The answers a read may give at a version, whether the item is there or not: two others say nothing of the snapshot (a 503 shed, a 410 pruned). */
const SNAPSHOT_STATUSES: ReadonlySet<number> = new Set([200, 404]);

/** A read without ledger_version, then pinned at its answer's version: one answer each, which must agree. */
async function pinnedPair({ traffic, client, plan, random, tallies, headerPrefix }: Reader): Promise<void> {
  const read = pick(random, plan.versioned);
  const accept = random() < 0.3 ? "bcs" : "json";
  const latest = await traffic.send(client, { ...read.request(undefined), accept });
  const version = versionOf(latest);
  if (latest.response === undefined || version === undefined || !SNAPSHOT_STATUSES.has(latest.response.status)) return;
  const pinned = await traffic.send(client, { ...read.request(version.toString()), accept });
  if (pinned.response === undefined || !SNAPSHOT_STATUSES.has(pinned.response.status)) {
    tallies.snapshot.undecided(`the read of ${read.name} pinned at ${version} got ${pinned.response?.status ?? "no answer"}`);
    return;
  }
  const difference = answersDiffer(latest.response, pinned.response);
  if (difference === undefined) {
    tallies.snapshot.decide();
    return;
  }
  tallies.snapshot.fail({
    expected: `${read.name} without ledger_version to answer as the same read at ledger_version=${version}, the ${headerPrefix}LEDGER-VERSION of its own answer`,
    found: difference,
    exchanges: [latest.exchange, pinned.exchange],
  });
}

/** How two answers to one read differ (status, or body: JSON by value, BCS by bytes), or undefined. */
function answersDiffer(a: HttpResponse, b: HttpResponse): string | undefined {
  if (a.status !== b.status) return `HTTP ${a.status} without ledger_version, HTTP ${b.status} pinned`;
  if (a.status !== 200) return undefined;
  if (a.json !== undefined || b.json !== undefined) {
    return isDeepStrictEqual(a.json, b.json) ? undefined : "the two JSON bodies differ";
  }
  return Buffer.from(a.body).equals(Buffer.from(b.body))
    ? undefined
    : `the two bodies differ (${a.body.length} and ${b.body.length} bytes)`;
}

interface SummaryJson {
  readonly version?: unknown;
}

/** The newest summaries of a busy account: none may have a version above the answer's own ledger version. */
async function newestSummaries({ traffic, client, plan, random, tallies, headerPrefix }: Reader): Promise<void> {
  if (plan.summaryAccounts.length === 0) return;
  const account = pick(random, plan.summaryAccounts);
  const answer = await traffic.send(client, { path: `/accounts/${account}/transaction_summaries` });
  const version = versionOf(answer);
  const items = answer.response?.status === 200 && Array.isArray(answer.response.json) ? (answer.response.json as SummaryJson[]) : [];
  if (version === undefined || items.length === 0) return;
  const newest = items
    .map((s) => (typeof s.version === "string" ? boundedInteger(s.version) : undefined))
    .reduce<bigint | undefined>((max, v) => (v !== undefined && (max === undefined || v > max) ? v : max), undefined);
  if (newest === undefined) return;
  if (newest <= version) {
    tallies.snapshot.decide();
    return;
  }
  tallies.snapshot.fail({
    expected: `the newest summaries of ${account} as of the answer's ${headerPrefix}LEDGER-VERSION ${version}: none with a later version`,
    found: `a summary with version ${newest}, committed after the ledger version the answer reports`,
    exchanges: [answer.exchange],
  });
}

/** The module names of a 200 listing page in JSON, or undefined when it is not one. */
function moduleNames(res: HttpResponse | undefined): string[] | undefined {
  if (res?.status !== 200 || !Array.isArray(res.json)) return undefined;
  const names = (res.json as ModuleRecordJson[]).map((m) => m.abi?.name);
  return names.every((n): n is string => typeof n === "string") ? names : undefined;
}

/** Walks an account's listing pinned at its first page's version, then reads the listing at that version whole. */
async function walk({ traffic, client, plan, random, tallies, headerPrefix }: Reader): Promise<void> {
  const account = pick(random, plan.walkAccounts);
  const path = `/accounts/${account}/modules`;
  const limit = Math.max(1, Math.ceil((tallies.listingSizes.get(account) ?? 0) / WALK_PAGES));
  const first = await traffic.send(client, { path, query: { limit } });
  const version = versionOf(first);
  let names = moduleNames(first.response);
  if (version === undefined || names === undefined || first.response === undefined) return;
  const exchanges = [first.exchange];
  let latest = version;
  let cursor = headerValue(first.response, headerPrefix, "CURSOR");
  for (let pages = 1; cursor !== undefined; pages++) {
    if (pages >= MAX_WALK_PAGES) return;
    const page = await traffic.send(client, { path, query: { start: cursor, limit, ledger_version: version.toString() } });
    const pageNames = moduleNames(page.response);
    if (pageNames === undefined || page.response === undefined) return;
    exchanges.push(page.exchange);
    const reported = versionOf(page);
    if (reported !== undefined && reported > latest) latest = reported;
    names = [...names, ...pageNames];
    cursor = headerValue(page.response, headerPrefix, "CURSOR");
  }
  const whole = await traffic.send(client, { path, query: { ledger_version: version.toString() } });
  const listing = moduleNames(whole.response);
  // A listing longer than the node's page size is not read whole here; nor is a pruned version.
  if (listing === undefined || whole.response === undefined || headerValue(whole.response, headerPrefix, "CURSOR") !== undefined) return;
  tallies.listingSizes.set(account, listing.length);
  const agree = isDeepStrictEqual(names, listing);
  tallies.walks.push({
    account,
    version,
    latest,
    disagreement: agree
      ? undefined
      : {
          expected: `the walk of ${account}'s modules at ledger_version ${version}, ${limit} a page, to yield the listing at that version, each module once: ${listing.join(", ")}`,
          found: `the walk yielded ${names.join(", ")}${repeated(names)}`,
          exchanges: [...exchanges, whole.exchange],
        },
  });
}

function repeated(names: readonly string[]): string {
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  return twice.length === 0 ? "" : ` (more than once: ${[...new Set(twice)].join(", ")})`;
}
