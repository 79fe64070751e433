// How two answers to one request are compared, on answers built from parts.

import { describe, expect, it } from "vitest";
import { compareAnswers } from "../../src/harness/differential/compare-answers.ts";
import type { ComparedRequest } from "../../src/harness/differential/compared-requests.ts";
import { responseFromParts } from "../../src/harness/http-client.ts";
import { encodeBcs, GasEstimationBcs } from "../../src/codec/index.ts";

function answer(status: number, headers: Record<string, string>, body: string | Uint8Array) {
  return responseFromParts({
    request: { method: "GET", url: "http://n/v1/x", headers: {} },
    status,
    headers,
    body: typeof body === "string" ? new TextEncoder().encode(body) : body,
    durationMs: 0,
    curl: "curl x",
  });
}

const json = { "content-type": "application/json", "x-node-chain-id": "4" };
const request = (comparison: ComparedRequest["comparison"], accept: ComparedRequest["accept"] = "application/json"): ComparedRequest => ({
  name: "r",
  operation: "estimate_gas_price",
  method: "GET",
  path: "/x",
  accept,
  comparison,
});

describe("compareAnswers", () => {
  it("compares status, then chain id, then media type, then the body as the request says", () => {
    expect(
      compareAnswers(
        request("exact"),
        answer(200, json, "{}"),
        answer(404, json, '{"message":"m","error_code":"version_not_found"}'),
        "X-NODE-",
      ),
    ).toEqual({ kind: "status", detail: "200 vs 404 (version_not_found)" });
    expect(
      compareAnswers(request("status"), answer(200, json, "{}"), answer(200, { ...json, "x-node-chain-id": "5" }, "{}"), "X-NODE-"),
    ).toMatchObject({ kind: "header", at: "X-NODE-CHAIN-ID" });
    // A header one node leaves out is the suite's finding, not a difference between the two.
    expect(
      compareAnswers(request("status"), answer(200, json, "{}"), answer(200, { "content-type": "application/json" }, "{}"), "X-NODE-"),
    ).toBeUndefined();
    expect(compareAnswers(request("exact"), answer(200, json, '{"a":1}'), answer(200, json, '{"a":2}'), "X-NODE-")).toEqual({
      kind: "body",
      at: "$.a",
      detail: "1 vs 2",
    });
    expect(compareAnswers(request("shape"), answer(200, json, '{"a":1}'), answer(200, json, '{"a":2}'), "X-NODE-")).toBeUndefined();
  });

  it("does not count a member one node adds as a difference of shape (objects are open), but still a type that differs", () => {
    const plain = answer(200, json, '{"gas_estimate":100,"nested":[{"a":1}]}');
    const extra = answer(200, json, '{"gas_estimate":100,"x_future":true,"nested":[{"a":1,"x_future":true}]}');
    expect(compareAnswers(request("shape"), plain, extra, "X-NODE-")).toBeUndefined();
    expect(compareAnswers(request("shape"), extra, plain, "X-NODE-")).toBeUndefined();
    expect(
      compareAnswers(request("shape"), plain, answer(200, json, '{"gas_estimate":"100","x_future":true,"nested":[]}'), "X-NODE-"),
    ).toMatchObject({ kind: "body", at: "$.gas_estimate" });
  });

  it("compares errors by status and error_code, not by their message", () => {
    const e = (code: string, message: string) => answer(404, json, JSON.stringify({ message, error_code: code, vm_error_code: null }));
    expect(
      compareAnswers(request("exact"), e("module_not_found", "one wording"), e("module_not_found", "another"), "X-NODE-"),
    ).toBeUndefined();
    expect(compareAnswers(request("exact"), e("module_not_found", "m"), e("resource_not_found", "m"), "X-NODE-")).toMatchObject({
      kind: "body",
      at: "$.error_code",
    });
  });

  it("compares BCS byte for byte and names the decoded member that differs", () => {
    const bcs = { "content-type": "application/x-bcs", "x-node-chain-id": "4" };
    const gas = (low: number) =>
      encodeBcs(GasEstimationBcs, { deprioritized_gas_estimate: BigInt(low), gas_estimate: 100n, prioritized_gas_estimate: 150n });
    expect(
      compareAnswers(request("exact", "application/x-bcs"), answer(200, bcs, gas(100)), answer(200, bcs, gas(100)), "X-NODE-"),
    ).toBeUndefined();
    expect(compareAnswers(request("exact", "application/x-bcs"), answer(200, bcs, gas(100)), answer(200, bcs, gas(99)), "X-NODE-")).toEqual(
      { kind: "body", at: "$.deprioritized_gas_estimate", detail: '"100" vs "99" (BCS, decoded)' },
    );
    expect(
      compareAnswers(
        request("shape", "application/x-bcs"),
        answer(200, bcs, gas(100)),
        answer(200, bcs, new Uint8Array([1, 2])),
        "X-NODE-",
      ),
    ).toMatchObject({ kind: "body" });
  });
});
