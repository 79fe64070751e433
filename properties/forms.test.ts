// §2.1 address and u64 forms, §8 limit forms, as laws over generated values.
//
// Addresses: any address (the fixtures' accounts, 0x1, special addresses, random ones, small numbers with
// many leading zeros) written in any form §2.1 allows in a path: with or without 0x, with leading zeros
// stripped partly or fully. Every form must get the answer the 0x-prefixed 64-digit form gets, read at
// one ledger version so that the ledger moving on cannot change it.
//
// u64 and limit: values that are not of the type (above the maximum, negative, fractional, not a
// number) are bad input: 400, never a 500 and never a page.

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { formatAddress, parseAddress } from "../src/codec/index.ts";
import { errorCodeOf, law, undecided, type CheckContext, type HttpResponse, type RequestSpec } from "../src/harness/index.ts";
import { moduleAccount } from "../suites/support/account-modules.ts";
import { currentWindow } from "../suites/support/ledger-window.ts";
import { versionedReads, type VersionedRead } from "../suites/support/versioned-reads.ts";

const decimal = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength, maxLength });
/** Letters that are no hex digit and no exponent, so that no lenient number parser can read the value. */
const letters = fc.string({ unit: fc.constantFrom(..."ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ"), minLength: 1, maxLength: 6 });

/** Fractions with a non-zero last digit ("12.5", "0.001"), negatives, and digits mixed with letters. */
const notAnInteger = fc.oneof(
  fc
    .tuple(fc.bigInt({ min: 0n, max: 1_000_000n }), decimal(0, 3), fc.integer({ min: 1, max: 9 }))
    .map(([i, f, last]) => `${i}.${f}${last}`),
  fc.bigInt({ min: 1n, max: 1n << 64n }).map((v) => `-${v}`),
  fc.tuple(decimal(0, 5), letters, decimal(0, 3)).map(([a, b, c]) => `${a}${b}${c}`),
);
const notAU64 = fc.oneof(fc.bigInt({ min: 1n << 64n, max: 1n << 80n }).map(String), notAnInteger);
const notAUint16 = fc.oneof(fc.bigInt({ min: 65_536n, max: 1n << 70n }).map(String), notAnInteger);

// --- addresses

interface AddressReads {
  /** The fixtures' addresses and 0x1, 64 digits each. */
  readonly known: readonly string[];
  readonly moduleName: string;
}

type AddressSource =
  | { readonly kind: "known"; readonly index: number }
  | { readonly kind: "special"; readonly value: number }
  | { readonly kind: "small"; readonly value: bigint }
  | { readonly kind: "random"; readonly bytes: Uint8Array };

interface AddressCase {
  readonly address: AddressSource;
  readonly read: "modules" | "module" | "summaries";
  readonly prefixed: boolean;
  /** Leading zeros kept in front of the shortest form (up to 64 digits in all). */
  readonly zeros: number;
}

const addressCases: fc.Arbitrary<AddressCase> = fc.record({
  address: fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("known" as const), index: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("special" as const), value: fc.integer({ min: 0, max: 15 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("small" as const), value: fc.bigInt({ min: 0n, max: 1n << 40n }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("random" as const), bytes: fc.uint8Array({ minLength: 32, maxLength: 32 }) }) },
  ),
  read: fc.constantFrom("modules" as const, "module" as const, "summaries" as const),
  prefixed: fc.boolean(),
  zeros: fc.integer({ min: 0, max: 64 }),
});

const digits64 = (address: string) => Buffer.from(parseAddress(address, { prefixOptional: true })).toString("hex");

function fullDigits(source: AddressSource, known: readonly string[]): string {
  switch (source.kind) {
    case "known":
      return known[source.index % known.length] as string;
    case "special":
    case "small":
      return source.value.toString(16).padStart(64, "0");
    case "random":
      return Buffer.from(source.bytes).toString("hex");
  }
}

/**
 * The form of the case: the shortest digits, then as many leading zeros back as asked (up to `maxDigits`
 * in all), then 0x or not.
 */
function pathForm(full: string, c: AddressCase, maxDigits = 64): string {
  const shortest = full.replace(/^0+/, "") || "0";
  const digits = "0".repeat(Math.max(0, Math.min(c.zeros, maxDigits - shortest.length))) + shortest;
  return `${c.prefixed ? "0x" : ""}${digits}`;
}

/**
 * Which of the two laws judges a form: without 0x and with fewer than 64 digits (aptos-core refuses it,
 * baselines/aptos-core.txt), or any other. Each law draws only its own forms.
 */
type FormsJudged = "unprefixed-short" | "other";

/** The case's form for the law judging `judged`, or undefined when the address has no such form (64 digits, none to strip). */
function formFor(judged: FormsJudged, full: string, c: AddressCase): string | undefined {
  if (judged === "other") return pathForm(full, c.prefixed ? c : { ...c, zeros: 64 });
  const form = pathForm(full, { ...c, prefixed: false }, 63);
  return form.length < 64 ? form : undefined;
}

async function addressReads(t: CheckContext): Promise<AddressReads> {
  const f = t.fixtures;
  const candidates = ["0x1", moduleAccount(t), f.transactionsAccount, ...(f.accounts ?? []).map((a) => a.address)];
  const known = [...new Set(candidates.filter((a): a is string => a !== undefined).map(digits64))];
  const name = f.moduleName ?? (await firstModuleName(t));
  return { known, moduleName: name };
}

async function firstModuleName(t: CheckContext): Promise<string> {
  const res = await t.request({ path: `/accounts/${moduleAccount(t)}/modules`, query: { limit: 1 } });
  const first = Array.isArray(res.json) ? (res.json[0] as { abi?: { name?: unknown } } | undefined) : undefined;
  // Any identifier will do without one: both forms must then get the same 404.
  return typeof first?.abi?.name === "string" ? first.abi.name : "coin";
}

function addressRequest(read: AddressCase["read"], address: string, version: bigint, moduleName: string): RequestSpec {
  if (read === "modules") return { path: `/accounts/${address}/modules`, query: { ledger_version: version, limit: 3 } };
  if (read === "module")
    return { path: `/accounts/${address}/module/${encodeURIComponent(moduleName)}`, query: { ledger_version: version } };
  // Summaries up to a version already committed do not change (pruning aside, far below three recent ones).
  return { path: `/accounts/${address}/transaction_summaries`, query: { end_version: version, limit: 3 } };
}

function sameAnswer(a: HttpResponse, b: HttpResponse): boolean {
  if (a.status !== b.status) return false;
  if (a.status >= 200 && a.status < 300) return isDeepStrictEqual(a.json, b.json) && a.json !== undefined;
  // Error messages are for people and may echo the path as written; the code is the answer.
  return errorCodeOf(a) === errorCodeOf(b);
}

const shown = (res: HttpResponse) =>
  `${res.status}${errorCodeOf(res) === undefined ? "" : ` ${errorCodeOf(res)}`}: ${res.text.slice(0, 200)}`;

/**
 * Address 1 written "1", without the prefix or its leading zeros, at each read: the forms a node that
 * needs the prefix or all 64 digits refuses, which the draws of the unprefixed short forms' law meet
 * first, whatever the seed.
 */
const ADDRESS_EXAMPLES: readonly AddressCase[] = (["modules", "module", "summaries"] as const).map((read) => ({
  address: { kind: "special", value: 1 },
  read,
  prefixed: false,
  zeros: 0,
}));

function addressFormsLaw(id: string, judged: FormsJudged): void {
  law(
    id,
    { numRuns: 25, ...(judged === "unprefixed-short" ? { examples: () => ADDRESS_EXAMPLES } : {}) },
    addressReads,
    () => addressCases,
    async (t, c, reads) => {
      const full = fullDigits(c.address, reads.known);
      const form = formFor(judged, full, c);
      if (form === undefined) return undecided(`0x${full} has 64 digits: no leading zero to strip`);
      const version = (await currentWindow(t)).latest;
      const canonical = await t.request(addressRequest(c.read, `0x${full}`, version, reads.moduleName));
      const other = await t.request(addressRequest(c.read, form, version, reads.moduleName));
      t.expect(
        sameAnswer(canonical, other),
        `the same answer for ${form} as for 0x${full} (${formatAddress(parseAddress(`0x${full}`))}): §2.1 allows both forms of the same address in a path`,
        other,
        `for ${form}: ${shown(other)}; for the 64-digit form: ${shown(canonical)}`,
      );
      // Two equal errors do not show that both forms name the same account; two equal 200s do.
      return canonical.status === 200
        ? undefined
        : undecided(`the 64-digit form ${full} was answered ${shown(canonical)}, not 200: no account read to compare`);
    },
  );
}

addressFormsLaw("2.1/address-forms-equivalent-law", "other");
addressFormsLaw("2.1/unprefixed-short-address-law", "unprefixed-short");

// --- u64 and limit query values

interface BadValueTarget {
  readonly name: string;
  request(value: string): RequestSpec;
}

async function u64Targets(t: CheckContext): Promise<BadValueTarget[]> {
  const reads: VersionedRead[] = await versionedReads(t);
  const account = t.fixtures.transactionsAccount ?? "0x1";
  return [
    ...reads.map((r) => ({ name: `ledger_version of ${r.name}`, request: (v: string) => r.request(v) })),
    {
      name: "start_version of the transaction summaries (§4.3)",
      request: (v: string) => ({ path: `/accounts/${account}/transaction_summaries`, query: { start_version: v } }),
    },
    {
      name: "end_version of the transaction summaries (§4.3)",
      request: (v: string) => ({ path: `/accounts/${account}/transaction_summaries`, query: { end_version: v } }),
    },
  ];
}

async function limitTargets(t: CheckContext): Promise<BadValueTarget[]> {
  const account = t.fixtures.transactionsAccount ?? "0x1";
  const modules = moduleAccount(t);
  return [
    {
      name: "limit of the transaction summaries (§4.3)",
      request: (v: string) => ({ path: `/accounts/${account}/transaction_summaries`, query: { limit: v } }),
    },
    { name: "limit of the module listing (§4.5)", request: (v: string) => ({ path: `/accounts/${modules}/modules`, query: { limit: v } }) },
  ];
}

const badValueCase = (values: fc.Arbitrary<string>) => fc.record({ target: fc.nat(), value: values });

law(
  "2.1/u64-forms-law",
  { numRuns: 25 },
  u64Targets,
  () => badValueCase(notAU64),
  async (t, { target, value }, targets) => {
    const where = targets[target % targets.length] as BadValueTarget;
    const res = await t.request(where.request(value));
    t.expectClientError(res, `${JSON.stringify(value)} as ${where.name} is not a u64 (§2.1)`);
  },
);

law(
  "8/limit-forms-law",
  { numRuns: 20 },
  limitTargets,
  () => badValueCase(notAUint16),
  async (t, { target, value }, targets) => {
    const where = targets[target % targets.length] as BadValueTarget;
    const res = await t.request(where.request(value));
    t.expectClientError(res, `${JSON.stringify(value)} as ${where.name} is not a uint16 (§8)`);
  },
);
