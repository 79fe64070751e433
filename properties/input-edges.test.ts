// Inputs at their edges: every integer query parameter at the edges of its type (§2.1 u64, §8 limit,
// §4.7 duration_secs), a start_version below the pruning window (§1, §4.3), MoveType strings with
// blanks in a table item request (§2.1, §2.2), and a module name in another case (§2.1, §4.4).
//
// Each edge is a handful of requests sent at once. Values are judged against the rule, or against a
// value the rule cannot tell from them: 2^64-1 as a ledger_version must get the answer a version a
// billion above the current one gets (both are u64s above the ledger), so a node that reads it through
// a double (2^64) or refuses it as out of range shows, whatever status its family gives future versions.

import { isDeepStrictEqual } from "node:util";
import {
  check,
  CheckNotApplicable,
  describeEndpoint,
  errorCodeOf,
  type CheckContext,
  type HttpResponse,
  type RequestSpec,
} from "../src/harness/index.ts";
import { moduleAccount, moduleUnderTest } from "../suites/support/account-modules.ts";
import { judgedHealthCheck } from "../suites/support/health-clock.ts";
import { currentWindow } from "../suites/support/ledger-window.ts";
import { tableItemBody } from "../suites/support/table-values.ts";
import { withBlanks } from "../suites/support/type-blanks.ts";
import { requirePruning, versionedReads } from "../suites/support/versioned-reads.ts";

const TWO_53 = 2n ** 53n;
const U64_MAX = 2n ** 64n - 1n;
/** How far above the current version the reference value lies: out of reach of the ledger while the check runs. */
const FAR_AHEAD = 1_000_000_000n;

/** u64s that no ledger reaches: they and a version FAR_AHEAD above the current one are all "above the ledger". */
const HIGH_U64S: readonly bigint[] = [TWO_53 - 1n, TWO_53, TWO_53 + 1n, U64_MAX];
/** Not u64s: above the range (2^64 rounds to the same double as 2^64-1, and so does 2^64+1), negative, not digits. */
const NOT_U64S: readonly string[] = [(U64_MAX + 1n).toString(), (U64_MAX + 2n).toString(), "-1", "12abc"];
/** Not uint16s: just above it (65536 wraps to 0 in 16 bits, 65537 to 1), the u64 edges, above u64, negative, not digits. */
const NOT_UINT16S: readonly string[] = [
  "65536",
  "65537",
  ...[TWO_53 - 1n, TWO_53, TWO_53 + 1n, U64_MAX, U64_MAX + 1n].map(String),
  "-1",
  "1x",
];

const shown = (res: HttpResponse) =>
  `${res.status}${errorCodeOf(res) === undefined ? "" : ` ${errorCodeOf(res)}`}: ${res.text.slice(0, 160)}`;

const sameAnswerKind = (a: HttpResponse, b: HttpResponse) => a.status === b.status && errorCodeOf(a) === errorCodeOf(b);

// --- §2.1 u64 query parameters

interface U64Target {
  readonly name: string;
  request(value: string): RequestSpec;
}

async function u64Targets(t: CheckContext): Promise<U64Target[]> {
  const account = t.fixtures.transactionsAccount ?? "0x1";
  const summaries = (name: "start_version" | "end_version"): U64Target => ({
    name: `${name} of the transaction summaries of ${account} (§4.3)`,
    request: (v) => ({ path: `/accounts/${account}/transaction_summaries`, query: { [name]: v, limit: 5 } }),
  });
  const reads = await versionedReads(t);
  return [
    ...reads.map((r) => ({ name: `ledger_version of ${r.name}`, request: (v: string) => r.request(v) })),
    summaries("start_version"),
    summaries("end_version"),
  ];
}

check("2.1/u64-edges", async (t) => {
  const targets = await u64Targets(t);
  const reference = ((await currentWindow(t)).latest + FAR_AHEAD).toString();
  await Promise.all(
    targets.map(async (target) => {
      const [ref, low, high, bad] = await Promise.all([
        t.request(target.request(reference)),
        Promise.all(["0", "1"].map((v) => t.request(target.request(v)))),
        Promise.all(HIGH_U64S.map((v) => t.request(target.request(v.toString())))),
        Promise.all(NOT_U64S.map((v) => t.request(target.request(v)))),
      ]);
      t.expect(ref.status < 500, `not a server error: ${reference} (a u64) as ${target.name}`, ref);
      ["0", "1"].forEach((v, i) => {
        const res = low[i] as HttpResponse;
        t.expect(res.status < 500, `not a server error: ${v} (a u64) as ${target.name}`, res);
      });
      HIGH_U64S.forEach((v, i) => {
        const res = high[i] as HttpResponse;
        t.expect(res.status < 500, `not a server error: ${v} (a u64) as ${target.name}`, res);
        t.expect(
          sameAnswerKind(res, ref),
          `the answer ${reference} gets as ${target.name}, for ${v}: both are u64s above the ledger (§2.1), which the rule answers alike`,
          res,
          `for ${v}: ${shown(res)}; for ${reference}: ${shown(ref)}`,
        );
      });
      NOT_U64S.forEach((v, i) => {
        t.expectClientError(bad[i] as HttpResponse, `${JSON.stringify(v)} as ${target.name} is not a u64 (§2.1)`);
      });
    }),
  );
});

// --- §8 limit

check("8/limit-edges", async (t) => {
  const account = t.fixtures.transactionsAccount ?? "0x1";
  const modules = moduleAccount(t);
  const targets: U64Target[] = [
    {
      name: `limit of the transaction summaries of ${account} (§4.3)`,
      request: (v) => ({ path: `/accounts/${account}/transaction_summaries`, query: { limit: v } }),
    },
    {
      name: `limit of the module listing of ${modules} (§4.5)`,
      request: (v) => ({ path: `/accounts/${modules}/modules`, query: { limit: v } }),
    },
  ];
  await Promise.all(
    targets.map(async (target) => {
      const [one, max, bad] = await Promise.all([
        t.request(target.request("1")),
        t.request(target.request("65535")),
        Promise.all(NOT_UINT16S.map((v) => t.request(target.request(v)))),
      ]);
      t.expectStatus(one, 200);
      t.expect(Array.isArray(one.json) && one.json.length <= 1, `at most one element for limit=1 as ${target.name}`, one);
      t.expect(max.status < 500, `not a server error: 65535, the largest uint16, as ${target.name}`, max);
      if (max.status === 200) {
        t.expect(Array.isArray(max.json) && max.json.length <= 65_535, `at most 65535 elements for limit=65535 as ${target.name}`, max);
      }
      NOT_UINT16S.forEach((v, i) => {
        t.expectClientError(bad[i] as HttpResponse, `${JSON.stringify(v)} as ${target.name} is not a uint16 (§8)`);
      });
    }),
  );
});

// --- §4.7 duration_secs

/** Thresholds the ledger is within (1 only when the clocks say so), after the Unix epoch or beyond 32 bits. */
const DURATIONS: readonly bigint[] = [1n, 65_535n, 65_536n, 2n ** 30n, 2n ** 32n, TWO_53 - 1n, TWO_53, TWO_53 + 1n, U64_MAX];
/** Thresholds within 32 bits that reach before the Unix epoch. */
const BEFORE_EPOCH: readonly bigint[] = [2n ** 31n - 1n, 2n ** 32n - 1n];

/** Each threshold the clocks decide healthy is answered 200 or refused as beyond the node's type, never 500 or 503. */
async function judgeDurations(t: CheckContext, durations: readonly bigint[]): Promise<void> {
  const judged = await Promise.all(durations.map((d) => judgedHealthCheck(t, d)));
  if (!judged.some((j) => j.verdict === "must-be-healthy")) throw new CheckNotApplicable(`cannot decide: ${judged[0]?.reasoning}`);
  durations.forEach((d, i) => {
    const { res, verdict, reasoning } = judged[i] as (typeof judged)[number];
    if (verdict !== "must-be-healthy") return;
    t.expect(
      res.status === 200 || (res.status >= 400 && res.status < 500),
      `200 for duration_secs=${d}: the rule of §4.7 holds (${reasoning}); or a client error for a value beyond the node's type for duration_secs (§4.7 gives it none); never 500 or 503`,
      res,
    );
  });
}

describeEndpoint("healthy", () => {
  check("4.7/duration-edges", (t) => judgeDurations(t, DURATIONS));
  check("4.7/duration-before-epoch", (t) => judgeDurations(t, BEFORE_EPOCH));
});

// --- §1, §4.3 a start_version below the pruning window

describeEndpoint("get_account_transaction_summaries", () => {
  check("4.3/pruned-version-gone", async (t) => {
    const account = t.fixtures.transactionsAccount ?? "0x1";
    const w = await currentWindow(t);
    requirePruning(t, w.oldest > 0n);
    const versions = [...new Set([0n, w.oldest - 1n])];
    const answers = await Promise.all(
      versions.map((v) => t.request({ path: `/accounts/${account}/transaction_summaries`, query: { start_version: v.toString() } })),
    );
    versions.forEach((v, i) => {
      const res = answers[i] as HttpResponse;
      t.expect(
        res.status === 410,
        `410: start_version ${v} is below ${t.headerName("LEDGER-OLDEST-VERSION")} ${w.oldest}, so it was pruned (§1)`,
        res,
      );
    });
  });

  check("4.3/pruned-start-not-empty", async (t) => {
    const account = t.needsFixture("transactionsAccount");
    const w = await currentWindow(t);
    requirePruning(t, w.oldest > 0n);
    const recent = await t.request({ path: `/accounts/${account}/transaction_summaries` });
    t.expectStatus(recent, 200);
    const versions = Array.isArray(recent.json)
      ? (recent.json as { version?: unknown }[])
          .map((s) => s.version)
          .filter((v): v is string => typeof v === "string" && /^[0-9]+$/.test(v))
      : [];
    const newest = versions.map(BigInt).reduce<bigint | undefined>((a, b) => (a === undefined || b > a ? b : a), undefined);
    if (newest === undefined) throw new CheckNotApplicable(`the account ${account} has no summaries to be left out`);
    const start = w.oldest - 1n;
    const res = await t.request({
      path: `/accounts/${account}/transaction_summaries`,
      query: { start_version: start.toString(), limit: 100 },
    });
    if (res.status !== 200) return; // a refusal leaves nothing out (4.3/pruned-version-gone judges which one)
    const oldest = t.ledgerState(res).oldestVersion;
    if (oldest === undefined || oldest > newest)
      throw new CheckNotApplicable(
        `the summary at version ${newest} was pruned before the answer (${t.headerName("LEDGER-OLDEST-VERSION")} ${oldest})`,
      );
    t.expect(
      Array.isArray(res.json) && res.json.length > 0,
      `not an empty page: the account's summary at version ${newest} is at or after start_version ${start} and retained (${t.headerName("LEDGER-OLDEST-VERSION")} ${oldest}), so the output starting at ${start} holds summaries (§4.3)`,
      res,
    );
  });
});

// --- §2.1 MoveType blanks in a table item request (§2.2, §4.2)

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describeEndpoint("get_table_item", () => {
  for (const accept of ["json", "bcs"] as const) {
    check(
      "2.1/struct-tag-blanks-ignored",
      { variant: `table item key and value types, answered as ${accept.toUpperCase()}` },
      async (t) => {
        // The first of the fixtures' tables whose key or value type holds a struct tag to put blanks in.
        const tables = [t.needsFixture("table"), ...(t.fixtures.tables ?? [])];
        const table = tables.find((x) => withBlanks(x.keyType) !== x.keyType || withBlanks(x.valueType) !== x.valueType);
        if (table === undefined) {
          throw new CheckNotApplicable(
            `no table of the fixtures (table, tables) has a struct tag in its key or value type: no two tokens to put blanks between`,
          );
        }
        const keyType = withBlanks(table.keyType);
        const valueType = withBlanks(table.valueType);
        const version = (await currentWindow(t)).latest.toString();
        const request = (body: unknown): RequestSpec => ({
          method: "POST",
          path: `/tables/${table.handle}/item`,
          query: { ledger_version: version },
          accept,
          json: body,
        });
        const [plain, blanked] = await Promise.all([
          t.request(request(tableItemBody(table))),
          t.request(request({ ...tableItemBody(table), key_type: keyType, value_type: valueType })),
        ]);
        const same =
          plain.status === 200
            ? blanked.status === 200 &&
              (accept === "bcs" ? sameBytes(plain.body, blanked.body) : isDeepStrictEqual(plain.json, blanked.json))
            : sameAnswerKind(plain, blanked);
        t.expect(
          same,
          `the same answer for key_type ${JSON.stringify(keyType)} and value_type ${JSON.stringify(valueType)} as without the blanks (§2.1 "Blank characters are ignored")`,
          blanked,
          `with blanks: ${shown(blanked)}; without: ${shown(plain)}`,
        );
        if (plain.status !== 200)
          throw new CheckNotApplicable(`the fixtures' item was answered ${shown(plain)}, not 200: no item to compare`);
      },
    );
  }
});

// --- §2.1, §4.4 a module name in another case

/** Spellings of `name` in another case: all upper, and the first letter's case turned. */
function otherCases(name: string): string[] {
  const first = name.charAt(0);
  const turned = (first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase()) + name.slice(1);
  return [...new Set([name.toUpperCase(), turned])].filter((n) => n !== name);
}

describeEndpoint("get_account_module", () => {
  check("4.4/module-name-case-sensitive", async (t) => {
    const { account, name } = await moduleUnderTest(t);
    const spellings = otherCases(name);
    if (spellings.length === 0) throw new CheckNotApplicable(`the module name ${name} has no letter to write in another case`);
    const real = await t.request({ path: `/accounts/${account}/module/${encodeURIComponent(name)}` });
    t.expectStatus(real, 200);
    const bytecode = (real.json as { bytecode?: unknown } | undefined)?.bytecode;
    const version = t.ledgerState(real).ledgerVersion;
    const at = version === undefined ? {} : { ledger_version: version.toString() };
    const path = (n: string) => `/accounts/${account}/module/${encodeURIComponent(n)}`;
    const realBcs = await t.request({ path: path(name), query: at, accept: "bcs" });
    const answers = await Promise.all(
      spellings.map(async (n) => ({
        json: await t.request({ path: path(n), query: at }),
        bcs: await t.request({ path: path(n), query: at, accept: "bcs" }),
      })),
    );
    spellings.forEach((n, i) => {
      const { json, bcs } = answers[i] as (typeof answers)[number];
      const expected = `not the module ${name} for module_name ${n}: module names are case-sensitive (§2.1), so ${n} names another module`;
      const other = (json.json as { bytecode?: unknown } | undefined)?.bytecode;
      const sameJson =
        json.status === 200 && typeof bytecode === "string" && typeof other === "string" && other.toLowerCase() === bytecode.toLowerCase();
      t.expect(!sameJson, expected, json);
      t.expect(!(bcs.status === 200 && realBcs.status === 200 && sameBytes(bcs.body, realBcs.body)), `${expected} (as BCS)`, bcs);
    });
  });
});
