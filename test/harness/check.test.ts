// What a check records and how it ends, run through runCheck (the body of every `check` test) against
// a real local server: MUST and SHOULD failures, fixtures, submission safety, assertions, BCS, raw
// requests, properties, and the ledger mark shared between workers.

import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bcs } from "@mysten/bcs";
import fc from "fast-check";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CheckContext, traceOf } from "../../src/harness/check-context.ts";
import { runCheck } from "../../src/harness/check.ts";
import { WIRE_PROFILES, type RunConfig } from "../../src/harness/config.ts";
import { catalog, createHarness, type Harness } from "../../src/harness/harness.ts";
import { shareLedgerTracker } from "../../src/harness/ledger-tracker.ts";
import { shareSequenceBook } from "../../src/harness/sequence-book.ts";
import { OBSERVED } from "../../src/harness/observed-contract.ts";
import { runProperty } from "../../src/harness/property.ts";
import { garbageServer, httpServer, ledgerHeaders, type Running } from "./servers.ts";

let server: Running;
/** Requests per path prefix of the routes below that reset connections, to show what was sent again. */
const seen = new Map<string, number>();
let gasBody = JSON.stringify({ deprioritized_gas_estimate: 100, gas_estimate: 100, prioritized_gas_estimate: 150 });
let bcsBody = Buffer.alloc(0);
const harnesses: Harness[] = [];

beforeAll(async () => {
  server = await httpServer((req, res, body) => {
    const url = req.url ?? "";
    // /v1/reset-once/…: the first request of each path is reset, the next one answered; /v1/reset-always/…
    // and submissions of a "reset" body are always reset.
    const key = url.split("?")[0] ?? url;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (
      url.startsWith("/v1/reset-always") ||
      (url.startsWith("/v1/transactions") && body.toString() === "reset") ||
      (url.startsWith("/v1/reset-once") && seen.get(key) === 1)
    ) {
      req.socket.resetAndDestroy();
      return;
    }
    if (url.startsWith("/v1/echo-authorization")) {
      // A gateway that quotes the credentials it was given in its error.
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: `saw ${req.headers.authorization ?? "nothing"}`, error_code: "invalid_input" }));
      return;
    }
    if (url.startsWith("/v1/coded/")) {
      // A gateway that codes whatever the request asked: gzip, a coding the suite cannot read, a bomb.
      const coding = url.slice("/v1/coded/".length);
      const json = Buffer.from('{"message":"no route","error_code":"resource_not_found"}');
      const coded = coding === "zstd" ? json : gzipSync(coding === "bomb" ? Buffer.alloc(4_000_000) : json);
      res.writeHead(404, { "content-type": "application/json", "content-encoding": coding === "zstd" ? "zstd" : "gzip" });
      res.end(coded);
      return;
    }
    if (url.startsWith("/v1/reset-once")) {
      res.writeHead(200, { ...ledgerHeaders(), "content-type": "application/json" });
      res.end("{}");
      return;
    }
    if (url.startsWith("/v1/estimate_gas_price")) {
      if (req.headers.accept === "application/x-bcs") {
        res.writeHead(200, { ...ledgerHeaders(), "content-type": "application/x-bcs" });
        res.end(bcsBody);
      } else {
        res.writeHead(200, { ...ledgerHeaders(), "content-type": "application/json" });
        res.end(gasBody);
      }
      return;
    }
    if (url.startsWith("/v1/-/healthy")) {
      // Unhealthy for a duration_secs below 10: a property with a counterexample to find.
      const d = Number(new URL(url, "http://x").searchParams.get("duration_secs") ?? "100");
      if (d < 10) {
        res.writeHead(503, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "lagging", error_code: "health_check_failed" }));
      } else {
        res.writeHead(200, { ...ledgerHeaders(), "content-type": "application/json" });
        res.end('{"message":"ok"}');
      }
      return;
    }
    if (url.startsWith("/v1/transactions")) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: `got ${body.length} bytes`, error_code: "invalid_input" }));
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"message":"no route","error_code":"resource_not_found"}');
  });
});
afterAll(() => server.close());
afterEach(async () => {
  gasBody = JSON.stringify({ deprioritized_gas_estimate: 100, gas_estimate: 100, prioritized_gas_estimate: 150 });
  await Promise.all(harnesses.splice(0).map((h) => h.client.destroy()));
});

function harness(overrides: Partial<RunConfig> = {}): Harness {
  const h = createHarness({
    target: `${server.origin}/v1`,
    profile: WIRE_PROFILES.node,
    fixtures: {},
    allowSubmit: false,
    timeoutMs: 2_000,
    maxResponseBytes: 1_000_000,
    depth: 1,
    clockToleranceMs: 25,
    ...overrides,
  });
  harnesses.push(h);
  return h;
}

const must = () => catalog().get("4.6/gas-estimate-object");
const should = () => catalog().get("4.7/health-message");

describe("runCheck", () => {
  it("passes a check whose assertions hold, recording its requests and the observed results", async () => {
    const out = await runCheck(harness(), must(), async (t) => {
      const res = await t.request({ path: "/estimate_gas_price" });
      t.expectStatus(res, 200);
      t.expectBodyMatchesSchema(res);
    });
    expect(out.own).toEqual({ requirement: "4.6/gas-estimate-object", status: "passed", failures: [] });
    expect(out.vitest.kind).toBe("pass");
    expect(out.meta.requests).toHaveLength(1);
    expect(out.meta.results.some((r) => r.requirement === OBSERVED.requiredHeaders && r.status === "passed")).toBe(true);
  });

  it("fails a MUST check whose body does not match the schema, with the schema errors and a curl line", async () => {
    gasBody = JSON.stringify({ deprioritized_gas_estimate: "100", gas_estimate: 100 });
    const out = await runCheck(harness(), must(), async (t) => {
      const res = await t.request({ path: "/estimate_gas_price" });
      t.expectBodyMatchesSchema(res);
    });
    expect(out.own.status).toBe("failed");
    const message = out.own.failures[0]?.message ?? "";
    expect(message).toMatch(/^\[4\.6\/gas-estimate-object\] expected: a body matching the estimate_gas_price 200 application\/json schema/);
    expect(message).toMatch(/deprioritized_gas_estimate must be integer/);
    expect(message).toMatch(/prioritized_gas_estimate/);
    expect(message).toMatch(/actual: {3}HTTP 200/);
    expect(message).toMatch(/body: {5}\{"deprioritized_gas_estimate":"100"/);
    expect(out.own.failures[0]?.curl).toMatch(/^curl .*'http:\/\/127\.0\.0\.1:\d+\/v1\/estimate_gas_price'$/);
    expect(out.vitest).toMatchObject({ kind: "fail" });
  });

  it("warns, without failing the test, when a SHOULD assertion does not hold", async () => {
    const out = await runCheck(harness(), should(), async (t) => {
      const res = await t.request({ path: "/-/healthy" });
      t.expect((res.json as { message?: unknown }).message === "healthy", 'message "healthy"', res);
    });
    expect(out.own.status).toBe("warned");
    expect(out.own.failures[0]?.message).toMatch(/expected: message "healthy"/);
    expect(out.vitest.kind).toBe("pass");
  });

  it("fails the test when an observed MUST rule fails even though the check's own assertions held", async () => {
    const out = await runCheck(harness(), must(), async (t) => {
      const res = await t.request({ path: "/nowhere", operation: "estimate_gas_price" });
      t.expectStatus(res, 404);
    });
    expect(out.own.status).toBe("passed");
    expect(out.meta.results.find((r) => r.requirement === OBSERVED.statusInSet)?.status).toBe("failed");
    expect(out.vitest).toMatchObject({ kind: "fail", message: expect.stringMatching(/7\.1\/listed-status/) });
  });

  it("ends as not_applicable naming the missing fixture", async () => {
    const out = await runCheck(harness(), must(), (t) => {
      t.needsFixture("table");
    });
    expect(out.own).toMatchObject({ status: "not_applicable", reason: 'needs fixture "table"' });
    expect(out.vitest).toEqual({ kind: "skip", note: 'not_applicable: needs fixture "table"' });
  });

  it("returns a present fixture", async () => {
    const h = harness({ fixtures: { moduleAccount: "0x1", moduleName: "coin" } });
    const out = await runCheck(h, must(), (t) => {
      t.expectEqual(t.needsFixture("moduleName"), "coin", "moduleName");
    });
    expect(out.own.status).toBe("passed");
  });

  it("skips a submitting check against a target that is not on loopback without --allow-submit", async () => {
    const out = await runCheck(harness({ target: "http://node.example/v1" }), must(), (t) => {
      t.requireSubmitAllowed();
      t.fail("must not get here");
    });
    expect(out.own.status).toBe("skipped");
    expect(out.own.reason).toMatch(/--allow-submit/);
    expect(out.vitest.kind).toBe("skip");
  });

  it("fails a check that asserts nothing", async () => {
    const out = await runCheck(harness(), should(), async (t) => {
      await t.request({ path: "/-/healthy" });
    });
    expect(out.own.status).toBe("failed");
    expect(out.own.failures[0]?.message).toMatch(/made no assertion/);
  });

  it("reports an exception in the check as a failure with the last request's curl line", async () => {
    const out = await runCheck(harness(), must(), async (t) => {
      const res = await t.request({ path: "/estimate_gas_price" });
      (res.json as { nope: { deeper: number } }).nope.deeper;
    });
    expect(out.own.status).toBe("failed");
    expect(out.own.failures[0]?.message).toMatch(/TypeError/);
    expect(out.own.failures[0]?.curl).toMatch(/estimate_gas_price/);
  });

  it("skips, never fails or passes, a check whose request gets no answer after its retries", async () => {
    const h = harness({ target: "http://127.0.0.1:1/v1" });
    const out = await runCheck(h, must(), async (t) => {
      await t.request({ path: "/estimate_gas_price" });
      t.expect(true, "never reached");
    });
    expect(out.own).toMatchObject({
      status: "skipped",
      reason: expect.stringMatching(/^no HTTP answer \(a connection fault, no evidence either way\): connection refused \(3 attempts\)$/),
    });
    expect(out.vitest.kind).toBe("skip");
    expect(out.meta.requests).toEqual([expect.objectContaining({ status: null, retries: 2 })]);
    expect(h.client.retryCount).toBe(2);
  });

  it("sends a reset request again and judges the answer, recording the retry", async () => {
    const out = await runCheck(harness(), must(), async (t) => {
      const res = await t.request({ path: "/reset-once/a", operation: "estimate_gas_price" });
      t.expectStatus(res, 200);
    });
    expect(out.own.status).toBe("passed");
    expect(out.meta.requests).toEqual([expect.objectContaining({ status: 200, retries: 1 })]);
    expect(seen.get("/v1/reset-once/a")).toBe(2);
  });

  it("does not send a submission again once it may have arrived, and skips the check", async () => {
    const before = seen.get("/v1/transactions") ?? 0;
    const out = await runCheck(harness(), must(), async (t) => {
      await t.request({ method: "POST", path: "/transactions", body: "reset", contentType: "application/json" });
      t.expect(true, "never reached");
    });
    expect(out.own).toMatchObject({ status: "skipped", reason: expect.stringMatching(/ECONNRESET/) });
    expect(seen.get("/v1/transactions")).toBe(before + 1);
    expect(out.meta.requests[0]?.retries).toBeUndefined();
  });

  it("sends a raw request again when the connection was reset before any byte came back", async () => {
    const out = await runCheck(harness(), must(), async (t) => {
      const raw = await t.requestRaw({ path: "/reset-once/raw", ending: "keep-open" });
      t.expectEqual(raw.response?.status, 200, "status");
    });
    expect(out.own.status).toBe("passed");
    expect(out.meta.requests).toEqual([expect.objectContaining({ status: 200, retries: 1 })]);
  });

  it("fails a check whose answer is bytes that are not HTTP: that is evidence", async () => {
    const garbage = await garbageServer(Buffer.from("\x1b[2Jnot http\r\n\r\n"));
    try {
      const out = await runCheck(harness({ target: `${garbage.origin}/v1` }), must(), async (t) => {
        await t.request({ path: "/estimate_gas_price" });
      });
      expect(out.own.status).toBe("failed");
      expect(out.own.failures[0]?.message).toMatch(/expected: an HTTP answer\n {2}actual: {3}no HTTP answer: not an HTTP answer/);
    } finally {
      await garbage.close();
    }
  });

  it("decodes BCS exactly, and fails trailing bytes", async () => {
    const Schema = bcs.struct("S", { a: bcs.u64() });
    bcsBody = Buffer.from(Schema.serialize({ a: 7 }).toBytes());
    const ok = await runCheck(harness(), must(), async (t) => {
      const v = t.decodeBcs(await t.request({ path: "/estimate_gas_price", accept: "bcs" }), Schema);
      t.expectEqual(v.a, "7", "a");
    });
    expect(ok.own.status).toBe("passed");
    bcsBody = Buffer.concat([bcsBody, Buffer.from([0xff])]);
    const bad = await runCheck(harness(), must(), async (t) => {
      t.decodeBcs(await t.request({ path: "/estimate_gas_price", accept: "bcs" }), Schema);
    });
    expect(bad.own.status).toBe("failed");
    expect(bad.own.failures[0]?.message).toMatch(/9 bytes, of which the value takes 8/);
    expect(bad.own.failures[0]?.message).toMatch(/body: {5}0x0700000000000000ff/);
  });

  it("sends JSON and BCS bodies with the profile's content types", async () => {
    const out = await runCheck(harness({ profile: WIRE_PROFILES.aptos }), must(), async (t) => {
      const a = await t.request({ method: "POST", path: "/transactions", bcs: new Uint8Array([1, 2, 3]) });
      t.expectEqual(a.request.headers["content-type"], "application/x.aptos.signed_transaction+bcs", "content type");
      t.expectError(a, 400, "invalid_input");
      t.expect(a.json.message === "got 3 bytes", "the body arrived", a);
      const b = await t.request({ method: "POST", path: "/transactions", json: { a: 1 } });
      t.expectEqual(b.request.headers["content-type"], "application/json", "content type");
    });
    expect(out.own.status).toBe("passed");
    expect(out.meta.results.filter((r) => r.requirement === OBSERVED.errorObject).map((r) => r.status)).toEqual(["passed", "passed"]);
  });

  it("speaks raw bytes and judges the answer by the observed contract", async () => {
    const out = await runCheck(harness(), must(), async (t) => {
      const raw = await t.requestRaw({
        method: "POST",
        path: "/transactions",
        headers: { "content-type": "application/json" },
        body: "{}",
        ending: "keep-open",
      });
      t.expect(raw.response !== undefined, "an answer", undefined, raw.end);
      t.expectError(raw.response!, 400, "invalid_input");
      t.expect(raw.replay.startsWith("bash -c"), "a bash replay line");
    });
    expect(out.own.status).toBe("passed");
    expect(out.meta.requests).toHaveLength(1);
    expect(out.meta.results.some((r) => r.requirement === OBSERVED.errorObject && r.status === "passed")).toBe(true);
  });
});

describe("content codings", () => {
  it("reads a coded answer, asked or not, and counts its coding", async () => {
    const out = await runCheck(harness(), must(), async (t) => {
      const res = await t.request({ path: "/coded/gzip" });
      t.expectError(res, 404, "resource_not_found");
      const raw = await t.requestRaw({ path: "/coded/gzip", ending: "keep-open" });
      t.expectError(raw.response!, 404, "resource_not_found");
    });
    expect(out.own.status).toBe("passed");
    // The raw request lists no coding: its gzip answer was unasked.
    expect(out.meta.contentCodings).toEqual([{ coding: "gzip", asked: 1, unasked: 1 }]);
  });

  it("skips a check whose answer is in a coding the suite cannot decode, by either path", async () => {
    for (const send of [
      (t: CheckContext) => t.request({ path: "/coded/zstd" }),
      (t: CheckContext) => t.requestRaw({ path: "/coded/zstd", ending: "keep-open" }),
    ]) {
      const out = await runCheck(harness(), must(), async (t) => {
        await send(t);
        t.expect(true, "never reached");
      });
      expect(out.own).toMatchObject({ status: "skipped", reason: expect.stringContaining('coded "zstd", which the suite cannot decode') });
      expect(out.meta.contentCodings).toEqual([{ coding: "zstd", asked: 0, unasked: 1 }]);
    }
  });

  it("fails a check whose answer decodes past the cap, by either path", async () => {
    for (const send of [
      (t: CheckContext) => t.request({ path: "/coded/bomb" }),
      (t: CheckContext) => t.requestRaw({ path: "/coded/bomb", ending: "keep-open" }),
    ]) {
      const out = await runCheck(harness(), must(), async (t) => {
        await send(t);
      });
      expect(out.own.status).toBe("failed");
      expect(out.own.failures[0]?.message).toContain("decoded body over 1000000 bytes");
    }
  });
});

describe("--header values (RunConfig.secretHeaders)", () => {
  const token = "s3cret-token-4711";
  const secretHeaders = { authorization: `Bearer ${token}` };

  it("are sent on HTTP and raw requests, and are *** in curl lines, replays and whatever the check recorded", async () => {
    const out = await runCheck(harness({ secretHeaders }), must(), async (t) => {
      const raw = await t.requestRaw({ path: "/echo-authorization", ending: "keep-open" });
      t.expectEqual(raw.response?.json?.message, `saw Bearer ${token}`, "what the raw request carried");
      t.expect(
        !raw.replay.includes("s3cret") && raw.replay.includes("authorization\\072\\040\\052\\052\\052"),
        "the replay with *** for the value",
        undefined,
        raw.replay,
      );
      const res = await t.request({ path: "/echo-authorization" });
      t.expectStatus(res, 200);
    });
    expect(out.own.status).toBe("failed");
    const failure = out.own.failures[0];
    expect(failure?.curl, failure?.message).toContain("-H 'authorization: ***'");
    expect(failure?.message).toContain("saw ***");
    expect(JSON.stringify(out)).not.toContain("s3cret");
  });
});

describe("runProperty", () => {
  const property = async (t: CheckContext, d: number) => {
    const res = await t.request({ path: "/-/healthy", query: { duration_secs: d } });
    t.expectStatus(res, 200);
  };

  it("reports seed, shrunk path, counterexample, its curl lines and a replay command", async () => {
    const h = harness({ seed: 42, replayArgs: "--target 'http://n/v1'" });
    const t = new CheckContext(h, catalog().get("4.6/gas-estimate-object"));
    const failure = await runProperty(t, fc.integer({ min: 0, max: 1000 }), property, { numRuns: 200, budgetMs: 20_000 });
    expect(failure).toBeDefined();
    const message = failure?.message ?? "";
    expect(message).toMatch(/seed: {5}42\n/);
    expect(message).toMatch(/path: {5}\d+(:\d+)*/);
    // Every d < 10 fails; shrinking moves the counterexample towards 0.
    const counterexample = Number(/counterexample: \[(\d+)\]/.exec(message)?.[1]);
    expect(counterexample).toBeLessThan(10);
    expect(message).toMatch(new RegExp(`503 ← curl .*duration_secs=${counterexample}'`));
    expect(message).toMatch(
      /replay: {3}npx ledger-conformance --target 'http:\/\/n\/v1' --only '4\.6\/gas-estimate-object' --seed=42 --path '[\d:]+'/,
    );
    expect(failure?.curl).toMatch(/duration_secs=/);
  });

  it("finds the same counterexample again with the same seed", async () => {
    const run = async () => {
      const t = new CheckContext(harness({ seed: 7 }), catalog().get("4.6/gas-estimate-object"));
      const f = await runProperty(t, fc.integer({ min: 0, max: 1000 }), property, { numRuns: 100, budgetMs: 20_000 });
      return /counterexample: (.*)/.exec(f?.message ?? "")?.[1];
    };
    expect(await run()).toBe(await run());
  });

  it("skips the property, with no counterexample, when a case's request gets no answer", async () => {
    const t = new CheckContext(harness(), catalog().get("4.6/gas-estimate-object"));
    const cases: number[] = [];
    const outcome = runProperty(
      t,
      fc.integer({ min: 0, max: 1000 }),
      async (ctx, d) => {
        cases.push(d);
        await ctx.request({ path: d % 3 === 0 ? "/reset-always" : "/-/healthy", query: { duration_secs: d + 10 }, operation: "healthy" });
      },
      { numRuns: 50 },
    );
    await expect(outcome).rejects.toMatchObject({ name: "CheckSkipped", reason: expect.stringMatching(/ECONNRESET/) });
    expect(cases.some((d) => d % 3 === 0)).toBe(true);
  });

  it("runs the cases concurrently up to the concurrency, on the values and with the requests of a run one by one", async () => {
    const casesOf = async (concurrency: number) => {
      const t = new CheckContext(harness({ seed: 11, concurrency }), catalog().get("4.6/gas-estimate-object"));
      const values: number[] = [];
      let running = 0;
      let most = 0;
      const failure = await runProperty(
        t,
        fc.integer({ min: 10, max: 1000 }),
        async (ctx, d) => {
          values.push(d);
          running += 1;
          most = Math.max(most, running);
          try {
            await property(ctx, d);
          } finally {
            running -= 1;
          }
        },
        { numRuns: 20, concurrency },
      );
      return { failure, values: [...values].sort((a, b) => a - b), requests: traceOf(t).requests.length, most };
    };
    const inOrder = await casesOf(1);
    const concurrent = await casesOf(4);
    expect(inOrder.most).toBe(1);
    expect(concurrent.most).toBeGreaterThan(1);
    expect(concurrent.most).toBeLessThanOrEqual(4);
    expect(concurrent.failure).toBeUndefined();
    expect(concurrent.values).toEqual(inOrder.values);
    expect(concurrent.requests).toBe(20);
  });

  it("finds a failure of the concurrent cases again one by one, shrunk as without concurrency", async () => {
    const failureWith = async (concurrency: number) => {
      const t = new CheckContext(harness({ seed: 42, concurrency }), catalog().get("4.6/gas-estimate-object"));
      return (await runProperty(t, fc.integer({ min: 0, max: 1000 }), property, { numRuns: 200, budgetMs: 20_000, concurrency }))?.message;
    };
    const concurrent = await failureWith(4);
    expect(concurrent).toMatch(/property failed after \d+ run\(s\) and \d+ shrink/);
    expect(concurrent).toBe(await failureWith(1));
  });

  it("holds when every run passes, and --depth multiplies the runs", async () => {
    const t = new CheckContext(harness({ depth: 2 }), catalog().get("4.6/gas-estimate-object"));
    const failure = await runProperty(t, fc.integer({ min: 10, max: 1000 }), property, { numRuns: 5 });
    expect(failure).toBeUndefined();
    expect(traceOf(t).requests).toHaveLength(10);
  });
});

describe("a run's ledger mark", () => {
  it("is shared by the run's workers, as memory; a run of one worker, or a harness outside a run, has its own", () => {
    const stateDir = mkdtempSync(join(tmpdir(), "tracker-"));
    shareLedgerTracker(stateDir);
    shareSequenceBook(stateDir);
    harness({ stateDir, workers: 2 }).tracker.observe({ ledgerVersion: 10n }, "curl a");
    expect(harness({ stateDir, workers: 2 }).tracker.mark()).toMatchObject({ ledgerVersion: 10n, curl: "curl a" });
    // Nothing is written to the state directory for it.
    expect(readdirSync(stateDir)).toEqual([]);
    expect(harness({ stateDir, workers: 1 }).tracker.mark()).toBeUndefined();
    expect(harness().tracker.mark()).toBeUndefined();
  });
});

describe("a run's book of sequence numbers", () => {
  it("is shared by the run's workers, as memory; a run of one worker, or a harness outside a run, has its own", () => {
    const stateDir = mkdtempSync(join(tmpdir(), "sequences-"));
    shareLedgerTracker(stateDir);
    shareSequenceBook(stateDir);
    const sender = new Uint8Array(32).fill(7);
    harness({ stateDir, workers: 2 }).sequences.markUsed(sender, 4n);
    expect(harness({ stateDir, workers: 2 }).sequences.next(sender)).toBe(5n);
    expect(harness({ stateDir, workers: 1 }).sequences.next(sender)).toBe(0n);
    expect(harness().sequences.next(sender)).toBe(0n);
  });
});
