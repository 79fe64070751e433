// §4.5 List account modules, cursor pagination as laws over generated limits and cursors: following
// X-NODE-CURSOR from the first page until it is absent yields the full listing, whatever the limit;
// any cursor the node issued is accepted back as start; a start the node never issued is refused.
//
// Every walk is pinned to one ledger_version (the latest when the property began; pinned again if the
// node prunes it meanwhile), where the listing is fixed, so walks at different limits must agree
// exactly. The full listing is the walk at the node's default page size, read once per property. The
// account is the fixtures' moduleAccount, else 0x1.

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import {
  CheckNotApplicable,
  describeEndpoint,
  law,
  undecided,
  type CheckContext,
  type HttpResponse,
  type Undecided,
} from "../src/harness/index.ts";
import { moduleAccount } from "../suites/support/account-modules.ts";
import { currentWindow } from "../suites/support/ledger-window.ts";

/** A default-size walk longer than this is not a listing the suite can check. */
const MAX_FULL_PAGES = 100;
/** Pages of the limit-1 walk that collects issued cursors (one per module after the first); a bound on its requests. */
const MAX_ISSUED_PAGES = 200;
const HEX_DIGITS = [..."0123456789abcdefABCDEF"];

interface ModulesPage {
  readonly res: HttpResponse;
  readonly records: readonly unknown[];
  readonly cursor: string | undefined;
}

interface Walk {
  readonly pages: readonly ModulesPage[];
  readonly records: readonly unknown[];
  /** The last page carried no cursor. */
  readonly ended: boolean;
}

/** The pinned version was pruned while the property ran (the answer says so): pin again. */
class PinPruned extends Error {}

async function modulesPage(
  t: CheckContext,
  account: string,
  query: { ledger_version: bigint; limit?: number; start?: string },
): Promise<ModulesPage> {
  const res = await t.request({ path: `/accounts/${account}/modules`, query: { ...query } });
  const oldest = t.header(res, "LEDGER-OLDEST-VERSION");
  if (res.status === 410 && oldest !== undefined && /^[0-9]+$/.test(oldest) && query.ledger_version < BigInt(oldest)) throw new PinPruned();
  t.expect(res.status === 200, `200 for a page of the listing at ledger_version ${query.ledger_version}, which is in the window`, res);
  t.expect(Array.isArray(res.json), "a JSON array of module records (§4.5)", res);
  return { res, records: res.json as unknown[], cursor: t.header(res, "CURSOR") };
}

/** Follows X-NODE-CURSOR from the first page, at most `maxPages` pages. */
async function walk(t: CheckContext, account: string, version: bigint, limit: number | undefined, maxPages: number): Promise<Walk> {
  const pages: ModulesPage[] = [];
  let start: string | undefined;
  while (pages.length < maxPages) {
    const page = await modulesPage(t, account, {
      ledger_version: version,
      ...(limit === undefined ? {} : { limit }),
      ...(start === undefined ? {} : { start }),
    });
    pages.push(page);
    if (page.cursor === undefined) return { pages, records: pages.flatMap((p) => p.records), ended: true };
    start = page.cursor;
  }
  return { pages, records: pages.flatMap((p) => p.records), ended: false };
}

/** The full listing at `version`: the walk at the default page size. */
async function fullListing(t: CheckContext, account: string, version: bigint): Promise<Walk> {
  const full = await walk(t, account, version, undefined, MAX_FULL_PAGES);
  t.expect(
    full.ended,
    `the listing at the default page size to end within ${MAX_FULL_PAGES} pages`,
    full.pages[full.pages.length - 1]?.res,
  );
  return full;
}

/** Module names (from the ABI) for messages, or the bytecode's first bytes. */
function names(records: readonly unknown[]): string {
  const shown = records.map((r) => {
    const m = r as { abi?: { name?: unknown }; bytecode?: unknown };
    return typeof m.abi?.name === "string" ? m.abi.name : String(m.bytecode).slice(0, 18);
  });
  return shown.length === 0 ? "(none)" : shown.join(", ");
}

const limits = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 60 }));

/** The listing pinned at one version: the full listing is read once per property, not once per run. */
interface Pinned {
  readonly address: string;
  version: bigint;
  full: Walk;
}

async function pin(t: CheckContext, address = moduleAccount(t)): Promise<Pinned> {
  const version = (await currentWindow(t)).latest;
  const full = await fullListing(t, address, version);
  // An empty listing walks to the same nothing at every limit: it shows no pagination.
  if (full.records.length < 2)
    throw new CheckNotApplicable(
      `needs an account with at least 2 modules (fixture "moduleAccount"); ${address} lists ${full.records.length}`,
    );
  return { address, version, full };
}

/** Runs `body` at the pinned version; if that version was pruned meanwhile, pins the latest and runs it again. */
async function atPinned(t: CheckContext, pinned: Pinned, body: () => Promise<void | Undecided>): Promise<void | Undecided> {
  try {
    return await body();
  } catch (e) {
    if (!(e instanceof PinPruned)) throw e;
    Object.assign(pinned, await pin(t, pinned.address));
    return await body();
  }
}

/** Walks at `limit` and compares with the full listing. */
async function walkLaw(t: CheckContext, limit: number, { address, version, full }: Pinned): Promise<void> {
  const n = full.records.length;
  const maxPages = Math.ceil(n / limit) + 1;
  const paged = await walk(t, address, version, limit, maxPages);
  const last = paged.pages[paged.pages.length - 1]?.res;
  t.expect(
    paged.ended,
    `the walk with limit=${limit} to end (no ${t.headerName("CURSOR")}) within ${maxPages} pages for ${n} modules`,
    last,
  );
  for (const p of paged.pages)
    t.expect(p.records.length <= limit, `at most limit=${limit} modules on a page`, p.res, `${p.records.length}`);
  t.expect(
    isDeepStrictEqual(paged.records, full.records),
    `the walk with limit=${limit} at ledger_version ${version} to yield exactly the full listing, each module once, in its order`,
    last,
    `walk: ${names(paged.records)}; full listing: ${names(full.records)}`,
  );
}

interface Resume {
  /** The limit of the first walk. */
  readonly first: number;
  /** Whose cursor is given back (or the last page's that has one). */
  readonly page: number;
  /** The limit of the resumed page. */
  readonly then: number;
}

/** Walks `page + 1` pages at `first`, gives the cursor back as start with `then`, and compares with the full listing. */
async function resumeLaw(t: CheckContext, { first, page, then }: Resume, { address, version, full }: Pinned): Promise<void | Undecided> {
  const pages = (await walk(t, address, version, first, page + 1)).pages;
  let index = pages.length - 1;
  while (index >= 0 && pages[index]?.cursor === undefined) index--;
  if (index < 0) return undecided(`the whole listing fits in one page of limit ${first}: no cursor to give back`);
  const cursor = pages[index]?.cursor as string;
  const offset = pages.slice(0, index + 1).reduce((sum, p) => sum + p.records.length, 0);
  const next = await modulesPage(t, address, { ledger_version: version, limit: then, start: cursor });
  const expected = full.records.slice(offset, offset + next.records.length);
  const continues =
    next.records.length > 0 === offset < full.records.length && next.records.length <= then && isDeepStrictEqual(next.records, expected);
  t.expect(
    continues,
    `start=<the cursor after ${offset} modules> with limit=${then} to continue the listing at module ${offset + 1} of ${full.records.length}`,
    next.res,
    `got ${names(next.records)}; the listing continues ${names(full.records.slice(offset, offset + then))}`,
  );
}

const resumes: fc.Arbitrary<Resume> = fc.record({
  first: fc.integer({ min: 1, max: 10 }),
  page: fc.integer({ min: 0, max: 5 }),
  // biome-ignore lint/suspicious/noThenProperty: a plain record of numbers, never awaited.
  then: fc.integer({ min: 1, max: 20 }),
});

describeEndpoint("get_account_modules", () => {
  law(
    "4.5/cursor-round-trip",
    { numRuns: 20 },
    pin,
    () => limits,
    (t, limit, pinned) => atPinned(t, pinned, () => walkLaw(t, limit, pinned)),
  );

  law(
    "4.5/cursor-as-start-law",
    { numRuns: 20 },
    pin,
    () => resumes,
    (t, resume, pinned) => atPinned(t, pinned, () => resumeLaw(t, resume, pinned)),
  );

  const hex = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...HEX_DIGITS), minLength, maxLength });
  const nonHexCharacter = fc.constantFrom(
    "g",
    "z",
    "G",
    "Z",
    "-",
    "_",
    " ",
    ".",
    "~",
    "!",
    "*",
    "%",
    "/",
    "?",
    "#",
    "&",
    "=",
    "+",
    ":",
    "é",
  );
  const malformed = fc.oneof(
    {
      weight: 9,
      arbitrary: fc.tuple(fc.constantFrom("", "0x"), hex(0, 12), nonHexCharacter, hex(0, 12)).map(([p, a, bad, b]) => `${p}${a}${bad}${b}`),
    },
    { weight: 1, arbitrary: fc.constant("0x") },
  );

  law(
    "4.5/malformed-cursor-rejected",
    { numRuns: 20 },
    async (t) => moduleAccount(t),
    () => malformed,
    async (t, start, address) => {
      const res = await t.request({ path: `/accounts/${address}/modules`, query: { start, limit: 1 } });
      t.expectClientError(res, `start ${JSON.stringify(start)} is not hex, so it cannot be a cursor (§2.1)`);
    },
  );

  interface Issued {
    readonly address: string;
    /** Every cursor of a limit-1 walk (each names one module; at most MAX_ISSUED_PAGES), lower case without 0x. */
    readonly cursors: ReadonlySet<string>;
    /** One of them, to mutate. */
    readonly sample: string | undefined;
  }
  type Unissued =
    | { readonly kind: "random"; readonly prefixed: boolean; readonly digits: string }
    | { readonly kind: "digit"; readonly at: number; readonly digit: string }
    | { readonly kind: "cut"; readonly n: number }
    | { readonly kind: "extend"; readonly digits: string };

  const bare = (cursor: string) => cursor.toLowerCase().replace(/^0x/, "");

  function unissuedStart(u: Unissued, sample: string | undefined): string {
    if (u.kind === "random" || sample === undefined) {
      const digits = u.kind === "random" ? u.digits : "0";
      return u.kind === "random" && u.prefixed ? `0x${digits}` : digits;
    }
    const prefix = sample.startsWith("0x") ? "0x" : "";
    const digits = sample.slice(prefix.length);
    if (u.kind === "cut") return `${prefix}${digits.slice(0, Math.max(1, digits.length - u.n))}`;
    if (u.kind === "extend") return `${sample}${u.digits}`;
    const at = u.at % digits.length;
    const old = digits[at] as string;
    const digit = u.digit.toLowerCase() === old.toLowerCase() ? (parseInt(old, 16) ^ 1).toString(16) : u.digit;
    return `${prefix}${digits.slice(0, at)}${digit}${digits.slice(at + 1)}`;
  }

  law(
    "4.5/unissued-cursor-rejected",
    { numRuns: 20 },
    async (t): Promise<Issued> => {
      const address = moduleAccount(t);
      const version = (await currentWindow(t)).latest;
      const walked = await walk(t, address, version, 1, MAX_ISSUED_PAGES);
      const cursors = walked.pages.map((p) => p.cursor).filter((c): c is string => c !== undefined);
      return { address, cursors: new Set(cursors.map(bare)), sample: cursors[0] };
    },
    () =>
      fc.oneof(
        fc.record({ kind: fc.constant("random" as const), prefixed: fc.boolean(), digits: hex(1, 80) }),
        fc.record({ kind: fc.constant("digit" as const), at: fc.nat(), digit: fc.constantFrom(...HEX_DIGITS) }),
        fc.record({ kind: fc.constant("cut" as const), n: fc.integer({ min: 1, max: 20 }) }),
        fc.record({ kind: fc.constant("extend" as const), digits: hex(1, 8) }),
      ),
    async (t, u, issued) => {
      const start = unissuedStart(u, issued.sample);
      if (issued.cursors.has(bare(start))) return undecided(`the mutation ${start} names another module: a cursor the node does issue`);
      const res = await t.request({ path: `/accounts/${issued.address}/modules`, query: { start, limit: 1 } });
      t.expect(
        res.status === 400,
        `400: start ${start} is hex but no cursor the node issued (§4.5 start "Must be taken from the X-NODE-CURSOR header")`,
        res,
      );
    },
  );
});
