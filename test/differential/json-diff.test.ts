// The two structural comparisons behind the differential mode and the diff of recorded runs.

import { describe, expect, it } from "vitest";
import { firstJsonDifference, firstShapeDifference, mergeShapes, shapeOf } from "../../src/harness/differential/json-diff.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diffRuns, readRecordedRun, requestKey, UnreadableRun, type RecordedRun } from "../../src/harness/recording-diff.ts";
import { recordedBody, redactHeaders, type RecordedExchange } from "../../src/harness/recording.ts";

describe("firstJsonDifference", () => {
  it("finds the first differing member with its path, and nothing in equal values", () => {
    expect(firstJsonDifference({ a: [1, { b: "x" }] }, { a: [1, { b: "x" }] })).toBeUndefined();
    expect(firstJsonDifference({ a: [1, { b: "x" }] }, { a: [1, { b: "y" }] })).toEqual({ path: "$.a[1].b", a: '"x"', b: '"y"' });
    expect(firstJsonDifference({ a: 1 }, { a: 1, "odd key": 2 })).toEqual({ path: '$["odd key"]', a: "(absent)", b: "2" });
    expect(firstJsonDifference([1, 2], [1, 2, 3])).toEqual({ path: "$.length", a: "2", b: "3" });
    expect(firstJsonDifference({ v: "1" }, { v: 1 })).toEqual({ path: "$.v", a: '"1"', b: "1" });
  });
});

describe("shapes", () => {
  it("keep member sets and types, not values; an empty list fits any list", () => {
    expect(firstShapeDifference(shapeOf({ version: "10", xs: [{ a: 1 }] }), shapeOf({ version: "99", xs: [] }))).toBeUndefined();
    expect(firstShapeDifference(shapeOf({ gas: 100 }), shapeOf({ gas: "100" }))).toEqual({ path: "$.gas", a: "number", b: "string" });
    expect(firstShapeDifference(shapeOf([{ a: 1 }]), shapeOf([{ a: 1, b: 2 }]))).toEqual({ path: "$[*].b", a: "(absent)", b: "number" });
    // Compared on the members both have, a member one side adds is no difference; their types still are.
    expect(firstShapeDifference(shapeOf([{ a: 1 }]), shapeOf([{ a: 1, b: 2 }]), "$", { members: "shared" })).toBeUndefined();
    expect(firstShapeDifference(shapeOf([{ a: 1 }]), shapeOf([{ a: "1", b: 2 }]), "$", { members: "shared" })).toEqual({
      path: "$[*].a",
      a: "number",
      b: "string",
    });
  });

  it("do not count what some values happen to hold as a change: an optional member, a null", () => {
    // Summaries whose replay protectors are all sequence numbers in one run, some nonces in the other.
    const seqOnly = shapeOf([{ replay_protector: { sequence_number: "1" } }]);
    const mixed = shapeOf([{ replay_protector: { sequence_number: "1" } }, { replay_protector: { nonce: "7" } }]);
    expect(firstShapeDifference(seqOnly, mixed)).toBeUndefined();
    expect(firstShapeDifference(shapeOf({ vm_error_code: null }), shapeOf({ vm_error_code: 3 }))).toBeUndefined();
    // A member every answer had and none has now is a change; so is a new type beside the old one.
    expect(
      firstShapeDifference(
        shapeOf([
          { a: 1, b: 2 },
          { a: 3, b: 4 },
        ]),
        shapeOf([{ a: 1 }]),
      ),
    ).toEqual({ path: "$[*].b", a: "number", b: "(absent)" });
    expect(firstShapeDifference(shapeOf([1, 2]), shapeOf([1, "2"]))).toEqual({ path: "$[*]", a: "number", b: "number | string" });
  });

  it("merge the elements of a list into one shape, differing types as a union", () => {
    expect(shapeOf([{ a: 1 }, { b: "x" }])).toEqual({
      type: "array",
      items: { type: "object", members: { a: { type: "number" }, b: { type: "string" } }, optional: ["a", "b"] },
    });
    expect(mergeShapes({ type: "string" }, { type: "string" })).toEqual({ type: "string" });
    expect(shapeOf([1, "x", 2])).toEqual({ type: "array", items: { type: "mixed", of: [{ type: "number" }, { type: "string" }] } });
  });
});

function exchange(path: string, status: number, json: unknown, requirement = "4.6/gas-estimate-object"): RecordedExchange {
  const body = new TextEncoder().encode(JSON.stringify(json));
  return {
    at: "2026-01-01T00:00:00.000Z",
    requirement,
    observed: {},
    request: { method: "GET", path, headers: { accept: "application/json" } },
    response: { status, headers: {}, contentType: "application/json", body: recordedBody(body), shape: shapeOf(json) },
    curl: `curl ${path}`,
    durationMs: 1,
  };
}

function run(
  dir: string,
  statuses: Record<string, string>,
  exchanges?: RecordedExchange[],
): RecordedRun & { exchanges?: RecordedExchange[] } {
  return {
    dir,
    target: "t",
    startedAt: "s",
    requirements: new Map(Object.entries(statuses).map(([id, status]) => [id, { level: "MUST", status }])),
    ...(exchanges === undefined ? {} : { exchanges }),
  };
}

describe("diffRuns", () => {
  it("names verdict changes (passed → failed is a regression) and answers whose status or shape changed, not values", () => {
    const a = run("A", { "x/one": "passed", "x/two": "failed", "x/three": "passed" }, [
      exchange("/estimate_gas_price", 200, { gas: 1 }),
      exchange("/-/healthy", 200, { message: "ok" }),
      exchange("/accounts/0x1/modules?ledger_version=5", 200, [{ v: "5" }]),
      exchange("/only/a", 200, {}),
    ]);
    const b = run("B", { "x/one": "failed", "x/two": "passed", "x/four": "passed" }, [
      exchange("/estimate_gas_price", 200, { gas: "1" }),
      exchange("/-/healthy", 503, { message: "lagging", error_code: "health_check_failed" }),
      exchange("/accounts/0x1/modules?ledger_version=5", 200, [{ v: "6" }]),
      exchange("/accounts/0x1/modules?ledger_version=9", 200, [{ v: "9" }]),
    ]);
    a.exchanges?.push(exchange("/accounts/0x1/modules?ledger_version=9", 404, { message: "m", error_code: "version_not_found" }));
    const diff = diffRuns(a, b);
    expect(diff.requirements).toEqual([
      { id: "x/four", level: "MUST", from: "absent", to: "passed", regression: false },
      { id: "x/one", level: "MUST", from: "passed", to: "failed", regression: true },
      { id: "x/three", level: "MUST", from: "passed", to: "absent", regression: false },
      { id: "x/two", level: "MUST", from: "failed", to: "passed", regression: false },
    ]);
    expect(diff.regressions).toBe(1);
    // The version 9 request changed status only because the ledger moved: not listed.
    expect(diff.exchanges).toMatchObject({ matched: 4, onlyInA: 1, onlyInB: 0 });
    const changed = "changed" in diff.exchanges ? diff.exchanges.changed : [];
    expect(changed.map((c) => [c.key.split(" ")[1], c.change, c.at, c.a, c.b])).toEqual([
      ["/estimate_gas_price", "shape", "$.gas", "number", "string"],
      ["/-/healthy", "status", undefined, "200", "503"],
    ]);
  });

  it("says so when a run was not recorded", () => {
    const diff = diffRuns(run("A", {}), run("B", {}, []));
    expect(diff.exchanges).toEqual({ notCompared: "not recorded (run with --record): A" });
  });

  it("keys requests by method, path, Accept, Content-Type and body; a recording redacts credentials", () => {
    const x = exchange("/p", 200, {});
    expect(requestKey(x)).toBe("GET /p accept=application/json content-type=-");
    expect(redactHeaders({ authorization: "Bearer s", "x-api-key": "k", accept: "a" })).toEqual({
      authorization: "***",
      "x-api-key": "***",
      accept: "a",
    });
    const big = recordedBody(new Uint8Array(70 * 1024).fill(0xff));
    expect(big).toMatchObject({ bytes: 70 * 1024, encoding: "base64", truncated: true });
  });

  it("reads a run's ids as the ids that hold them now, so a renamed requirement is compared with itself", () => {
    const dir = mkdtempSync(join(tmpdir(), "run-"));
    try {
      writeFileSync(
        join(dir, "summary.json"),
        JSON.stringify({
          target: "t",
          startedAt: "s",
          requirements: [
            { id: "old/a", level: "MUST", status: "passed" },
            { id: "old/b", level: "MUST", status: "failed" },
          ],
        }),
      );
      const runA = readRecordedRun(
        dir,
        new Map([
          ["old/a", ["new/ab"]],
          ["old/b", ["new/ab"]],
        ]),
      );
      expect([...runA.requirements]).toEqual([["new/ab", { level: "MUST", status: "failed" }]]);
      expect(runA.exchanges).toBeUndefined();
      writeFileSync(join(dir, "exchanges.jsonl"), "{not json\n");
      expect(() => readRecordedRun(dir)).toThrow(UnreadableRun);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
