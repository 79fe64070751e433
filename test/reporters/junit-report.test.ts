// junit.xml as the command writes it: one case per requirement (id and text, endpoint, file), a failure
// holding every failing check's message and curl, warned, baselined, skipped and n/a requirements
// skipped with their reason, a baselined requirement that passes a failure, the verdict in the
// properties; the per-check form under the same rules; and well-formed XML whatever the target sent.

import { describe, expect, it } from "vitest";
import type { Evidence } from "../../src/outcome/run-outcome.ts";
import { aggregateRequirements, notStartedOutcome } from "../../src/outcome/aggregate.ts";
import { applyBaseline } from "../../src/outcome/apply-baseline.ts";
import { verdictOf } from "../../src/outcome/verdict.ts";
import { renderJunit, renderJunitPerCheck } from "../../reporters/junit-report.ts";
import { parseRequirements } from "../../src/harness/requirements.ts";
import type { ResultStatus } from "../../src/harness/results.ts";
import { expectWellFormedXml } from "../support/xml-well-formed.ts";

const catalog = parseRequirements(
  JSON.stringify([
    { id: "4.6/x", level: "MUST", section: "4.6", endpoint: "estimate_gas_price", text: "Passes." },
    { id: "4.6/y", level: "MUST", section: "4.6", endpoint: "estimate_gas_price", text: "Fails <twice>." },
    { id: "4.7/z", level: "MUST", section: "4.7", endpoint: "healthy", text: "Not run." },
    { id: "4.7/w", level: "MUST", section: "4.7", endpoint: "healthy", text: "Needs a fixture." },
    { id: "4.7/v", level: "SHOULD", section: "4.7", endpoint: "healthy", text: "Warns." },
    { id: "2.7/h", level: "MUST", section: "2.7", endpoint: "*", text: "Headers." },
  ]),
  ["estimate_gas_price", "healthy"],
);

function ev(requirement: string, status: ResultStatus, file: string, message?: string, reason?: string): Evidence {
  return {
    test: `${requirement}: t`,
    file,
    result: {
      requirement,
      status,
      failures: message
        ? [{ message: `${message}\n  replay:   curl 'http://h/${requirement}'`, curl: `curl 'http://h/${requirement}'` }]
        : [],
      ...(reason ? { reason } : {}),
    },
  };
}

const evidence = [
  ev("4.6/x", "passed", "suites/gas.test.ts"),
  ev("4.6/y", "failed", "suites/gas.test.ts", "[4.6/y] expected: 200\n  body: \u001b[2J<b>"),
  ev("4.6/y", "failed", "suites/gas.test.ts", "[4.6/y] expected: 200, second check"),
  ev("4.7/z", "skipped", "suites/health.test.ts", undefined, "not run: max duration reached"),
  ev("4.7/w", "not_applicable", "suites/health.test.ts", undefined, 'needs fixture "table"'),
  ev("4.7/v", "warned", "suites/health.test.ts", "[4.7/v] should"),
  ev("2.7/h", "passed", "suites/gas.test.ts"),
];
const run = { name: "ledger-conformance", durationMs: 1234 };

describe("renderJunit: one case per requirement", () => {
  const outcome = aggregateRequirements(catalog, evidence, [], 9);
  const xml = renderJunit([{ outcome, verdict: verdictOf(outcome), target: "http://h/v1", durationMs: 1234 }], run);

  it("names each case by id and text, classname the endpoint, file the check's file", () => {
    expectWellFormedXml(xml);
    expect(xml).toMatch(/<testsuites name="ledger-conformance" tests="6" failures="1" errors="0" skipped="3" time="1\.234">/);
    expect(xml).toContain('<testcase classname="estimate_gas_price" name="4.6/x: Passes." file="suites/gas.test.ts"/>');
    expect(xml).toContain('<testcase classname="cross-cutting" name="2.7/h: Headers." file="suites/gas.test.ts"/>');
    expect(xml).toContain('<testcase classname="estimate_gas_price" name="4.6/y: Fails &lt;twice&gt;." file="suites/gas.test.ts">');
  });

  it("holds every failing check's message and curl in the failure, escaped", () => {
    const failure = /<failure message="([^"]*)" type="RequirementNotMet">([^<]*)<\/failure>/.exec(xml);
    expect(failure?.[1]).toBe("[4.6/y] expected: 200");
    expect(failure?.[2]).toContain("body: \\x1b[2J&lt;b&gt;");
    expect(failure?.[2]).toContain("second check");
    expect(failure?.[2]?.match(/replay: {3}curl &apos;http:\/\/h\/4\.6\/y&apos;/g)).toHaveLength(2);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });

  it("skips warned, skipped and n/a requirements with their reason, never passing them", () => {
    expect(xml).toContain('<skipped message="warned (SHOULD, does not fail the gate): [4.7/v] should"/>');
    expect(xml).toContain('<skipped message="skipped: not run: max duration reached"/>');
    expect(xml).toContain('<skipped message="not applicable: needs fixture &quot;table&quot;"/>');
    expect(xml.match(/<testcase [^>]*\/>/g)).toHaveLength(2);
  });

  it("carries the verdict in the properties of the node's testsuite", () => {
    expect(xml).toContain('<property name="verdict" value="not-conforming"/>');
    expect(xml).toContain('<property name="verdict.text" value="NOT CONFORMING: 1 MUST requirement failed"/>');
  });

  it("turns baselined failures into skipped cases with the baseline's name, and a baselined pass into a failure", () => {
    const baselined = applyBaseline(outcome, ["4.6/y", "4.6/x"], "known.txt");
    const b = renderJunit([{ outcome: baselined, verdict: verdictOf(baselined), target: "http://h/v1", durationMs: 1 }], run);
    expectWellFormedXml(b);
    expect(b).toContain('<skipped message="expected failure, baseline known.txt: [4.6/y] expected: 200"/>');
    expect(b).toMatch(
      /<testcase classname="estimate_gas_price" name="4\.6\/x: Passes\." file="suites\/gas\.test\.ts">\s*<failure message="\[4\.6\/x\] unexpectedly passing: known\.txt lists it/,
    );
    expect(b).toMatch(/<testsuites [^>]*failures="1"/);
    const cleaned = applyBaseline(outcome, ["4.6/y"], "known.txt");
    const clean = renderJunit([{ outcome: cleaned, verdict: verdictOf(cleaned), target: "http://h/v1", durationMs: 1 }], run);
    expect(clean).toMatch(/<testsuites [^>]*failures="0" errors="0"/);
    expect(clean).not.toContain("<failure");
  });

  it("says in one error case why nothing ran when the target could not be tested", () => {
    const notStarted = notStartedOutcome(catalog, "the target requires authentication", 2);
    const never = renderJunit([{ outcome: notStarted, verdict: verdictOf(notStarted), target: "http://h/v1", durationMs: 1 }], run);
    expectWellFormedXml(never);
    expect(never).toMatch(/<testsuites name="ledger-conformance" tests="1" failures="0" errors="1" skipped="0"/);
    expect(never).toContain('<error message="the target requires authentication">');
  });
});

describe("renderJunitPerCheck: one case per check (--junit-per-check)", () => {
  it("marks never-run, skipped, n/a and warned checks skipped with the reason, baselined failures expected, and failures with their message", () => {
    const outcome = applyBaseline(aggregateRequirements(catalog, evidence, [], 9), ["4.7/v"], "known.txt");
    const xml = renderJunitPerCheck(
      [
        { file: "suites/a.test.ts", name: "4.6/x: passes", requirement: "4.6/x", status: "passed", durationMs: 5 },
        {
          file: "suites/a.test.ts",
          name: "4.6/y: fails",
          requirement: "4.6/y",
          status: "failed",
          durationMs: 5,
          detail: "[4.6/y] expected: 200\n  body: \u001b[2J<b>",
        },
        {
          file: "suites/b.test.ts",
          name: "4.7/z: not run",
          requirement: "4.7/z",
          status: "skipped",
          durationMs: 0,
          detail: "not run: max duration reached",
        },
        {
          file: "suites/b.test.ts",
          name: "4.7/w: n/a",
          requirement: "4.7/w",
          status: "not_applicable",
          durationMs: 0,
          detail: 'needs fixture "table"',
        },
        { file: "suites/b.test.ts", name: "4.7/v: warns", requirement: "4.7/v", status: "warned", durationMs: 1, detail: "should" },
        {
          file: "(target probe)",
          name: "the target can be tested",
          status: "error",
          durationMs: 0,
          detail: "the target requires authentication",
        },
      ],
      { outcome, verdict: verdictOf(outcome), target: "http://h/v1", durationMs: 1234 },
      run,
    );
    expectWellFormedXml(xml);
    expect(xml).toMatch(/<testsuites name="ledger-conformance" tests="6" failures="1" errors="1" skipped="3" time="1\.234">/);
    expect(xml).toContain('<skipped message="skipped: not run: max duration reached"/>');
    expect(xml).toContain('<skipped message="not applicable: needs fixture &quot;table&quot;"/>');
    expect(xml).toContain('<skipped message="expected failure, baseline known.txt: should"/>');
    expect(xml).toContain('<failure message="[4.6/y] expected: 200" type="RequirementNotMet">');
    expect(xml).toContain('<testcase classname="suites/a.test.ts" name="4.6/x: passes" file="suites/a.test.ts" time="0.005"/>');
    expect(xml).toContain("body: \\x1b[2J&lt;b&gt;");
    expect(xml).toContain('<error message="the target requires authentication">');
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(xml.match(/<testcase [^>]*\/>/g)).toHaveLength(1);
  });
});

describe("the well-formedness check the tests above rely on", () => {
  it("finds what a broken document gets wrong", async () => {
    const { xmlProblems } = await import("../support/xml-well-formed.ts");
    expect(xmlProblems('<a x="1"><b/></a>')).toEqual([]);
    for (const bad of ["<a><b></a>", "<a>&</a>", "<a>x<y</a>", '<a x="<"/>', '<a x="1" x="2"/>', "<a/><b/>", "<a>\u0001</a>", "<a>"]) {
      expect(xmlProblems(bad), bad).not.toEqual([]);
    }
  });
});
