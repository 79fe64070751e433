// The observed-status contract against a real local server that answers deviant responses: every
// response received through t.request is judged under the cross-cutting requirement ids.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CheckContext, traceOf } from "../../src/harness/check-context.ts";
import { WIRE_PROFILES, type RunConfig } from "../../src/harness/config.ts";
import { catalog, createHarness, type Harness } from "../../src/harness/harness.ts";
import { OBSERVED } from "../../src/harness/observed-contract.ts";
import type { CheckResult } from "../../src/harness/results.ts";
import { httpServer, ledgerHeaders, type Running } from "./servers.ts";

type Reply = { status: number; headers: Record<string, string>; body: string | Buffer };
let reply: (req: { url: string; accept: string | undefined }) => Reply;
let server: Running;
const harnesses: Harness[] = [];

beforeAll(async () => {
  server = await httpServer((req, res) => {
    const r = reply({ url: req.url ?? "", accept: req.headers.accept });
    res.writeHead(r.status, r.headers);
    res.end(r.body);
  });
});
afterAll(() => server.close());
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.client.destroy()));
});

function context(overrides: Partial<RunConfig> = {}): CheckContext {
  const config: RunConfig = {
    target: `${server.origin}/v1`,
    profile: WIRE_PROFILES.node,
    fixtures: {},
    allowSubmit: false,
    timeoutMs: 2_000,
    maxResponseBytes: 1_000_000,
    depth: 1,
    clockToleranceMs: 25,
    ...overrides,
  };
  const h = createHarness(config);
  harnesses.push(h);
  return new CheckContext(h, catalog().get("4.6/gas-estimate-object"));
}

const gas = JSON.stringify({ deprioritized_gas_estimate: 100, gas_estimate: 100, prioritized_gas_estimate: 150 });
const json = (status: number, body: unknown, headers: Record<string, string> = ledgerHeaders()): Reply => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

function verdicts(results: readonly CheckResult[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of results) out[r.requirement] = out[r.requirement] === "failed" ? "failed" : r.status;
  return out;
}

async function observe(
  r: Reply,
  spec: { path?: string; accept?: "json" | "bcs" } = {},
  t = context(),
): Promise<{ v: Record<string, string>; results: readonly CheckResult[] }> {
  reply = () => r;
  await t.request({ path: spec.path ?? "/estimate_gas_price", ...(spec.accept ? { accept: spec.accept } : {}) });
  return { v: verdicts(traceOf(t).observed), results: traceOf(t).observed };
}

describe("observed contract on a 200", () => {
  it("passes a conforming response on every rule that applies", async () => {
    const { v } = await observe(json(200, gas));
    expect(v).toEqual({
      [OBSERVED.statusInSet]: "passed",
      [OBSERVED.requiredHeaders]: "passed",
      [OBSERVED.mediaType]: "passed",
      [OBSERVED.acceptSelects]: "passed",
      [OBSERVED.familyMemberNames]: "passed",
      [OBSERVED.headerForms]: "passed",
      [OBSERVED.headerConsistency]: "passed",
      [OBSERVED.chainId]: "passed",
    });
  });

  it("passes a member the contract does not declare, and notes it in the trace without a result of its own", async () => {
    const t = context();
    const { v } = await observe(json(200, { ...JSON.parse(gas), x_future: true }), {}, t);
    expect(Object.values(v).every((s) => s === "passed")).toBe(true);
    expect(t.expectBodyMatchesSchema(await t.request({ path: "/estimate_gas_price" }))).toMatchObject({ x_future: true });
    expect(traceOf(t).unknownMembers.seen()).toEqual({ members: [{ schema: "GasEstimation", member: "x_future", count: 2 }], leftOut: 0 });
  });

  it("fails missing required headers, and hints at another prefix", async () => {
    const { v, results } = await observe(json(200, gas, ledgerHeaders("X-APTOS-")));
    expect(v[OBSERVED.requiredHeaders]).toBe("failed");
    const message = results.find((r) => r.requirement === OBSERVED.requiredHeaders)?.failures[0]?.message ?? "";
    expect(message).toMatch(/x-node-chain-id/);
    expect(message).toMatch(/X-APTOS-\* headers/);
    expect(message).toMatch(/replay: {3}curl .*estimate_gas_price/);
  });

  it("accepts the same headers under the aptos profile", async () => {
    const t = context({ profile: WIRE_PROFILES.aptos });
    const { v } = await observe(json(200, gas, ledgerHeaders("X-APTOS-")), {}, t);
    expect(v[OBSERVED.requiredHeaders]).toBe("passed");
  });

  it.each([
    ["LEDGER-VERSION", "12a"],
    ["LEDGER-VERSION", "-1"],
    ["LEDGER-VERSION", "18446744073709551616"],
    ["CHAIN-ID", "256"],
    ["EPOCH", "1.5"],
  ])("fails a %s header of %s as not an integer of its type", async (name, value) => {
    const { v, results } = await observe(json(200, gas, ledgerHeaders("X-NODE-", { [name]: value })));
    expect(v[OBSERVED.headerForms]).toBe("failed");
    expect(results.find((r) => r.requirement === OBSERVED.headerForms)?.failures[0]?.message).toContain(value);
  });

  it("fails an oldest version above the current one", async () => {
    const { v } = await observe(json(200, gas, ledgerHeaders("X-NODE-", { "LEDGER-OLDEST-VERSION": "101" })));
    expect(v[OBSERVED.headerConsistency]).toBe("failed");
  });

  it("fails a chain id other than the fixtures', and one that changes between responses", async () => {
    const t = context({ fixtures: { chainId: 4 } });
    expect((await observe(json(200, gas), {}, t)).v[OBSERVED.chainId]).toBe("passed");
    const second = await observe(json(200, gas, ledgerHeaders("X-NODE-", { "CHAIN-ID": "5" })), {}, t);
    expect(second.v[OBSERVED.chainId]).toBe("failed");
    expect(second.results.find((r) => r.requirement === OBSERVED.chainId && r.status === "failed")?.failures[0]?.message).toMatch(
      /fixtures chainId is 4.*earlier response said 4/s,
    );
  });

  it("fails (MUST, §2.7) when the ledger version goes back after a later response was received", async () => {
    const t = context();
    // The first response sets the mark (nothing to compare with), the second moves forward, the third goes back.
    await observe(json(200, gas, ledgerHeaders("X-NODE-", { "LEDGER-VERSION": "200" })), {}, t);
    await observe(json(200, gas, ledgerHeaders("X-NODE-", { "LEDGER-VERSION": "250" })), {}, t);
    const { results } = await observe(json(200, gas, ledgerHeaders("X-NODE-", { "LEDGER-VERSION": "150" })), {}, t);
    const mono = results.filter((r) => r.requirement === OBSERVED.monotonic);
    expect(mono.map((r) => r.status)).toEqual(["passed", "failed"]);
    expect(mono[1]?.failures[0]?.message).toMatch(/LEDGER-VERSION 150 < 250/);
  });

  it("fails a media type the endpoint does not offer", async () => {
    const { v } = await observe({ status: 200, headers: { ...ledgerHeaders(), "content-type": "text/plain" }, body: gas });
    expect(v[OBSERVED.mediaType]).toBe("failed");
  });

  it.each(["application/yaml", "application/x-yaml"])(
    "passes /spec.yaml served as %s (§4.1 names no media type; aptos-core serves application/x-yaml)",
    async (type) => {
      const { v } = await observe(
        { status: 200, headers: { ...ledgerHeaders(), "content-type": type }, body: "openapi: 3.1.0\n" },
        { path: "/spec.yaml" },
      );
      expect(v[OBSERVED.mediaType]).toBe("passed");
    },
  );

  it("warns when Accept: application/x-bcs gets JSON", async () => {
    const { v } = await observe(json(200, gas), { accept: "bcs" });
    expect(v[OBSERVED.acceptSelects]).toBe("warned");
    expect(v[OBSERVED.mediaType]).toBe("passed");
  });

  it("fails a cursor on an empty page", async () => {
    const { v } = await observe(json(200, [], { ...ledgerHeaders(), "X-NODE-CURSOR": "0xabcd" }), { path: "/accounts/0x1/modules" });
    expect(v[OBSERVED.cursorLastPage]).toBe("failed");
  });

  it("passes a cursor on a non-empty page", async () => {
    const module = { bytecode: "0xa11ceb0b0600", abi: undefined };
    const { v } = await observe(json(200, [{ bytecode: module.bytecode }], { ...ledgerHeaders(), "X-NODE-CURSOR": "0xabcd" }), {
      path: "/accounts/0x1/modules",
    });
    expect(v[OBSERVED.cursorLastPage]).toBeUndefined();
    expect(v[OBSERVED.requiredHeaders]).toBe("passed");
  });
});

describe("observed contract on the spec pages", () => {
  it("judges their ledger headers under an id of their own", async () => {
    const page = { status: 200, headers: { "content-type": "text/html" }, body: "<html></html>" };
    const { v } = await observe(page, { path: "/spec" });
    expect(v[OBSERVED.requiredHeadersSpecPages]).toBe("failed");
    expect(v[OBSERVED.requiredHeaders]).toBeUndefined();
    const api = await observe(json(200, gas, {}));
    expect(api.v[OBSERVED.requiredHeaders]).toBe("failed");
    expect(api.v[OBSERVED.requiredHeadersSpecPages]).toBeUndefined();
  });
});

describe("observed contract on an error", () => {
  const error = { message: "bad", error_code: "web_framework_error" };

  it("passes a conforming error object (headers optional on errors)", async () => {
    const { v } = await observe(json(400, error, {}));
    expect(v).toEqual({
      [OBSERVED.statusInSet]: "passed",
      [OBSERVED.errorObject]: "passed",
      [OBSERVED.errorCodeKnown]: "passed",
      [OBSERVED.noCursorOnError]: "passed",
      [OBSERVED.familyMemberNames]: "passed",
    });
  });

  it("fails a status the endpoint does not list", async () => {
    const { v, results } = await observe(json(404, { message: "x", error_code: "resource_not_found" }, {}));
    expect(v[OBSERVED.statusInSet]).toBe("failed");
    expect(results.find((r) => r.requirement === OBSERVED.statusInSet)?.failures[0]?.message).toMatch(/400, 403, 500, 503/);
  });

  it("judges a refused body the operation does not take (none, or another Content-Type) under an id of its own", async () => {
    const t = context();
    reply = () => json(415, { message: "unsupported", error_code: "web_framework_error" }, {});
    await t.request({ method: "POST", path: "/transactions", body: "x", contentType: "text/plain" });
    await t.request({ method: "POST", path: "/transactions" });
    const bodyless = verdicts(traceOf(t).observed);
    expect(bodyless[OBSERVED.unsupportedBodyStatus]).toBe("failed");
    expect(bodyless[OBSERVED.statusInSet]).toBeUndefined();
    // The same status for a body the operation takes is the general rule's.
    const u = context();
    await u.request({ method: "POST", path: "/transactions", body: "{}", contentType: "application/json" });
    expect(verdicts(traceOf(u).observed)[OBSERVED.statusInSet]).toBe("failed");
    expect(verdicts(traceOf(u).observed)[OBSERVED.unsupportedBodyStatus]).toBeUndefined();
  });

  it("takes any 2xx as a submission's success, which §4.8 leaves unshown, and no 3xx", async () => {
    const t = context();
    const submit = async (status: number) => {
      reply = () => json(status, {});
      await t.request({ method: "POST", path: "/transactions", json: {} });
      const observed = traceOf(t).observed.filter((r) => r.requirement === OBSERVED.statusInSet);
      return observed[observed.length - 1];
    };
    for (const status of [200, 201, 202]) expect((await submit(status))?.status, `status ${status}`).toBe("passed");
    const redirect = await submit(303);
    expect(redirect?.status).toBe("failed");
    expect(redirect?.failures[0]?.message).toMatch(/lists: 2XX, 400, 403, 404, 413, 500, 503, 507/);
  });

  it("fails an error body that is not the JSON error object", async () => {
    expect(
      (await observe({ status: 500, headers: { "content-type": "text/plain" }, body: "Internal Server Error" })).v[OBSERVED.errorObject],
    ).toBe("failed");
    expect((await observe(json(500, { msg: "x" }, {}))).v[OBSERVED.errorObject]).toBe("failed");
    expect((await observe(json(400, { message: "x", error_code: "vm_error", vm_error_code: -1 }, {}))).v[OBSERVED.errorObject]).toBe(
      "failed",
    );
  });

  it("passes vm_error_code null, as aptos-core sends it on every error without one (the family's convention: null counts as absent)", async () => {
    const { v } = await observe(json(400, { message: "x", error_code: "invalid_input", vm_error_code: null }, {}));
    expect(v[OBSERVED.errorObject]).toBe("passed");
    expect((await observe(json(400, { message: "x", error_code: "vm_error", vm_error_code: "1" }, {}))).v[OBSERVED.errorObject]).toBe(
      "failed",
    );
    expect((await observe(json(400, { message: null, error_code: "vm_error" }, {}))).v[OBSERVED.errorObject]).toBe("failed");
  });

  it("fails an error code outside §7.2", async () => {
    const { v } = await observe(json(400, { message: "x", error_code: "bad_request" }, {}));
    expect(v[OBSERVED.errorObject]).toBe("passed");
    expect(v[OBSERVED.errorCodeKnown]).toBe("failed");
  });

  it("judges one error body by one rule: a member the contract does not declare passes 2.6/error-object and t.expectErrorObject alike", async () => {
    const t = context();
    const body = { message: "x", error_code: "invalid_input", vm_error_code: null, x_future: true };
    const { v } = await observe(json(400, body, {}), {}, t);
    expect(v[OBSERVED.errorObject]).toBe("passed");
    reply = () => json(400, body, {});
    const res = await t.request({ path: "/estimate_gas_price", accept: "bcs" });
    expect(() => t.expectErrorObject(res)).not.toThrow();
    expect(t.expectBodyMatchesSchema(res)).toEqual(body);
    expect(traceOf(t).unknownMembers.seen().members).toEqual([{ schema: "Error", member: "x_future", count: 2 }]);
  });

  it("fails the same error body by both when a required member is missing or of the wrong type", async () => {
    for (const body of [
      { error_code: "invalid_input", x_future: true },
      { message: 7, error_code: "invalid_input" },
    ]) {
      const t = context();
      const { v } = await observe(json(400, body, {}), {}, t);
      expect(v[OBSERVED.errorObject]).toBe("failed");
      const res = await t.request({ path: "/estimate_gas_price", accept: "bcs" });
      expect(() => t.expectErrorObject(res)).toThrow(/§2\.6 error object/);
      expect(() => t.expectBodyMatchesSchema(res)).toThrow(/§2\.6 error object/);
    }
  });

  it("fails a cursor on an error", async () => {
    const { v } = await observe(json(400, error, { "X-NODE-CURSOR": "0x01" }));
    expect(v[OBSERVED.noCursorOnError]).toBe("failed");
  });

  it("still checks the forms of ledger headers present on an error", async () => {
    // A 500, which §4.7 lists: a 503 to a health check without duration_secs is shed load, sent again.
    const { v } = await observe(json(500, { message: "x", error_code: "internal_error" }, { "X-NODE-LEDGER-VERSION": "abc" }), {
      path: "/-/healthy",
    });
    expect(v[OBSERVED.headerForms]).toBe("failed");
    expect(v[OBSERVED.statusInSet]).toBe("passed");
  });
});
