// Aggregation of results into one status per requirement (every combination of statuses), the
// baseline of expected failures, the exit status, and the exact shape of summary.json.

import { describe, expect, it } from "vitest";
import type { Evidence, RunOutcome } from "../../src/outcome/run-outcome.ts";
import { aggregateRequirements, notStartedOutcome } from "../../src/outcome/aggregate.ts";
import { BaselineError, parseBaseline } from "../../src/outcome/baseline-list.ts";
import { applyBaseline } from "../../src/outcome/apply-baseline.ts";
import { exitCode } from "../../src/outcome/exit-code.ts";
import { verdictOf } from "../../src/outcome/verdict.ts";
import { buildSummary } from "../../reporters/summary.ts";
import { parseRequirements } from "../../src/harness/requirements.ts";
import { aggregateStatus, type CheckResult, type ResultStatus } from "../../src/harness/results.ts";

const STATUSES: ResultStatus[] = ["passed", "failed", "warned", "skipped", "not_applicable"];

function results(...statuses: ResultStatus[]): CheckResult[] {
  return statuses.map((status) => ({
    requirement: "x/y",
    status,
    failures: [],
    ...(status === "skipped" || status === "not_applicable" ? { reason: `why ${status}` } : {}),
  }));
}

describe("aggregateStatus", () => {
  it("follows the stated rule for every combination of statuses", () => {
    // Every non-empty subset of the five statuses, each present once or twice.
    for (let mask = 1; mask < 1 << STATUSES.length; mask++) {
      const present = STATUSES.filter((_, i) => mask & (1 << i));
      for (const repeat of [1, 2]) {
        const list = results(...present.flatMap((s) => Array<ResultStatus>(repeat).fill(s)));
        const { status } = aggregateStatus(list);
        const has = (s: ResultStatus) => present.includes(s);
        const label = present.join("+");
        if (has("failed")) expect(status, label).toBe("failed");
        else if (has("warned")) expect(status, label).toBe("warned");
        else if (has("passed")) expect(status, label).toBe("passed");
        else if (has("skipped")) expect(status, label).toBe("skipped");
        else expect(status, label).toBe("not_applicable");
        // Never passed unless something passed, never better than the worst outcome.
        if (status === "passed") expect(has("passed") && !has("failed") && !has("warned"), label).toBe(true);
      }
    }
  });

  it("names the cases of the issue", () => {
    expect(aggregateStatus(results("passed", "not_applicable")).status).toBe("passed");
    expect(aggregateStatus(results("not_applicable", "not_applicable"))).toEqual({
      status: "not_applicable",
      reason: "why not_applicable",
    });
    expect(aggregateStatus(results("skipped"))).toEqual({ status: "skipped", reason: "why skipped" });
    expect(aggregateStatus(results("warned", "passed")).status).toBe("warned");
    expect(aggregateStatus(results("failed", "warned", "passed")).status).toBe("failed");
  });

  it("reports a requirement with no results as skipped, untested, never passed", () => {
    expect(aggregateStatus([])).toEqual({ status: "skipped", reason: "untested" });
  });
});

/** The conforming verdicts (a gate that passes on a full run); what summary.json's `conforming` says. */
const isConforming = (o: RunOutcome) => ["conforming", "conforming-with-baseline"].includes(verdictOf(o).kind);

const catalog = parseRequirements(
  JSON.stringify([
    { id: "1/must-a", level: "MUST", section: "1", endpoint: "*", text: "A." },
    { id: "1/must-b", level: "MUST", section: "1", endpoint: "*", text: "B." },
    { id: "1/should-c", level: "SHOULD", section: "1", endpoint: "op", text: "C." },
    { id: "1/untested", level: "MUST", section: "1", endpoint: "op", text: "D." },
  ]),
  ["op"],
);

function ev(requirement: string, status: ResultStatus, message?: string): Evidence {
  return {
    test: `${requirement}: t`,
    file: "suites/x.test.ts",
    result: { requirement, status, failures: message ? [{ message, curl: "curl 'http://h/'" }] : [] },
  };
}

describe("aggregateRequirements", () => {
  const outcome = aggregateRequirements(
    catalog,
    [ev("1/must-a", "passed"), ev("1/must-b", "failed", "boom"), ev("1/must-b", "passed"), ev("1/should-c", "warned", "meh")],
    [],
    7,
  );

  it("gives every catalog entry a status, with counts and failures", () => {
    const by = Object.fromEntries(outcome.requirements.map((r) => [r.requirement.id, r]));
    expect(by["1/must-a"]?.status).toBe("passed");
    expect(by["1/must-b"]?.status).toBe("failed");
    expect(by["1/must-b"]?.checks).toBe(2);
    expect(by["1/must-b"]?.failures.map((f) => f.message)).toEqual(["boom"]);
    expect(by["1/should-c"]?.status).toBe("warned");
    expect(by["1/untested"]).toMatchObject({ status: "skipped", reason: "untested", checks: 0 });
    expect(isConforming(outcome)).toBe(false);
    expect(exitCode(outcome)).toBe(1);
  });

  it("is conforming and exits 0 when only a SHOULD warns", () => {
    const ok = aggregateRequirements(
      catalog,
      [ev("1/must-a", "passed"), ev("1/must-b", "passed"), ev("1/untested", "passed"), ev("1/should-c", "warned", "meh")],
      [],
      1,
    );
    expect(isConforming(ok)).toBe(true);
    expect(verdictOf(ok).headline).toBe("CONFORMING: every MUST requirement holds; 1 SHOULD requirement warned");
    expect(exitCode(ok)).toBe(0);
  });

  it("fails the run on run errors (a file that did not load)", () => {
    const broken = aggregateRequirements(catalog, [ev("1/must-a", "passed")], [{ file: "suites/x.test.ts", message: "SyntaxError" }], 1);
    expect(exitCode(broken)).toBe(1);
  });

  it("is neither conforming nor exit 0 when the run was stopped before its end, and exits 2 when it never started", () => {
    const stopped = {
      ...aggregateRequirements(catalog, [ev("1/must-a", "passed")], [], 1, "not run: max duration reached"),
      interruption: { kind: "stopped" as const, reason: "max duration reached" },
    };
    expect(isConforming(stopped)).toBe(false);
    expect(exitCode(stopped)).toBe(1);
    expect(stopped.requirements.find((r) => r.requirement.id === "1/must-b")).toMatchObject({
      status: "skipped",
      reason: "not run: max duration reached",
    });
    expect(verdictOf(stopped).headline).toMatch(/^NOT CONFORMING: the run stopped before its end \(max duration reached\)/);
    const never = notStartedOutcome(catalog, "the target requires authentication", 2);
    expect(exitCode(never)).toBe(2);
    expect(isConforming(never)).toBe(false);
    expect(never.requirements.every((r) => r.status === "skipped" && r.reason === "not run: the target requires authentication")).toBe(
      true,
    );
    expect(verdictOf(never).headline).toBe("NOT CONFORMING: nothing could be tested: the target requires authentication");
    expect(
      buildSummary(never, { verdict: verdictOf(never), target: "http://h/v1", startedAt: new Date(0), durationMs: 1 }).interruption,
    ).toEqual({
      kind: "not_started",
      reason: "the target requires authentication",
    });
  });

  it("flags results recorded under an id that is not in the catalog", () => {
    const odd = aggregateRequirements(catalog, [ev("9/ghost", "passed")], [], 1);
    expect(odd.errors.map((e) => e.message).join()).toMatch(/9\/ghost/);
  });
});

describe("baseline", () => {
  const outcome = aggregateRequirements(catalog, [ev("1/must-a", "passed"), ev("1/must-b", "failed", "boom")], [], 3);

  it("parses JSON arrays, {expectedFailures}, and text lines with comments", () => {
    expect(parseBaseline('["1/must-b"]')).toEqual(["1/must-b"]);
    expect(parseBaseline('{"expectedFailures": ["1/must-b"]}')).toEqual(["1/must-b"]);
    expect(parseBaseline("# known\n1/must-b  # tracked in #12\n\n")).toEqual(["1/must-b"]);
    expect(() => parseBaseline('{"x": 1}')).toThrow(BaselineError);
  });

  it("turns an expected failure into a pass of the gate, keeping it failed in the report", () => {
    const b = applyBaseline(outcome, ["1/must-b"], "baseline.txt");
    const r = b.requirements.find((x) => x.requirement.id === "1/must-b");
    expect(r).toMatchObject({ status: "failed", expectedFailure: true });
    expect(exitCode(b)).toBe(0);
    // 1/untested was not run: the gate passes, but on part of the catalog.
    expect(verdictOf(b)).toMatchObject({ kind: "partial", counts: { requirements: 4, run: 2, expectedFailures: 1, mustFailed: 0 } });
  });

  it("fails a listed id that passes, as unexpectedly passing", () => {
    // Every requirement run: a rule judged on every response (1/must-a) then saw every response.
    const complete = aggregateRequirements(
      catalog,
      [ev("1/must-a", "passed"), ev("1/must-b", "failed", "boom"), ev("1/should-c", "passed"), ev("1/untested", "passed")],
      [],
      4,
    );
    const b = applyBaseline(complete, ["1/must-a", "1/must-b"], "baseline.txt");
    const r = b.requirements.find((x) => x.requirement.id === "1/must-a");
    expect(r?.status).toBe("failed");
    expect(r?.failures[0]?.message).toMatch(/unexpectedly passing/);
    expect(exitCode(b)).toBe(1);
  });

  it("marks a listed SHOULD that warned as expected, and fails one that passes", () => {
    const warned = aggregateRequirements(catalog, [ev("1/must-a", "passed"), ev("1/should-c", "warned", "meh")], [], 2);
    const b = applyBaseline(warned, ["1/should-c"], "baseline.txt");
    expect(b.requirements.find((x) => x.requirement.id === "1/should-c")).toMatchObject({ status: "warned", expectedFailure: true });
    expect(exitCode(b)).toBe(0);
    const passed = aggregateRequirements(catalog, [ev("1/must-a", "passed"), ev("1/should-c", "passed")], [], 2);
    const stale = applyBaseline(passed, ["1/should-c"], "baseline.txt");
    expect(stale.requirements.find((x) => x.requirement.id === "1/should-c")).toMatchObject({ status: "failed", unexpectedPass: true });
    expect(exitCode(stale)).toBe(1);
  });

  it("reports a listed id whose checks did not all run as not run, never as unexpectedly passing", () => {
    const skippedCheck: Evidence = {
      test: "1/must-a: t2",
      file: "suites/x.test.ts",
      result: { requirement: "1/must-a", status: "skipped", failures: [], reason: "the target gave no HTTP answer" },
    };
    const partly = aggregateRequirements(
      catalog,
      [ev("1/must-a", "passed"), skippedCheck, ev("1/must-b", "passed"), ev("1/should-c", "passed")],
      [],
      3,
    );
    expect(partly.requirements.find((x) => x.requirement.id === "1/must-a")?.status).toBe("passed");
    const b = applyBaseline(partly, ["1/must-a"], "known.txt");
    const r = b.requirements.find((x) => x.requirement.id === "1/must-a");
    expect(r).toMatchObject({ status: "skipped" });
    expect(r?.unexpectedPass).toBeUndefined();
    expect(r?.reason).toMatch(/^not run: 1 of its 2 checks did not run \(the target gave no HTTP answer\); known\.txt lists it/);
    expect(exitCode(b)).toBe(0);
    const v = verdictOf(b);
    expect(v.kind).toBe("partial");
    expect(v.headline).toMatch(/not run, so neither known to fail nor to hold: 1\/must-a, which known\.txt lists$/);
    expect(v.headline).not.toMatch(/CONFORMING WITH/);
  });

  it("reports a listed rule judged on every response as not run when some check of the run did not run", () => {
    // 1/must-a is judged on every response (endpoint "*"); 1/untested had no check run at all.
    const partly = aggregateRequirements(
      catalog,
      [ev("1/must-a", "passed"), ev("1/must-b", "passed"), ev("1/should-c", "passed")],
      [],
      3,
      "not selected by --only x",
    );
    const b = applyBaseline(partly, ["1/must-a"], "known.txt");
    const r = b.requirements.find((x) => x.requirement.id === "1/must-a");
    expect(r).toMatchObject({ status: "skipped" });
    expect(r?.reason).toMatch(/^not run: 1 requirements had no check run: a rule judged on every response has not seen/);
    expect(exitCode(b)).toBe(0);
    // A listed requirement of one endpoint is judged by its own checks: all of 1/should-c's ran.
    const own = applyBaseline(partly, ["1/should-c"], "known.txt");
    expect(own.requirements.find((x) => x.requirement.id === "1/should-c")).toMatchObject({ status: "failed", unexpectedPass: true });
  });

  it("expects an entry naming a split id to fail as a group: a part that passes is no unexpected pass", () => {
    const complete = aggregateRequirements(
      catalog,
      [ev("1/must-a", "passed"), ev("1/must-b", "failed", "boom"), ev("1/should-c", "passed"), ev("1/untested", "passed")],
      [],
      4,
    );
    const split = { listed: "1/old-ab", ids: ["1/must-a", "1/must-b"] } as const;
    const b = applyBaseline(complete, [split], "old.txt");
    expect(b.requirements.find((x) => x.requirement.id === "1/must-a")).toMatchObject({ status: "passed" });
    expect(b.requirements.find((x) => x.requirement.id === "1/must-b")).toMatchObject({ status: "failed", expectedFailure: true });
    expect(exitCode(b)).toBe(0);
    expect(b.baseline?.ids).toEqual(["1/must-a", "1/must-b"]);
    // Listed on its own as well, the passing part is stale all the same.
    const alone = applyBaseline(complete, [split, "1/must-a"], "old.txt");
    expect(alone.requirements.find((x) => x.requirement.id === "1/must-a")).toMatchObject({ status: "failed", unexpectedPass: true });
  });

  it("fails a split entry as unexpectedly passing only when every part passes", () => {
    const allPass = aggregateRequirements(
      catalog,
      [ev("1/must-a", "passed"), ev("1/must-b", "passed"), ev("1/should-c", "passed"), ev("1/untested", "passed")],
      [],
      4,
    );
    const b = applyBaseline(allPass, [{ listed: "1/old-ab", ids: ["1/must-a", "1/must-b"] }], "old.txt");
    for (const id of ["1/must-a", "1/must-b"]) {
      const r = b.requirements.find((x) => x.requirement.id === id);
      expect(r).toMatchObject({ status: "failed", unexpectedPass: true });
      expect(r?.failures[0]?.message).toMatch(/as part of 1\/old-ab: 1\/must-a, 1\/must-b, all of which passed/);
    }
    expect(exitCode(b)).toBe(1);
    // A part not run: the group cannot tell, so its passing parts are not run either.
    const partly = aggregateRequirements(catalog, [ev("1/must-a", "passed"), ev("1/should-c", "passed")], [], 2);
    const undecided = applyBaseline(partly, [{ listed: "1/old-c", ids: ["1/should-c", "1/untested"] }], "old.txt");
    expect(undecided.requirements.find((x) => x.requirement.id === "1/should-c")).toMatchObject({ status: "skipped" });
    expect(exitCode(undecided)).toBe(0);
  });

  it("still fails unlisted failures", () => {
    expect(exitCode(applyBaseline(outcome, [], "b"))).toBe(1);
  });

  it("rejects ids that are not in the catalog", () => {
    expect(() => applyBaseline(outcome, ["1/nope"], "b")).toThrow(/1\/nope/);
  });
});

describe("summary.json", () => {
  it("has exactly the documented members plus requests, retries and the spec coverage", () => {
    const outcome = aggregateRequirements(catalog, [ev("1/must-a", "passed"), ev("1/must-b", "failed", "boom")], [], 5, "untested", 3);
    const summary = buildSummary(outcome, { verdict: verdictOf(outcome), target: "http://h/v1", startedAt: new Date(0), durationMs: 12.4 });
    expect(Object.keys(summary).sort()).toEqual([
      "conforming",
      "counts",
      "coverage",
      "durationMs",
      "requests",
      "requirements",
      "retries",
      "startedAt",
      "target",
      "verdict",
      "verdictCounts",
      "verdictText",
    ]);
    expect(summary).toMatchObject({
      target: "http://h/v1",
      startedAt: "1970-01-01T00:00:00.000Z",
      durationMs: 12,
      conforming: false,
      requests: 5,
      retries: 3,
      verdict: "not-conforming",
    });
    expect(summary.verdictText).toBe("NOT CONFORMING: 1 MUST requirement failed");
    expect(summary.verdictCounts).toEqual({
      requirements: 4,
      run: 2,
      mustFailed: 1,
      expectedFailures: 0,
      unexpectedPasses: 0,
      warned: 0,
      errors: 0,
    });
    expect(summary.counts).toEqual({ passed: 1, failed: 1, skipped: 2, notApplicable: 0, warned: 0 });
    const b = summary.requirements.find((r) => r.id === "1/must-b");
    expect(b).toEqual({
      id: "1/must-b",
      level: "MUST",
      section: "1",
      endpoint: "*",
      status: "failed",
      checks: 1,
      failures: [{ message: "boom", curl: "curl 'http://h/'" }],
    });
    expect(summary.requirements.find((r) => r.id === "1/untested")?.reason).toBe("untested");
  });
});

describe("the verdict", () => {
  const all = (status: ResultStatus) =>
    catalog.requirements.map((r) =>
      ev(r.id, r.id === "1/should-c" && status === "failed" ? "warned" : status, status === "passed" ? undefined : "boom"),
    );

  it("is conforming when every requirement ran and every MUST holds", () => {
    const v = verdictOf(aggregateRequirements(catalog, all("passed"), [], 4));
    expect(v).toMatchObject({ kind: "conforming", label: "CONFORMING", headline: "CONFORMING: every MUST requirement holds" });
    expect(v.counts).toEqual({ requirements: 4, run: 4, mustFailed: 0, expectedFailures: 0, unexpectedPasses: 0, warned: 0, errors: 0 });
  });

  it("is conforming with N expected failures when only baselined requirements fail, naming the baseline", () => {
    const evidence = all("passed").map((e) => (e.result.requirement === "1/must-b" ? ev("1/must-b", "failed", "boom") : e));
    const outcome = applyBaseline(aggregateRequirements(catalog, evidence, [], 4), ["1/must-b"], "known.txt");
    const v = verdictOf(outcome);
    expect(v.kind).toBe("conforming-with-baseline");
    expect(v.headline).toBe(
      "CONFORMING WITH 1 EXPECTED FAILURE: every MUST requirement holds except the 1 expected failure from the baseline known.txt",
    );
    expect(exitCode(outcome)).toBe(0);
    const summary = buildSummary(outcome, { verdict: verdictOf(outcome), target: "http://h/v1", startedAt: new Date(0), durationMs: 1 });
    expect(summary).toMatchObject({
      conforming: true,
      verdict: "conforming-with-baseline",
      baseline: "known.txt",
      verdictText: v.headline,
    });
  });

  it("is partial when some requirement did not run (--only), however well the rest did", () => {
    const v = verdictOf(aggregateRequirements(catalog, [ev("1/must-a", "passed")], [], 1, "not selected by --only x"));
    expect(v.kind).toBe("partial");
    expect(v.headline).toMatch(/^PARTIAL: 1 of 4 requirements run, all hold; the others were not run/);
    const unselected = aggregateRequirements(catalog, [ev("1/must-a", "passed")], [], 1);
    const summary = buildSummary(unselected, {
      verdict: verdictOf(unselected),
      target: "http://h/v1",
      startedAt: new Date(0),
      durationMs: 1,
    });
    expect(summary.conforming).toBe(false);
  });

  it("is not conforming when a baselined requirement now passes, and says which way", () => {
    const outcome = applyBaseline(aggregateRequirements(catalog, all("passed"), [], 4), ["1/must-a"], "known.txt");
    const v = verdictOf(outcome);
    expect(v.kind).toBe("not-conforming");
    expect(v.headline).toBe(
      "NOT CONFORMING: 1 requirement the baseline known.txt lists as expected failure now passes (remove it from the baseline)",
    );
    expect(v.counts.unexpectedPasses).toBe(1);
    expect(exitCode(outcome)).toBe(1);
  });

  it("follows the exit status: every run that does not exit 0 is not conforming", () => {
    const cases = [
      aggregateRequirements(catalog, all("failed"), [], 4),
      aggregateRequirements(catalog, all("passed"), [{ message: "boom" }], 4),
      {
        ...aggregateRequirements(catalog, all("passed"), [], 4),
        interruption: { kind: "stopped" as const, reason: "max duration reached" },
      },
      notStartedOutcome(catalog, "unreachable", 1),
    ];
    for (const o of cases) expect(exitCode(o) !== 0 && verdictOf(o).kind === "not-conforming").toBe(true);
  });
});
