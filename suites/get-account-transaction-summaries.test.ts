// §4.3 List account transaction summaries: GET /v1/accounts/{address}/transaction_summaries answers
// 200 with the summaries (§2.3) of the account's committed transactions, always ascending by version,
// as JSON or as BCS (§4). start_version: the output starts there; only end_version: it ends there;
// neither: the most recent ones; limit (a uint16, §8): the maximum number. The family fills in the
// member names, the default and maximum page size (100, larger limits clamped, limit=0 is 400), the
// error code of malformed values (web_framework_error) and [] for an unknown account: SHOULDs.
//
// The account comes from the `transactionsAccount` fixture. The ledger keeps moving while the suite
// runs, so windows are picked from the ledger headers of the node's own answers, and answers are only
// compared over windows that later commits cannot change (a full page from a start, or an end at or
// below a version already reported). Every response is also checked by the harness against the
// observed-status contract.

import { parseAddress, sha3_256, toHex, TransactionSummaryListBcs } from "../src/codec/index.ts";
import {
  check,
  CheckNotApplicable,
  describeEndpoint,
  withBareReplayProtectorsTagged,
  type CheckContext,
  type HttpResponse,
} from "../src/harness/index.ts";
import { ledgerWindow, U64_MAX, versionAt, type LedgerWindow } from "./support/ledger-window.ts";
import { readReplayProtector } from "./support/replay-protector.ts";

/** An account with no transactions: 32 bytes derived from a label, so failures replay exactly. */
const UNKNOWN_ACCOUNT = toHex(sha3_256(new TextEncoder().encode("ledger-conformance/unknown-account")));
/** The family's default and maximum page size. */
const PAGE_SIZE = 100;

interface Summary {
  readonly sender: string;
  readonly version: string;
  readonly transaction_hash: string;
  /** §2.3: {type, sequence_number} or {type, nonce}; judged by 4.3/replay-protector-object and 4.3/replay-protector-tags only (see support/replay-protector.ts). */
  readonly replay_protector: unknown;
}

interface Window {
  readonly start_version?: bigint;
  readonly end_version?: bigint;
  readonly limit?: number;
}

interface Page {
  readonly res: HttpResponse;
  readonly items: readonly Summary[];
  readonly versions: readonly bigint[];
}

const summariesPath = (address: string) => `/accounts/${address}/transaction_summaries`;

/** What a check about the window needs of a summary: the members it reads, in their §2.1 forms. */
function isReadableSummary(s: unknown): s is Summary {
  const o = s as Record<string, unknown> | null;
  return (
    typeof o === "object" &&
    o !== null &&
    typeof o.sender === "string" &&
    typeof o.transaction_hash === "string" &&
    typeof o.version === "string" &&
    /^[0-9]{1,20}$/.test(o.version)
  );
}

/**
 * One 200 page of summaries as JSON: an array of objects with sender, transaction_hash and a u64
 * version. The whole §2.3 shape (the TransactionSummaryList schema) is 4.3/summaries's to judge, so
 * that a deviation in one member fails that requirement, not every check that reads versions.
 */
async function page(t: CheckContext, address: string, window: Window = {}): Promise<Page> {
  const res = await t.request({ path: summariesPath(address), query: { ...window } });
  t.expectStatus(res, 200);
  const body: unknown = res.json;
  const bad = Array.isArray(body) ? body.findIndex((s) => !isReadableSummary(s)) : -1;
  t.expect(
    Array.isArray(body) && bad === -1,
    "a JSON array of summaries, each with sender, transaction_hash and version (a u64 string)",
    res,
    Array.isArray(body) ? `element ${bad}: ${JSON.stringify(body[bad])?.slice(0, 200)}` : "not an array",
  );
  const items = body as Summary[];
  return { res, items, versions: items.map((s) => BigInt(s.version)) };
}

/** The fixture account and the ledger window a first answer for it reports. */
async function accountAndWindow(t: CheckContext): Promise<{ account: string; window: LedgerWindow }> {
  const account = t.needsFixture("transactionsAccount");
  const first = await page(t, account, { limit: 1 });
  return { account, window: ledgerWindow(t, first.res) };
}

/** A start a quarter of the way into the window: room before pruning reaches it, and history after it. */
const earlyStart = (window: LedgerWindow) => versionAt(window, 1n, 4n);

function isAscending(versions: readonly bigint[]): boolean {
  return versions.every((v, i) => i === 0 || (versions[i - 1] as bigint) < v);
}

const showVersions = (versions: readonly bigint[]) => `versions [${versions.join(", ")}]`;

/**
 * Ends the check not_applicable when the page holds fewer than `atLeast` summaries: an empty page is
 * ascending, within any limit and equal to any other empty page, so it shows nothing (that the fixture
 * account lists none at all is 4.3/summaries's failure).
 */
function requireSummaries(p: Page, atLeast: number, what: string): void {
  if (p.items.length < atLeast) {
    throw new CheckNotApplicable(
      `${what} needs at least ${atLeast} summar${atLeast === 1 ? "y" : "ies"} in the window; the answer holds ${p.items.length}`,
    );
  }
}

/** A summary in one canonical form, whichever of JSON and BCS it came from. */
interface Canonical {
  readonly sender: string;
  readonly version: string;
  readonly hash: string;
  readonly replay: string;
}

/** A JSON replay_protector that does not say its kind (aptos-core's bare form) becomes its number alone. */
function canonicalFromJson(s: Summary): Canonical {
  const rp = readReplayProtector(s.replay_protector);
  return {
    sender: toHex(parseAddress(s.sender)),
    version: BigInt(s.version).toString(),
    // The hash's value: its written form ("not shown", §2.3) is 4.3/transaction-hash-form's to judge.
    hash: s.transaction_hash.toLowerCase().replace(/^0x/, ""),
    replay: rp === undefined ? JSON.stringify(s.replay_protector) : rp.kind === undefined ? `${rp.value}` : `${rp.kind} ${rp.value}`,
  };
}

/** The BCS form with the kind left out, to compare with a JSON replay_protector that does not say its kind. */
function withoutKind(c: Canonical, json: Canonical): Canonical {
  return /^[0-9]+$/.test(json.replay) ? { ...c, replay: c.replay.replace(/^[a-z_]+ /, "") } : c;
}

/** The index of the first number that is not its predecessor + 1, or -1 when they rise by one throughout. */
function firstGap(numbers: readonly bigint[]): number {
  return numbers.findIndex((n, i) => i > 0 && n !== (numbers[i - 1] as bigint) + 1n);
}

/** The kinds of the replay protectors of a window, as its BCS form gives them (they must be as many as its JSON form's). */
async function bcsKinds(t: CheckContext, account: string, window: Window, count: number): Promise<("sequence_number" | "nonce")[]> {
  const res = await t.request({ path: summariesPath(account), query: { ...window }, accept: "bcs" });
  t.expectStatus(res, 200);
  const decoded = t.decodeBcs(res, TransactionSummaryListBcs);
  t.expect(decoded.length === count, `the BCS form of the window holds its ${count} summaries`, res, `${decoded.length}`);
  return decoded.map(({ V1: s }) => (s.replay_protector.$kind === "Nonce" ? "nonce" : "sequence_number"));
}

/** A BCS summary is the versioned enum aptos-core stores (V1 is the only variant; src/codec/bcs.ts). */
function canonicalFromBcs({ V1: s }: TransactionSummaryListBcs[number]): Canonical {
  const rp = s.replay_protector;
  return {
    sender: toHex(s.sender),
    version: s.version.toString(),
    hash: toHex(s.transaction_hash).slice(2),
    replay: rp.$kind === "Nonce" ? `nonce ${rp.Nonce}` : `sequence_number ${rp.SequenceNumber}`,
  };
}

// --- Malformed values: each is checked twice, its refusal (a MUST: a client error, since §7.1 leaves the
// conditions of the statuses unshown; limit=0, the family's rule, a SHOULD: 400) and the family's 400
// web_framework_error (a SHOULD).

interface MalformedCase {
  readonly requirement: string;
  readonly variant: string;
  /** The family's rule is the requirement itself (limit=0): its status exactly, not any client error. */
  readonly exactly?: 400;
  /** The address to ask for; default the fixture account, or the unknown one without fixtures. */
  readonly address?: string;
  readonly query?: Readonly<Record<string, string>>;
}

const MALFORMED: readonly MalformedCase[] = [
  { requirement: "4.3/limit-zero-rejected", variant: "limit=0", query: { limit: "0" }, exactly: 400 },
  ...[
    { what: "above 65535", value: "65536" },
    { what: "negative", value: "-1" },
    { what: "fractional", value: "1.5" },
    { what: "not a number", value: "ten" },
  ].map(({ what, value }) => ({ requirement: "4.3/malformed-limit-rejected", variant: `limit ${what}`, query: { limit: value } })),
  // Not "0x": §2.1 lets every leading zero be stripped, and aptos-core reads 0x alone as 0x0 and answers 200.
  ...[
    { what: "not hex", address: "0xzz" },
    { what: "longer than 64 hex digits", address: `0x1${"0".repeat(64)}` },
  ].map(({ what, address }) => ({ requirement: "4.3/malformed-address-rejected", variant: `address ${what}`, address })),
  ...(["start_version", "end_version"] as const).flatMap((name) =>
    [
      { what: "not a number", value: "ten" },
      { what: "negative", value: "-1" },
      { what: "above 2^64-1", value: (U64_MAX + 1n).toString() },
    ].map(({ what, value }) => ({ requirement: "4.3/malformed-version-rejected", variant: `${name} ${what}`, query: { [name]: value } })),
  ),
];

function sendMalformed(t: CheckContext, c: MalformedCase): Promise<HttpResponse> {
  const address = c.address ?? t.fixtures.transactionsAccount ?? UNKNOWN_ACCOUNT;
  return t.request({ path: summariesPath(address), ...(c.query === undefined ? {} : { query: c.query }) });
}

describeEndpoint("get_account_transaction_summaries", () => {
  check("4.3/summaries", async (t) => {
    const account = t.needsFixture("transactionsAccount");
    const res = await t.request({ path: summariesPath(account) });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/json");
    const items = t.expectBodyMatchesSchema(res, withBareReplayProtectorsTagged) as Summary[];
    t.expect(items.length > 0, "summaries for the transactions account, which has committed transactions (fixture)", res);
  });

  check("4.3/replay-protector-object", async (t) => {
    const account = t.needsFixture("transactionsAccount");
    const p = await page(t, account);
    requireSummaries(p, 1, "a replay_protector");
    const bare = p.items.map((s) => s.replay_protector).filter((rp) => typeof rp !== "object" || rp === null || Array.isArray(rp));
    const untyped = p.items
      .map((s) => s.replay_protector)
      .filter((rp) => typeof rp === "object" && rp !== null && typeof (rp as { type?: unknown }).type !== "string");
    t.expect(
      bare.length + untyped.length === 0,
      "every replay_protector is one of two objects discriminated by a string member type (§2.3)",
      p.res,
      JSON.stringify(bare[0] ?? untyped[0]),
    );
  });

  // --- Order and limit, for each way of choosing the window.

  const windows: readonly { variant: string; pick: (w: LedgerWindow) => Window }[] = [
    { variant: "neither start_version nor end_version", pick: () => ({}) },
    { variant: "start_version", pick: (w) => ({ start_version: earlyStart(w) }) },
    { variant: "only end_version", pick: (w) => ({ end_version: versionAt(w, 1n, 2n) }) },
  ];

  for (const { variant, pick } of windows) {
    check("4.3/ascending-order", { variant }, async (t) => {
      const { account, window } = await accountAndWindow(t);
      const p = await page(t, account, { ...pick(window), limit: 25 });
      t.expect(isAscending(p.versions), "versions strictly ascending", p.res, showVersions(p.versions));
      requireSummaries(p, 2, "an order");
    });
  }

  for (const [i, { variant, pick }] of windows.entries()) {
    const limit = [1, 3, 7][i] as number;
    check("4.3/limit-respected", { variant: `${variant}, limit=${limit}` }, async (t) => {
      const { account, window } = await accountAndWindow(t);
      const p = await page(t, account, { ...pick(window), limit });
      t.expect(p.items.length <= limit, `at most limit=${limit} summaries`, p.res, `${p.items.length} summaries`);
      // The limit shows only where the window holds more than it.
      const wider = await page(t, account, { ...pick(window), limit: 25 });
      requireSummaries(wider, limit + 1, `a limit of ${limit} to cut`);
    });
  }

  // --- The window.

  check("4.3/start-version", async (t) => {
    const { account, window } = await accountAndWindow(t);
    const start = earlyStart(window);
    const short = await page(t, account, { start_version: start, limit: 3 });
    const long = await page(t, account, { start_version: start, limit: 6 });
    if (short.items.length === 0 && long.items.length === 0) {
      throw new CheckNotApplicable(`the account has no summaries from version ${start} on`);
    }
    for (const p of [short, long]) {
      t.expect(
        p.versions.every((v) => v >= start),
        `every version >= start_version ${start}`,
        p.res,
        showVersions(p.versions),
      );
    }
    // Both start at the same place: the shorter page is where the longer one begins.
    const n = Math.min(short.items.length, long.items.length);
    t.expectEqual(
      long.items.slice(0, n),
      short.items.slice(0, n),
      `the first ${n} summaries from start_version ${start}, with limit 6 and with limit 3`,
      long.res,
    );
  });

  check("4.3/end-version", async (t) => {
    const { account, window } = await accountAndWindow(t);
    // The middle of the window: the account has summaries after it that the answer must leave out.
    const end = versionAt(window, 1n, 2n);
    const p = await page(t, account, { end_version: end, limit: 10 });
    if (p.items.length === 0) throw new CheckNotApplicable(`the account has no summaries up to version ${end}`);
    t.expect(
      p.versions.every((v) => v <= end),
      `every version <= end_version ${end}`,
      p.res,
      showVersions(p.versions),
    );
  });

  check("4.3/end-version-window", async (t) => {
    const { account, window } = await accountAndWindow(t);
    const start = earlyStart(window);
    const forward = await page(t, account, { start_version: start, limit: 5 });
    const last = forward.versions[forward.versions.length - 1];
    if (last === undefined) throw new CheckNotApplicable(`the account has no summaries from version ${start} on`);
    const k = forward.items.length;
    const back = await page(t, account, { end_version: last, limit: k });
    t.expectEqual(
      back.items,
      forward.items,
      `the last ${k} summaries up to end_version ${last} = the ${k} from start_version ${start}`,
      back.res,
    );
  });

  check("4.3/default-most-recent", async (t) => {
    const account = t.needsFixture("transactionsAccount");
    const recent = await page(t, account);
    const { latest, oldest } = ledgerWindow(t, recent.res);
    const last = recent.versions[recent.versions.length - 1];
    // Nothing the account committed at or below `latest` may come after the default page's last summary
    // (a page ending at the reported version has left nothing out).
    const from = last === undefined ? oldest : last + 1n;
    const after = last !== undefined && last >= latest ? undefined : await page(t, account, { start_version: from, limit: PAGE_SIZE });
    if (last === undefined && after !== undefined)
      requireSummaries(after, 1, "the most recent summaries (none in the default answer, none after it)");
    const missed = after?.versions.filter((v) => v <= latest) ?? [];
    t.expect(
      missed.length === 0,
      `the default page (ledger version ${latest}, last summary ${last ?? "none"}) holds the most recent summaries: none between it and version ${latest}`,
      after?.res ?? recent.res,
      `summaries left out at ${showVersions(missed)}`,
    );
  });

  check("4.3/address-prefix-optional", async (t) => {
    const { account, window } = await accountAndWindow(t);
    // A closed window (it ends at a version already reported) so later commits cannot change it.
    const closed = { end_version: window.latest, limit: 5 };
    const withPrefix = await page(t, account, closed);
    const bare = await page(t, account.replace(/^0x/i, ""), closed);
    if (bare.items.length === 0) requireSummaries(withPrefix, 1, "a comparison of the two forms");
    t.expectEqual(bare.items, withPrefix.items, `the summaries for ${account.replace(/^0x/i, "")} = those for ${account}`, bare.res);
  });

  check("4.3/repeatable", async (t) => {
    const { account, window } = await accountAndWindow(t);
    const query = { start_version: versionAt(window, 1n, 2n), limit: 5 };
    const first = await page(t, account, query);
    requireSummaries(first, 1, "a repeated window");
    const again = await page(t, account, query);
    // A full page cannot change; a page that was not full may only have gained later commits.
    const expected = first.items.length === query.limit ? again.items : again.items.slice(0, first.items.length);
    t.expectEqual(expected, first.items, "the same window asked again gives the same summaries", again.res);
  });

  // --- The summaries themselves.

  check("4.3/summary-bcs", async (t) => {
    const { account, window } = await accountAndWindow(t);
    // A full page, so that it holds several of the account's transactions of each kind where it sends both.
    const closed = { end_version: window.latest, limit: PAGE_SIZE };
    const json = await page(t, account, closed);
    requireSummaries(json, 1, "a comparison of the BCS and JSON summaries");
    const res = await t.request({ path: summariesPath(account), query: closed, accept: "bcs" });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/x-bcs");
    const decoded = t.decodeBcs(res, TransactionSummaryListBcs);
    const fromJson = json.items.map(canonicalFromJson);
    // The JSON form of replay_protector is 4.3/replay-protector-object's to judge; here both forms must
    // carry the same summaries. A bare JSON value does not say its kind, which the BCS variant does: the
    // kinds are then judged by what holds of every account, that its sequence-number transactions carry
    // the numbers one after another (an account cannot commit sequence number n + 1 before n), so the
    // values the BCS gives as sequence numbers of the account's own transactions must rise by one.
    const fromBcs = decoded.map((c, i) => withoutKind(canonicalFromBcs(c), fromJson[i] ?? canonicalFromBcs(c)));
    t.expectEqual(fromBcs, fromJson, "the BCS summaries = the JSON summaries of the same window", res);
    const own = toHex(parseAddress(account));
    const numbers = decoded.flatMap(({ V1: s }) =>
      toHex(s.sender) === own && s.replay_protector.$kind === "SequenceNumber" ? [BigInt(s.replay_protector.SequenceNumber)] : [],
    );
    t.expect(
      firstGap(numbers) === -1,
      "the account's summaries the BCS gives as sequence-number transactions carry consecutive sequence numbers",
      res,
      `sequence numbers [${numbers.join(", ")}]`,
    );
  });

  check("4.3/transaction-hash-distinct", async (t) => {
    const account = t.needsFixture("transactionsAccount");
    const p = await page(t, account);
    requireSummaries(p, 2, "two transaction hashes to tell apart");
    const distinct = new Set(p.items.map((s) => s.transaction_hash.toLowerCase().replace(/^0x/, "")));
    t.expect(
      distinct.size === p.items.length,
      "different transactions have different hashes",
      p.res,
      `${distinct.size} distinct hashes for ${p.items.length} summaries`,
    );
  });

  check("4.3/transaction-hash-form", async (t) => {
    const account = t.needsFixture("transactionsAccount");
    const p = await page(t, account);
    requireSummaries(p, 1, "a transaction_hash");
    const bad = p.items.map((s) => s.transaction_hash).filter((h) => !/^0x[0-9a-fA-F]{64}$/.test(h));
    t.expect(bad.length === 0, "every transaction_hash is 0x followed by 64 hex digits", p.res, bad.slice(0, 3).join(", "));
  });

  check("4.3/replay-protector-tags", async (t) => {
    const account = t.needsFixture("transactionsAccount");
    const p = await page(t, account);
    requireSummaries(p, 1, "a replay_protector");
    // §2.3 "Other members of the variants: not shown": the tag and its number must be there; more members may be.
    const wrong = p.items.map((s) => s.replay_protector).filter((rp) => readReplayProtector(rp)?.kind === undefined);
    t.expect(
      wrong.length === 0,
      'every replay_protector is {type: "sequence_number", sequence_number} or {type: "nonce", nonce}',
      p.res,
      JSON.stringify(wrong[0]),
    );
  });

  check("4.3/sequence-numbers-consecutive", async (t) => {
    const { account, window } = await accountAndWindow(t);
    // A closed window, so that its JSON and BCS forms hold the same summaries.
    const closed = { end_version: window.latest, limit: PAGE_SIZE };
    const p = await page(t, account, closed);
    requireSummaries(p, 1, "a replay_protector");
    const own = toHex(parseAddress(account));
    const read = p.items.map((s) => ({ own: toHex(parseAddress(s.sender)) === own, rp: readReplayProtector(s.replay_protector) }));
    // A bare JSON value does not say its kind; the BCS variant of the same window does.
    const kinds = read.some((r) => r.rp?.kind === undefined) ? await bcsKinds(t, account, closed, p.items.length) : undefined;
    const numbers = read.flatMap((r, i) =>
      r.own && r.rp !== undefined && (r.rp.kind ?? kinds?.[i]) === "sequence_number" ? [r.rp.value] : [],
    );
    t.expect(
      firstGap(numbers) === -1,
      "the account's sequence numbers rise by one from summary to summary",
      p.res,
      `sequence numbers [${numbers.join(", ")}]`,
    );
  });

  // --- Unknown accounts.

  check("4.3/unknown-account", async (t) => {
    const res = await t.request({ path: summariesPath(UNKNOWN_ACCOUNT) });
    t.expectStatus(res, 200, 404);
    if (res.status === 404) t.expectError(res, 404, "account_not_found");
    else t.expectEqual(res.json, [], "the summaries of an account without transactions", res);
  });

  check("4.3/unknown-account-empty", async (t) => {
    const res = await t.request({ path: summariesPath(UNKNOWN_ACCOUNT) });
    t.expectStatus(res, 200);
    t.expectEqual(res.json, [], "the summaries of an account without transactions", res);
  });

  // --- Page size.

  check("4.3/default-page-size", async (t) => {
    const { account, window } = await accountAndWindow(t);
    const start = earlyStart(window);
    const hundred = await page(t, account, { start_version: start, limit: PAGE_SIZE });
    requireSummaries(hundred, 1, "a default page size");
    const unlimited = await page(t, account, { start_version: start });
    t.expect(
      unlimited.items.length <= PAGE_SIZE,
      `at most ${PAGE_SIZE} summaries without limit`,
      unlimited.res,
      `${unlimited.items.length}`,
    );
    // At least as many as limit=100 gave (all 100 when that page was full), and the same ones.
    t.expect(
      unlimited.items.length >= hundred.items.length,
      `without limit, at least the ${hundred.items.length} summaries limit=${PAGE_SIZE} gave`,
      unlimited.res,
      `${unlimited.items.length}`,
    );
    t.expectEqual(
      unlimited.items.slice(0, hundred.items.length),
      hundred.items,
      `the page without limit begins with the limit=${PAGE_SIZE} page`,
      unlimited.res,
    );
  });

  check("4.3/limit-clamped", async (t) => {
    const { account, window } = await accountAndWindow(t);
    const start = earlyStart(window);
    const p = await page(t, account, { start_version: start, limit: 65535 });
    t.expect(p.items.length <= PAGE_SIZE, `limit=65535 clamped to ${PAGE_SIZE}`, p.res, `${p.items.length} summaries`);
    // The clamp shows only where more than PAGE_SIZE summaries follow start_version.
    const last = p.versions[p.versions.length - 1];
    const rest = last === undefined ? 0 : (await page(t, account, { start_version: last + 1n, limit: PAGE_SIZE })).items.length;
    if (p.items.length + rest <= PAGE_SIZE) {
      throw new CheckNotApplicable(
        `${p.items.length + rest} summaries from start_version ${start}, no more than ${PAGE_SIZE}: nothing to clamp`,
      );
    }
  });

  // --- Malformed values.

  for (const c of MALFORMED) {
    check(c.requirement, { variant: c.variant }, async (t) => {
      const res = await sendMalformed(t, c);
      if (c.exactly === undefined) t.expectClientError(res, c.variant);
      else t.expectStatus(res, c.exactly);
    });
    // limit=0's code has an id of its own: aptos-core answers it 200 [] (4.3/limit-zero-rejected).
    check(
      c.requirement === "4.3/limit-zero-rejected" ? "4.3/limit-zero-code" : "4.3/malformed-value-codes",
      { variant: c.variant },
      async (t) => {
        t.expectError(await sendMalformed(t, c), 400, "web_framework_error");
      },
    );
  }
});
