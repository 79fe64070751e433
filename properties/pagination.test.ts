// §4.3 List account transaction summaries, as laws over generated windows: start_version and
// end_version (either, both or neither) placed at the account's own summaries (give or take two
// versions) or anywhere in the ledger window the node reports, and limit from 1 to 150 or absent.
//
// Each answer is cross-checked against other windows of the same account, which is where a node that
// merely returns a plausible page goes wrong: a summary the window should have started or ended with,
// found by a differently shaped request, is a counterexample. Committed history does not change, so
// those cross-checks hold even when the ledger moved between the two requests; only the same-state law
// needs two answers at the same X-NODE-LEDGER-VERSION (it retries until it gets them).

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describeEndpoint, law, undecided, type CheckContext, type HttpResponse } from "../src/harness/index.ts";
import { currentWindow, PPM, versionAt, type LedgerWindow } from "../suites/support/ledger-window.ts";

/** Versions this close to the oldest may be pruned while a run is under way; windows start above them. */
const PRUNING_MARGIN = 100n;

type Position =
  | { readonly kind: "summary"; readonly index: number; readonly delta: number }
  | { readonly kind: "window"; readonly ppm: number };
type Mode = "start" | "end" | "both" | "neither";

interface WindowCase {
  readonly mode: Mode;
  readonly start: Position;
  readonly end: Position;
  readonly limit: number | null;
}

const position: fc.Arbitrary<Position> = fc.oneof(
  fc.record({ kind: fc.constant("summary" as const), index: fc.nat(), delta: fc.integer({ min: -2, max: 2 }) }),
  fc.record({ kind: fc.constant("window" as const), ppm: fc.integer({ min: 0, max: PPM }) }),
);

const limit = fc.option(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 150 })), { nil: null });

const windows = (modes: readonly Mode[]): fc.Arbitrary<WindowCase> =>
  fc.record({ mode: fc.constantFrom(...modes), start: position, end: position, limit });

interface Account {
  readonly address: string;
  /** Versions of the account's most recent summaries when the property started: where positions land. */
  readonly recent: readonly bigint[];
}

interface Query {
  readonly start_version?: string;
  readonly end_version?: string;
  readonly limit?: number;
}

interface Page {
  readonly res: HttpResponse;
  readonly query: Query;
  /** The summaries, when the answer is a 200 with a JSON array of them. */
  readonly items: readonly unknown[];
  readonly versions: readonly bigint[];
  /** X-NODE-LEDGER-VERSION of the answer. */
  readonly ledgerVersion: bigint | undefined;
}

async function setup(t: CheckContext): Promise<Account> {
  const address = t.needsFixture("transactionsAccount");
  const first = await page(t, address, {});
  // Sorted, so that a position means the same summary whatever order the node answered in: a case that
  // shrinks to "index 0" then starts a page at the oldest of them and replays the same way later.
  const recent = [...(first?.versions ?? [])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { address, recent };
}

function versionOf(p: Position, w: LedgerWindow, account: Account): bigint {
  const margin = (w.latest - w.oldest) / 10n < PRUNING_MARGIN ? (w.latest - w.oldest) / 10n : PRUNING_MARGIN;
  const low = w.oldest + margin;
  let v: bigint;
  if (p.kind === "window" || account.recent.length === 0)
    v = versionAt({ oldest: low, latest: w.latest }, BigInt(p.kind === "window" ? p.ppm : 0), BigInt(PPM));
  else v = (account.recent[p.index % account.recent.length] as bigint) + BigInt(p.delta);
  return v < low ? low : v > w.latest ? w.latest : v;
}

function queryOf(c: WindowCase, w: LedgerWindow, account: Account): Query {
  const start = c.mode === "start" || c.mode === "both" ? { start_version: versionOf(c.start, w, account).toString() } : {};
  const end = c.mode === "end" || c.mode === "both" ? { end_version: versionOf(c.end, w, account).toString() } : {};
  return { ...start, ...end, ...(c.limit === null ? {} : { limit: c.limit }) };
}

/**
 * The page for `query`. Undefined when the node answered 410 because a version of the query fell below
 * the oldest before it answered (the answer's own header says so); empty when start_version is above the
 * answer's ledger version and the node answered 404 (the interface leaves that case open). Any other
 * status fails the run: every window the properties ask for lies inside the ledger window.
 */
async function page(t: CheckContext, address: string, query: Query): Promise<Page | undefined> {
  const res = await t.request({ path: `/accounts/${address}/transaction_summaries`, query: { ...query } });
  const s = t.ledgerState(res);
  const oldest = s.oldestVersion;
  const asked = [query.start_version, query.end_version].filter((v): v is string => v !== undefined).map(BigInt);
  if (res.status === 410 && oldest !== undefined && asked.some((v) => v < oldest)) return undefined;
  const start = query.start_version === undefined ? undefined : BigInt(query.start_version);
  if (res.status === 404 && start !== undefined && s.ledgerVersion !== undefined && start > s.ledgerVersion) {
    return { res, query, items: [], versions: [], ledgerVersion: s.ledgerVersion };
  }
  t.expect(res.status === 200, "200: every version of the window is inside the ledger window the node reported", res);
  const items = res.json as unknown;
  const ok =
    Array.isArray(items) &&
    items.every(
      (i) => typeof (i as { version?: unknown })?.version === "string" && /^[0-9]{1,20}$/.test((i as { version: string }).version),
    );
  t.expect(ok, "a JSON array of transaction summaries, each with a u64 version string (§2.3)", res);
  const list = items as { version: string }[];
  return { res, query, items: list, versions: list.map((i) => BigInt(i.version)), ledgerVersion: s.ledgerVersion };
}

const describeQuery = (q: Query) => JSON.stringify(q);
const PRUNED = undecided("a version of the window was pruned before the node answered (410)");
const NO_SUMMARIES = undecided("every answer of the case was empty: no summary to judge");
const list = (versions: readonly bigint[]) => (versions.length === 0 ? "(none)" : versions.join(", "));

/**
 * start_version exactly at one of the account's summaries (its latest, the least likely to be pruned),
 * whatever the seed: a node that reads start_version as exclusive leaves that summary out, and the draws
 * land a start on a summary only in about one run of twenty.
 */
const startAtSummary = (account: Account): WindowCase[] =>
  account.recent.length === 0
    ? []
    : [
        {
          mode: "start",
          start: { kind: "summary", index: account.recent.length - 1, delta: 0 },
          end: { kind: "window", ppm: 0 },
          limit: null,
        },
      ];

describeEndpoint("get_account_transaction_summaries", () => {
  // One law per requirement: the order of the summaries and their count are two behaviours, each with its
  // own examples in the suite; the windows they range over are the same.
  law(
    "4.3/ascending-order",
    { numRuns: 25 },
    setup,
    () => windows(["start", "end", "both", "neither"]),
    async (t, c, account) => {
      const w = await currentWindow(t);
      const p = await page(t, account.address, queryOf(c, w, account));
      if (p === undefined) return PRUNED;
      const ascending = p.versions.every((v, i) => i === 0 || v > (p.versions[i - 1] as bigint));
      t.expect(ascending, 'versions in strictly ascending order (§4.3 "always in ascending order of version")', p.res, list(p.versions));
      return p.versions.length < 2 ? undecided(`the window held ${p.versions.length} summaries: no order to see`) : undefined;
    },
  );

  law(
    "4.3/limit-respected",
    { numRuns: 25 },
    setup,
    () => windows(["start", "end", "both", "neither"]),
    async (t, c, account) => {
      if (c.limit === null) return undecided("no limit in this window: no maximum to check");
      const w = await currentWindow(t);
      const p = await page(t, account.address, queryOf(c, w, account));
      if (p === undefined) return PRUNED;
      t.expect(
        p.versions.length <= c.limit,
        `at most limit=${c.limit} summaries (§4.3 "maximum number of summaries")`,
        p.res,
        `${p.versions.length} summaries`,
      );
      return undefined;
    },
  );

  law(
    "4.3/summaries-window-law",
    { numRuns: 25, examples: startAtSummary },
    setup,
    () => windows(["start", "end", "both", "neither"]),
    async (t, c, account) => {
      const w = await currentWindow(t);
      const q = queryOf(c, w, account);
      const p = await page(t, account.address, q);
      if (p === undefined) return PRUNED;
      const at = p.ledgerVersion ?? w.latest;
      // Summaries any answer of this run held: a run where every answer was empty shows nothing.
      let seen = p.items.length;

      if (q.start_version !== undefined) {
        const s = BigInt(q.start_version);
        t.expect(
          p.versions.every((v) => v >= s),
          `every summary at or after start_version ${s} (§4.3 "Output starts at that version")`,
          p.res,
          list(p.versions),
        );
        // None of the account's summaries lies between start_version and the first one returned. With
        // none returned, the account's last summary as of this answer's ledger version: the most recent
        // one now may be a later commit of the account's, which would hide the one left out.
        const first = p.versions[0];
        const probe =
          first === undefined
            ? await page(t, account.address, { end_version: at.toString(), limit: 1 })
            : first > s
              ? await page(t, account.address, { end_version: (first - 1n).toString(), limit: 1 })
              : undefined;
        seen += probe?.items.length ?? 0;
        const skipped = probe?.versions.filter((v) => v >= s && v <= at && (first === undefined || v < first)) ?? [];
        t.expect(
          skipped.length === 0,
          `the output to start at the account's first summary at or after start_version ${s} (§4.3); ${describeQuery(probe?.query ?? {})} shows one it left out`,
          probe?.res ?? p.res,
          `left out ${list(skipped)}; the window answered ${list(p.versions)} at ${t.headerName("LEDGER-VERSION")} ${at}`,
        );
      }

      if (c.mode === "end") {
        const e = BigInt(q.end_version as string);
        t.expect(
          p.versions.every((v) => v <= e),
          `every summary at or before end_version ${e} (§4.3 "the output ends at that version")`,
          p.res,
          list(p.versions),
        );
      }

      if (c.mode === "both") {
        // end_version is "used when start_version is absent": with start_version the answer is start_version's alone.
        const alone = await page(t, account.address, {
          start_version: q.start_version,
          ...(q.limit === undefined ? {} : { limit: q.limit }),
        });
        seen += alone?.items.length ?? 0;
        if (
          alone !== undefined &&
          alone.ledgerVersion !== undefined &&
          p.ledgerVersion !== undefined &&
          alone.ledgerVersion >= p.ledgerVersion
        ) {
          // Later commits can only add summaries after the earlier answer's last one.
          const prefix = p.items.every((item, i) => isDeepStrictEqual(item, alone.items[i]));
          t.expect(
            prefix,
            `with start_version, end_version not used (§4.3): the answer to be ${describeQuery({ start_version: q.start_version, limit: q.limit })}'s (its start, as later commits leave it)`,
            p.res,
            `with end_version: ${list(p.versions)}; without: ${list(alone.versions)}`,
          );
        }
      }

      if (c.mode === "neither") {
        // The most recent: none of the account's summaries after the last one returned, up to this answer's ledger version.
        const last = p.versions[p.versions.length - 1];
        const probe = await page(t, account.address, { start_version: (last === undefined ? w.oldest : last + 1n).toString(), limit: 1 });
        seen += probe?.items.length ?? 0;
        const newer = probe?.versions.filter((v) => v <= at && (last === undefined || v > last)) ?? [];
        t.expect(
          newer.length === 0,
          `the most recent summaries (§4.3 "Default"): ${describeQuery(probe?.query ?? {})} shows a later one committed at or before ${t.headerName("LEDGER-VERSION")} ${at}`,
          probe?.res ?? p.res,
          `later ${list(newer)}; the default window answered ${list(p.versions)}`,
        );
      }
      return seen === 0 ? NO_SUMMARIES : undefined;
    },
  );

  law(
    "4.3/summaries-end-window-law",
    { numRuns: 15 },
    setup,
    () => windows(["end"]),
    async (t, c, account) => {
      const w = await currentWindow(t);
      const q = queryOf(c, w, account);
      const e = BigInt(q.end_version as string);
      const p = await page(t, account.address, q);
      if (p === undefined) return PRUNED;
      const last = p.versions[p.versions.length - 1];
      const probe = await page(t, account.address, { start_version: (last === undefined ? w.oldest : last + 1n).toString(), limit: 1 });
      if (p.items.length === 0 && (probe?.items.length ?? 0) === 0) return NO_SUMMARIES;
      const skipped = probe?.versions.filter((v) => v <= e && (last === undefined || v > last)) ?? [];
      t.expect(
        skipped.length === 0,
        `the account's last summaries up to end_version ${e} (with only end_version the page ends there); ${describeQuery(probe?.query ?? {})} shows one after the last returned`,
        probe?.res ?? p.res,
        `left out ${list(skipped)}; the window answered ${list(p.versions)}`,
      );
    },
  );

  law(
    "4.3/repeatable",
    { numRuns: 20 },
    setup,
    () => windows(["start", "end", "both", "neither"]),
    async (t, c, account) => {
      const w = await currentWindow(t);
      const q = queryOf(c, w, account);
      // Two answers at the same ledger version: one after the other, then (a ledger faster than a round
      // trip, as the embedded node's 100 ms blocks on a loaded machine) sent at once.
      for (let attempt = 0; attempt < 3; attempt++) {
        const [first, second] =
          attempt === 0
            ? [await page(t, account.address, q), await page(t, account.address, q)]
            : await Promise.all([page(t, account.address, q), page(t, account.address, q)]);
        if (first === undefined || second === undefined) return PRUNED;
        if (first.ledgerVersion === undefined || first.ledgerVersion !== second.ledgerVersion) continue;
        t.expect(
          isDeepStrictEqual(first.items, second.items),
          `the same summaries for the same window at the same ${t.headerName("LEDGER-VERSION")} ${first.ledgerVersion}`,
          second.res,
          `first ${list(first.versions)}, then ${list(second.versions)}`,
        );
        return first.items.length === 0 ? NO_SUMMARIES : undefined;
      }
      return undecided(`no two answers at the same ${t.headerName("LEDGER-VERSION")} in 3 tries`);
    },
  );
});
