// §4.5 List account modules: GET /v1/accounts/{address}/modules[?ledger_version&start&limit] answers
// 200 with an array of module records (§2.4), as JSON or BCS (§4), one page at a time: limit bounds a
// page, X-NODE-CURSOR carries the next page's cursor and start takes it back. 410 when the version was
// pruned. The family's convention: the cursor is absent on the last page; default and maximum page
// size 9999 (larger limits clamped); limit=0 is 400; malformed values 400 web_framework_error.
//
// The account listed is the fixtures' moduleAccount, else 0x1. Checks that page compare against one
// page holding the whole listing, read at one fixed ledger_version taken from a response header.
// Every response is also checked by the harness against the observed-status contract.

import { ModuleMapBcs, moduleIdString, parseAddress, toHex } from "../src/codec/index.ts";
import { check, CheckNotApplicable, describeEndpoint, type CheckContext, type HttpResponse } from "../src/harness/index.ts";
import { ADDRESS_PATH_FORMS, MALFORMED_ADDRESSES, MALFORMED_U64, moduleAccount, type ModuleRecordJson } from "./support/account-modules.ts";
import { knownChange } from "./support/known-history.ts";
import { expectAbisMatchBytecode } from "./support/module-abi.ts";
import { ledgerWindow, notApplicableIfPrunedSince, U64_MAX, versionAt, type LedgerWindow } from "./support/ledger-window.ts";

/** The family's default and maximum page size. */
const MAX_PAGE = 9999;
/** Pages a cursor walk may take beyond the ones the listing needs before it counts as not ending. */
const WALK_SLACK = 2;
/** How many modules of the listing are compared with the single-module endpoint. */
const SINGLE_SAMPLE = 12;

const MALFORMED_LIMITS: readonly { readonly variant: string; readonly value: string }[] = [
  { variant: "not digits", value: "abc" },
  { variant: "negative", value: "-1" },
  { variant: "fraction", value: "1.5" },
  { variant: "65536 (above uint16)", value: "65536" },
];

const MALFORMED_CURSORS: readonly { readonly variant: string; readonly value: string }[] = [
  { variant: "non-hex characters", value: "zz" },
  { variant: "0x then non-hex", value: "0xnothex" },
];

type Query = Record<string, string | number | bigint | undefined>;

interface Page {
  readonly res: HttpResponse;
  readonly records: ModuleRecordJson[];
  readonly cursor: string | undefined;
}

function modulesPath(address: string): string {
  return `/accounts/${address}/modules`;
}

/** One 200 page, validated against the contract. */
async function page(t: CheckContext, address: string, query: Query): Promise<Page> {
  const res = await t.request({ path: modulesPath(address), query });
  if (typeof query.ledger_version === "bigint") notApplicableIfPrunedSince(t, res, query.ledger_version);
  t.expectStatus(res, 200);
  const records = t.expectBodyMatchesSchema(res) as ModuleRecordJson[];
  return { res, records, cursor: t.header(res, "CURSOR") };
}

/** The account listed and the ledger window a small page of it reports. */
async function latest(t: CheckContext): Promise<{ address: string; window: LedgerWindow }> {
  const address = moduleAccount(t);
  const first = await page(t, address, { limit: 1 });
  return { address, window: ledgerWindow(t, first.res) };
}

/**
 * The whole listing at the latest version as one page (no limit), with that version. A cursor on it is
 * followed once: when the next page is empty the first held everything (the stray cursor is
 * 4.5/no-cursor-on-last-page's concern). Ends the check not_applicable when one page cannot hold the
 * listing or it has fewer than `atLeast` modules.
 */
async function wholeListing(t: CheckContext, atLeast: number): Promise<{ address: string; version: bigint; all: Page }> {
  const { address, window } = await latest(t);
  const all = await page(t, address, { ledger_version: window.latest });
  if (all.cursor !== undefined) {
    const next = await t.request({ path: modulesPath(address), query: { ledger_version: window.latest, start: all.cursor } });
    const empty = next.status === 200 && Array.isArray(next.json) && next.json.length === 0;
    if (!empty)
      throw new CheckNotApplicable(
        `${address} holds more modules than one page returns (${all.records.length}, then a cursor to status ${next.status})`,
      );
  }
  if (all.records.length < atLeast)
    throw new CheckNotApplicable(
      `needs an account with at least ${atLeast} modules (fixture "moduleAccount"); ${address} holds ${all.records.length}`,
    );
  return { address, version: window.latest, all };
}

/** Follows X-NODE-CURSOR as start from the first page, at one version; bounded by the pages `expected` records need. */
async function walk(t: CheckContext, address: string, version: bigint, limit: number, expected: number): Promise<Page[]> {
  const pages: Page[] = [];
  const maxPages = Math.ceil(expected / limit) + WALK_SLACK;
  let start: string | undefined;
  do {
    const next = await page(t, address, { ledger_version: version, limit, start });
    pages.push(next);
    start = next.cursor;
    t.expect(
      start === undefined || pages.length < maxPages,
      `the walk to end within ${maxPages} pages of limit ${limit} (${expected} modules)`,
      next.res,
    );
  } while (start !== undefined);
  return pages;
}

/** A page size that walks `total` records in about eight pages. */
function walkLimit(total: number): number {
  return Math.max(1, Math.ceil(total / 8));
}

function moduleName(record: ModuleRecordJson): string {
  return record.abi?.name ?? `(bytecode ${record.bytecode.slice(0, 18)}…)`;
}

function requirePruned(t: CheckContext, window: LedgerWindow): void {
  if (window.oldest === 0n) throw new CheckNotApplicable(`nothing is pruned: ${t.headerName("LEDGER-OLDEST-VERSION")} is 0`);
}

describeEndpoint("get_account_modules", () => {
  check("4.5/module-list", async (t) => {
    const res = await t.request({ path: modulesPath(moduleAccount(t)) });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/json");
    t.expectBodyMatchesSchema(res);
  });

  check("4.5/module-list-bcs", async (t) => {
    const { address, window } = await latest(t);
    // The same page in both forms: one version, one limit.
    const query = { ledger_version: window.latest, limit: 3 };
    const json = await page(t, address, query);
    const res = await t.request({ path: modulesPath(address), query, accept: "bcs" });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/x-bcs");
    // aptos-core's layout (src/codec/bcs.ts ModuleMapBcs): a map from "0x1::coin" to bytecode, in the
    // order of the keys' BCS bytes; decoding refuses any other order, a repeated key or trailing bytes.
    const entries = t.decodeBcs(res, ModuleMapBcs).map((e) => `${e.key} ${toHex(e.value)}`);
    const account = parseAddress(address, { prefixOptional: true });
    const named = json.records.every((r) => r.abi !== undefined);
    // Without every ABI the JSON page does not name its modules: then only the bytecodes, and the
    // account in the keys, can be compared.
    const expected = json.records.map(
      (r) => `${r.abi === undefined ? "" : moduleIdString(account, r.abi.name)} ${r.bytecode.toLowerCase()}`,
    );
    const found = named ? entries : entries.map((e) => ` ${e.split(" ")[1]}`);
    t.expectEqual(
      [...found].sort(),
      [...expected].sort(),
      "the BCS map's entries (module id -> bytecode) = the modules of the JSON form of the same page",
      res,
    );
    if (!named) {
      const prefix = moduleIdString(account, "");
      const foreign = entries.filter((e) => !e.startsWith(prefix));
      t.expect(foreign.length === 0, `every key names a module of ${prefix.slice(0, -2)}`, res, foreign.join(", "));
    }
  });

  check("4.5/listing-at-ledger-version", { variant: "the version the default answer reported" }, async (t) => {
    const address = moduleAccount(t);
    const first = await page(t, address, {});
    const window = ledgerWindow(t, first.res);
    const again = await page(t, address, { ledger_version: window.latest });
    t.expectEqual(again.res.json, first.res.json, `the listing at ledger_version=${window.latest} = the default answer's`, again.res);
  });

  check("4.5/listing-at-ledger-version", { variant: "the middle of the window" }, async (t) => {
    const { address, window } = await latest(t);
    // Half a window away from the pruning edge: the pruner does not reach it between two requests.
    const res = await t.request({ path: modulesPath(address), query: { ledger_version: versionAt(window, 1n, 2n) } });
    t.expectStatus(res, 200);
    t.expectBodyMatchesSchema(res);
  });

  check("4.5/listing-at-ledger-version", { variant: "before and at a known publication (fixture history.modulePublished)" }, async (t) => {
    const { fixture, at, before } = await knownChange(t, "modulePublished");
    // The whole listing at one version, following the cursor at that same version.
    const names = async (version: bigint) => {
      const pages = await walk(t, fixture.address, version, 100, 10_000);
      return { names: pages.flatMap((p) => p.records.map(moduleName)), res: (pages[0] as Page).res };
    };
    const published = await names(at);
    t.expect(
      published.names.includes(fixture.name),
      `${fixture.name} in the listing of ${fixture.address} at ledger_version=${at}`,
      published.res,
      published.names.join(", "),
    );
    const earlier = await names(before);
    t.expect(
      !earlier.names.includes(fixture.name),
      `no ${fixture.name} in the listing of ${fixture.address} at ledger_version=${before}, the version before its publication`,
      earlier.res,
      earlier.names.join(", "),
    );
  });

  for (const { variant, kind, form } of ADDRESS_PATH_FORMS) {
    check(kind === "unprefixed-short" ? "4.5/unprefixed-short-address" : "4.5/address-forms-equivalent", { variant }, async (t) => {
      const { address, window } = await latest(t);
      const written = form(address);
      if (written === undefined) throw new CheckNotApplicable(`${address} has no leading zero to strip`);
      const query = { ledger_version: window.latest };
      const reference = await page(t, address, query);
      const other = await page(t, written, query);
      t.expectEqual(other.res.json, reference.res.json, `the listing for address ${written} = the listing for ${address}`, other.res);
    });
  }

  for (const limit of [1, 2]) {
    check("4.5/limit-is-maximum", { variant: `limit=${limit}` }, async (t) => {
      const { address, version } = await wholeListing(t, limit + 1);
      const p = await page(t, address, { ledger_version: version, limit });
      t.expect(p.records.length <= limit, `at most ${limit} module records`, p.res, `${p.records.length} records`);
    });
  }

  check("4.5/cursor-when-more", { variant: "limit=1" }, async (t) => {
    const { address, version } = await wholeListing(t, 2);
    const p = await page(t, address, { ledger_version: version, limit: 1 });
    t.expect(p.cursor !== undefined, `${t.headerName("CURSOR")} on a page of limit 1 of an account with more modules`, p.res);
  });

  check("4.5/cursor-when-more", { variant: "limit one below the module count" }, async (t) => {
    const { address, version, all } = await wholeListing(t, 2);
    const limit = all.records.length - 1;
    const p = await page(t, address, { ledger_version: version, limit });
    t.expect(
      p.cursor !== undefined,
      `${t.headerName("CURSOR")} on a page of limit ${limit} of an account with ${all.records.length} modules`,
      p.res,
    );
  });

  check("4.5/no-cursor-on-last-page", { variant: "the page without limit" }, async (t) => {
    const { address, window } = await latest(t);
    const first = await page(t, address, { ledger_version: window.latest });
    if (first.records.length === 0) throw new CheckNotApplicable(`${address} lists no modules: no last page to look at`);
    // A cursor here must lead somewhere: the next page holds modules (else this page was the last, and carried one).
    const next = first.cursor === undefined ? undefined : await page(t, address, { ledger_version: window.latest, start: first.cursor });
    t.expect(
      next === undefined || next.records.length > 0,
      `no ${t.headerName("CURSOR")} on the page that completes the listing: the page ${t.headerName("CURSOR")} ${first.cursor} leads to holds modules`,
      next?.res ?? first.res,
    );
  });

  check("4.5/no-cursor-on-last-page", { variant: "limit equal to the module count" }, async (t) => {
    const { address, version, all } = await wholeListing(t, 1);
    const limit = all.records.length;
    const p = await page(t, address, { ledger_version: version, limit });
    t.expectEqual(p.records.length, limit, `the number of records of a page of limit ${limit} holding the whole listing`, p.res);
    t.expect(
      p.cursor === undefined,
      `no ${t.headerName("CURSOR")} on a full page that completes the listing`,
      p.res,
      `${t.headerName("CURSOR")}: ${p.cursor}`,
    );
  });

  check("4.5/no-cursor-on-last-page", { variant: "the page that completes a cursor walk" }, async (t) => {
    const { address, version, all } = await wholeListing(t, 2);
    const total = all.records.length;
    const limit = walkLimit(total);
    const pages = await walk(t, address, version, limit, total);
    let seen = 0;
    for (const p of pages) {
      seen += p.records.length;
      if (seen >= total) {
        t.expect(
          p.cursor === undefined,
          `no ${t.headerName("CURSOR")} on the page that brings the walk to all ${total} modules`,
          p.res,
          `${t.headerName("CURSOR")}: ${p.cursor}`,
        );
        return;
      }
    }
    throw new CheckNotApplicable(
      `the walk with limit ${limit} ended after ${seen} of ${total} modules, so no page completed it (4.5/cursor-round-trip reports that)`,
    );
  });

  check("4.5/cursor-round-trip", async (t) => {
    const { address, version, all } = await wholeListing(t, 2);
    const limit = walkLimit(all.records.length);
    const pages = await walk(t, address, version, limit, all.records.length);
    const walked = pages.flatMap((p) => p.records);
    const last = pages[pages.length - 1]?.res;
    t.expectEqual(
      walked.map(moduleName),
      all.records.map(moduleName),
      `the modules, in order, of a walk with limit ${limit} at ledger_version=${version} = one page holding them all`,
      last,
    );
    t.expectEqual(walked, all.records, "the records of the walk = the records of one page holding them all", last);
  });

  check("4.5/pruned-version-gone", async (t) => {
    const { address, window } = await latest(t);
    requirePruned(t, window);
    const res = await t.request({ path: modulesPath(address), query: { ledger_version: window.oldest - 1n } });
    t.expectStatus(res, 410);
  });

  for (const { variant, version } of [
    { variant: "latest + 10^9", version: (v: bigint) => (v + 1_000_000_000n > U64_MAX ? U64_MAX : v + 1_000_000_000n) },
    { variant: "2^64-1", version: () => U64_MAX },
  ]) {
    check("4.5/future-version-rejected", { variant }, async (t) => {
      const { address, window } = await latest(t);
      const res = await t.request({ path: modulesPath(address), query: { ledger_version: version(window.latest) } });
      t.expectClientError(res, `ledger_version ${variant}, above the latest, is not a pruned one`, { except: [410] });
    });
  }

  for (const { variant, value } of MALFORMED_ADDRESSES) {
    check("4.5/malformed-address-rejected", { variant }, async (t) => {
      const res = await t.request({ path: modulesPath(value) });
      t.expectClientError(res, `address ${variant}`);
    });
  }

  for (const { variant, value } of MALFORMED_U64) {
    check("4.5/malformed-ledger-version-rejected", { variant }, async (t) => {
      const res = await t.request({ path: modulesPath(moduleAccount(t)), query: { ledger_version: value } });
      t.expectClientError(res, `ledger_version ${variant}`);
    });
  }

  for (const { variant, value } of MALFORMED_LIMITS) {
    check("4.5/malformed-limit-rejected", { variant }, async (t) => {
      const res = await t.request({ path: modulesPath(moduleAccount(t)), query: { limit: value } });
      t.expectClientError(res, `limit ${variant}`);
    });
  }

  for (const { variant, value } of MALFORMED_CURSORS) {
    check("4.5/malformed-cursor-rejected", { variant }, async (t) => {
      const res = await t.request({ path: modulesPath(moduleAccount(t)), query: { start: value } });
      t.expectClientError(res, `start ${variant}`);
    });
  }

  check("4.5/matches-single-module", async (t) => {
    const { address, version, all } = await wholeListing(t, 1);
    const named = all.records.filter((r) => typeof r.abi?.name === "string");
    if (named.length === 0) throw new CheckNotApplicable("the listing's records carry no abi, so no module name to ask §4.4 for");
    // Evenly spread over the listing, first and last included, bounded.
    const step = Math.max(1, Math.ceil(named.length / SINGLE_SAMPLE));
    const sample = named.filter((_, i) => i % step === 0 || i === named.length - 1);
    for (const record of sample) {
      const name = moduleName(record);
      const res = await t.request({ path: `/accounts/${address}/module/${encodeURIComponent(name)}`, query: { ledger_version: version } });
      t.expectStatus(res, 200);
      t.expectEqual(
        res.json,
        record,
        `GET /accounts/${address}/module/${name}?ledger_version=${version} = the listing's record of ${name}`,
        res,
      );
    }
  });

  check("4.5/abi-matches-bytecode", async (t) => {
    const listing = await page(t, moduleAccount(t), {});
    expectAbisMatchBytecode(t, listing.records, listing.res, "words");
  });

  check("4.5/abi-lists-every-member", async (t) => {
    const listing = await page(t, moduleAccount(t), {});
    expectAbisMatchBytecode(t, listing.records, listing.res, "family");
  });

  check("4.5/limit-zero-rejected", async (t) => {
    const res = await t.request({ path: modulesPath(moduleAccount(t)), query: { limit: 0 } });
    t.expectStatus(res, 400);
  });

  check("4.5/default-page-size", async (t) => {
    const { address, window } = await latest(t);
    const byDefault = await page(t, address, { ledger_version: window.latest });
    const max = await page(t, address, { ledger_version: window.latest, limit: MAX_PAGE });
    t.expectEqual(byDefault.res.json, max.res.json, `the page without limit = the page of limit ${MAX_PAGE}`, byDefault.res);
    t.expectEqual(byDefault.cursor, max.cursor, `${t.headerName("CURSOR")} without limit = with limit ${MAX_PAGE}`, byDefault.res);
  });

  for (const limit of [MAX_PAGE + 1, 65535]) {
    check("4.5/limit-clamped", { variant: `limit=${limit}` }, async (t) => {
      const { address, window } = await latest(t);
      const res = await t.request({ path: modulesPath(address), query: { ledger_version: window.latest, limit } });
      t.expectStatus(res, 200);
      const max = await page(t, address, { ledger_version: window.latest, limit: MAX_PAGE });
      t.expectEqual(res.json, max.res.json, `the page of limit ${limit} = the page of limit ${MAX_PAGE}`, res);
      t.expectEqual(t.header(res, "CURSOR"), max.cursor, `${t.headerName("CURSOR")} with limit ${limit} = with limit ${MAX_PAGE}`, res);
    });
  }

  check("4.5/unissued-cursor-rejected", async (t) => {
    const res = await t.request({ path: modulesPath(moduleAccount(t)), query: { start: "0xdeadbeef" } });
    t.expectStatus(res, 400);
  });

  check("4.5/error-codes", { variant: "above the latest: version_not_found" }, async (t) => {
    const { address, window } = await latest(t);
    const res = await t.request({ path: modulesPath(address), query: { ledger_version: window.latest + 1_000_000_000n } });
    t.expectError(res, 404, "version_not_found");
  });

  check("4.5/error-codes", { variant: "below the oldest: version_pruned" }, async (t) => {
    const { address, window } = await latest(t);
    requirePruned(t, window);
    const res = await t.request({ path: modulesPath(address), query: { ledger_version: window.oldest - 1n } });
    t.expectError(res, 410, "version_pruned");
  });

  for (const { variant, path, query } of [
    { variant: "malformed address", path: modulesPath("0xzz"), query: {} },
    { variant: "malformed ledger_version", path: undefined, query: { ledger_version: "abc" } },
    { variant: "malformed limit", path: undefined, query: { limit: "abc" } },
    { variant: "malformed start", path: undefined, query: { start: "zz" } },
  ]) {
    check("4.5/error-codes", { variant: `${variant}: web_framework_error` }, async (t) => {
      const res = await t.request({ path: path ?? modulesPath(moduleAccount(t)), query });
      t.expectError(res, 400, "web_framework_error");
    });
  }
});
