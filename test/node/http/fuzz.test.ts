// Generated paths, queries, headers and bodies thrown at every route: the node answers each with a 2xx
// or a 4xx (never a 5xx), every error is a §2.6 JSON error object with a §7.2 code, and it stays up.

import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ERROR_CODES } from "../../../src/node/ledger/api.ts";
import { startNode, type RunningNode } from "../../../src/node/index.ts";
import { ManualClock } from "../../../src/node/ledger/index.ts";
import { call, expectOk, header, ledgerHeaders } from "./helpers.ts";

let node: RunningNode;
beforeAll(async () => {
  node = await startNode({ clock: new ManualClock(), bodyLimit: 64 * 1024 });
});
afterAll(() => node.close());

const printable = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

/** A path segment: plausible values, near misses and junk, percent-encoded or (for a few) raw and broken. */
const segment = () =>
  fc.oneof(
    fc.constantFrom(
      "0x1",
      "1",
      "0x",
      "",
      "coin",
      "aptos_account",
      `0x${"f".repeat(64)}`,
      `0x${"1".repeat(65)}`,
      "%zz",
      "%",
      "%00",
      "..",
      "-",
    ),
    fc.constant(null).map(() => node.fixtures.moduleAccount),
    fc.constant(null).map(() => node.fixtures.table.handle),
    fc.stringMatching(/^(0x)?[0-9a-fA-F]{0,70}$/),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
  );

const pathArb = fc.oneof(
  fc.tuple(segment()).map(([a]) => `/accounts/${a}/transaction_summaries`),
  fc.tuple(segment(), segment()).map(([a, m]) => `/accounts/${a}/module/${m}`),
  fc.tuple(segment()).map(([a]) => `/accounts/${a}/modules`),
  fc.tuple(segment()).map(([h]) => `/tables/${h}/item`),
  fc.constantFrom(
    "",
    "/",
    "/estimate_gas_price",
    "/-/healthy",
    "/transactions",
    "/spec",
    "/spec.json",
    "/spec.yaml",
    "/spec/assets/swagger-ui.css",
  ),
  fc.array(segment(), { maxLength: 4 }).map((parts) => `/${parts.join("/")}`),
);

const queryValue = fc.oneof(
  fc.constantFrom(
    "0",
    "1",
    "5",
    "100",
    "9999",
    "10000",
    "65535",
    "65536",
    "-1",
    "1.5",
    "1e3",
    "",
    "18446744073709551615",
    "18446744073709551616",
    "0x10",
  ),
  fc.bigInt({ min: 0n, max: 1n << 70n }).map(String),
  fc.string({ maxLength: 30 }),
);
const queryArb = fc
  .array(fc.tuple(fc.constantFrom("ledger_version", "start_version", "end_version", "limit", "start", "duration_secs", "x"), queryValue), {
    maxLength: 4,
  })
  .map((pairs) => (pairs.length === 0 ? "" : `?${new URLSearchParams(pairs).toString()}`));

const headersArb = fc.record(
  {
    accept: fc.oneof(
      fc.constantFrom("application/x-bcs", "application/json", "*/*", "application/x-bcs;q=0.1, application/json"),
      printable(40),
    ),
    "content-type": fc.oneof(
      fc.constantFrom(
        "application/json",
        "application/x.node.signed_transaction+bcs",
        "application/x.aptos.signed_transaction+bcs",
        "text/plain",
        "application/json; charset=utf-8",
        "",
      ),
      printable(40),
    ),
  },
  { requiredKeys: [] },
);

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const bodyArb = fc.oneof(
  fc.constant(undefined),
  jsonValue.map((v) => JSON.stringify(v)),
  fc
    .record({
      key_type: fc.oneof(fc.constantFrom("u64", "address", "u8", "vector<u8>", "0x1::string::String", "bool"), fc.string()),
      value_type: fc.oneof(fc.constantFrom("u64", "address"), fc.string()),
      key: jsonValue,
    })
    .map((v) => JSON.stringify(v)),
  fc
    .record({ sender: fc.constantFrom("0x1", "zz"), sequence_number: queryValue, payload: jsonValue, signature: jsonValue })
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 400 }),
);

const requestArb = fc.record({
  method: fc.constantFrom("GET", "GET", "POST", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"),
  path: pathArb,
  query: queryArb,
  headers: headersArb,
  body: bodyArb,
});

it("answers every generated request with a 2xx or a 4xx error object, and stays up", async () => {
  await fc.assert(
    fc.asyncProperty(requestArb, async ({ method, path, query, headers, body }) => {
      const withBody = method === "POST" || method === "PUT" || method === "PATCH";
      const reply = await call(node.url, `${path}${query}`, { method, headers, body: withBody ? body : undefined });
      const where = `${method} ${path}${query} -> ${reply.status} ${reply.text.slice(0, 200)}`;
      expect(reply.status, where).toBeGreaterThanOrEqual(200);
      expect(reply.status, where).toBeLessThan(500);
      ledgerHeaders(reply);
      if (reply.status >= 400) {
        expect(header(reply, "content-type"), where).toMatch(/^application\/json/);
        expect(header(reply, "X-NODE-CURSOR"), where).toBeUndefined();
        if (method === "HEAD") return; // a HEAD answer has the headers of the GET one, and no body
        const error = reply.json() as { message?: unknown; error_code?: unknown };
        expect(typeof error.message, where).toBe("string");
        expect(ERROR_CODES, where).toContain(error.error_code);
      }
    }),
    { numRuns: Number(process.env.HTTP_FUZZ_RUNS ?? 300) },
  );
  expectOk(await call(node.url, "/-/healthy"));
});
