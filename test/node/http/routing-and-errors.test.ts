// What every route shares (the family's convention, §2.6, §2.7): unknown paths and methods are 404
// web_framework_error (the spec's status sets have no 405), every error is a JSON error object with the
// ledger-state headers and no cursor, and health lag is 503 health_check_failed.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNode, type RunningNode } from "../../../src/node/index.ts";
import { ManualClock } from "../../../src/node/ledger/index.ts";
import { call, expectError, expectOk, header, ledgerHeaders } from "./helpers.ts";

describe("routing", () => {
  let node: RunningNode;
  beforeAll(async () => {
    node = await startNode({ clock: new ManualClock() });
  });
  afterAll(() => node.close());

  it.each([["/nope"], ["/accounts/0x1/resources"], ["/accounts/0x1/module/"], ["/tables/0x1"], ["/v1/v1"]])(
    "answers the unknown path %s with 404 web_framework_error",
    async (path) => {
      expectError(await call(node.url, path), 404, "web_framework_error");
    },
  );

  it("answers outside /v1 with 404 web_framework_error", async () => {
    expectError(await call(node.url.replace(/\/v1$/, ""), "/"), 404, "web_framework_error");
  });

  it.each([
    ["DELETE", "/estimate_gas_price"],
    ["PUT", "/accounts/0x1/modules"],
    ["POST", "/-/healthy"],
    ["GET", "/transactions"],
    ["GET", "/tables/0x1/item"],
    ["PATCH", "/spec"],
    ["OPTIONS", "/accounts/0x1/module/coin"],
  ])("answers %s on %s (a known path) with 404 web_framework_error, not 405", async (method, path) => {
    expectError(await call(node.url, path, { method }), 404, "web_framework_error");
  });

  it("answers a path that does not decode with 400 web_framework_error", async () => {
    expectError(await call(node.url, "/accounts/%zz/modules"), 400, "web_framework_error");
  });

  it("answers an over-long path value with 400, not 414", async () => {
    expectError(await call(node.url, `/accounts/0x${"1".repeat(5000)}/modules`), 400, "web_framework_error");
  });

  it("reports the same ledger in every header of a response", async () => {
    (node.clock as ManualClock).advance(5_000);
    const reply = await call(node.url, "");
    expectOk(reply);
    const headers = ledgerHeaders(reply);
    const body = reply.json() as { ledger_version: string; block_height: string };
    expect(body.ledger_version).toBe(headers["LEDGER-VERSION"].toString());
    expect(body.block_height).toBe(headers["BLOCK-HEIGHT"].toString());
    expect(headers["LEDGER-OLDEST-VERSION"]).toBeLessThanOrEqual(headers["LEDGER-VERSION"]);
    expect(headers["OLDEST-BLOCK-HEIGHT"]).toBeLessThanOrEqual(headers["BLOCK-HEIGHT"]);
  });

  it("puts a cursor only on a modules page that has a next one, never on an error", async () => {
    const page = await call(node.url, `/accounts/${node.fixtures.moduleAccount}/modules?limit=1`);
    expectOk(page);
    expect(header(page, "X-NODE-CURSOR")).toBeDefined();
    expectError(await call(node.url, `/accounts/${node.fixtures.moduleAccount}/modules?limit=1&ledger_version=0`), 410, "version_pruned");
    expect(header(await call(node.url, "/estimate_gas_price"), "X-NODE-CURSOR")).toBeUndefined();
  });
});

describe("GET /v1/-/healthy with duration_secs (§4.7)", () => {
  it("is 200 within the threshold and 503 health_check_failed beyond it", async () => {
    // No automatic ticks and a long block interval: the chain stands still while the clock moves on.
    const clock = new ManualClock();
    const node = await startNode({ clock, blockIntervalMs: 3_600_000, engine: { autoTick: false } });
    try {
      expectOk(await call(node.url, "/-/healthy?duration_secs=5"));
      clock.advance(60_000);
      expectOk(await call(node.url, "/-/healthy?duration_secs=120"));
      expectOk(await call(node.url, "/-/healthy"));
      expectError(await call(node.url, "/-/healthy?duration_secs=5"), 503, "health_check_failed");
    } finally {
      await node.close();
    }
  });
});
