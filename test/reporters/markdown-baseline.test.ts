// The two small text reports: summary.md (and --format markdown), the verdict and the requirement table
// for a CI job summary, failed and warned first, every cell escaped; and --write-baseline's file, which
// --baseline reads back as exactly the MUST ids that failed.

import { describe, expect, it } from "vitest";
import type { Evidence } from "../../src/outcome/run-outcome.ts";
import { aggregateRequirements } from "../../src/outcome/aggregate.ts";
import { parseBaseline } from "../../src/outcome/baseline-list.ts";
import { applyBaseline } from "../../src/outcome/apply-baseline.ts";
import { verdictOf } from "../../src/outcome/verdict.ts";
import { failedMustIds, renderBaseline } from "../../reporters/baseline-file.ts";
import { cell, renderMarkdownSummary } from "../../reporters/markdown-summary.ts";
import { parseRequirements } from "../../src/harness/requirements.ts";
import type { ResultStatus } from "../../src/harness/results.ts";

const catalog = parseRequirements(
  JSON.stringify([
    { id: "4.6/ok", level: "MUST", section: "4.6", endpoint: "estimate_gas_price", text: "Passes." },
    { id: "4.6/bad", level: "MUST", section: "4.6", endpoint: "estimate_gas_price", text: "Fails." },
    { id: "4.7/soft", level: "SHOULD", section: "4.7", endpoint: "healthy", text: "Warns." },
    { id: "4.7/na", level: "MUST", section: "4.7", endpoint: "healthy", text: "Needs a fixture." },
  ]),
  ["estimate_gas_price", "healthy"],
);

function ev(requirement: string, status: ResultStatus, message?: string): Evidence {
  return {
    test: `${requirement}: t`,
    file: "suites/x.test.ts",
    result: {
      requirement,
      status,
      failures: message ? [{ message, curl: null }] : [],
      ...(status === "not_applicable" ? { reason: "needs fixture table" } : {}),
    },
  };
}

const hostile = "[4.6/bad] expected: 200, got |pipe| <img src=x> **bold** [link](http://evil) `code` \u001b[2J\r\n  body: x";
const outcome = aggregateRequirements(
  catalog,
  [ev("4.6/ok", "passed"), ev("4.6/bad", "failed", hostile), ev("4.7/soft", "warned", "[4.7/soft] meh"), ev("4.7/na", "not_applicable")],
  [],
  4,
);

describe("renderMarkdownSummary", () => {
  const md = renderMarkdownSummary({ outcome, verdict: verdictOf(outcome), target: "http://h/v1" });

  it("starts with the verdict in the words of the other reports, then the table, failed and warned first", () => {
    const v = verdictOf(outcome);
    expect(md).toContain(`**${v.label}**: ${cell(v.detail)}`);
    const rows = md.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| status"));
    expect(rows.map((r) => /\| (\d\.\d\/[a-z]+)/.exec(r)?.[1])).toEqual(["4.6/bad", "4.7/soft", "4.7/na", "4.6/ok"]);
    expect(rows[2]).toContain("needs fixture table");
  });

  it("keeps what the target sent from breaking the table or becoming markup", () => {
    const row = md.split("\n").find((l) => l.includes("4.6/bad")) ?? "";
    expect(row.split(/(?<!\\)\|/)).toHaveLength(8);
    expect(row).not.toMatch(/<img|\*\*bold|\]\(http|`code`|[\u0000-\u001F]/);
    expect(row).toContain("&lt;img src=x&gt;");
    expect(row).toContain("\\\\x1b");
    expect(cell("x".repeat(500)).length).toBeLessThan(210);
  });
});

describe("renderBaseline (--write-baseline)", () => {
  it("writes the failed MUST ids, each under its first message, in the form --baseline reads", () => {
    const text = renderBaseline(outcome, { target: "http://h/v1", startedAt: new Date(0) });
    expect(parseBaseline(text)).toEqual(["4.6/bad"]);
    expect(text).toContain("# [4.6/bad] expected: 200, got |pipe|");
    expect(text).toMatch(/\\x0d\n4\.6\/bad\n/);
    expect(text).not.toMatch(/[\u0000-\u0008\u000B-\u001F]/);
    // Applied to the same run, it leaves the gate passing on the expected failure alone.
    const again = applyBaseline(outcome, parseBaseline(text), "written.txt");
    expect(verdictOf(again).counts).toMatchObject({ mustFailed: 0, expectedFailures: 1 });
  });

  it("leaves out a baselined requirement that now passes, and keeps the ones still failing", () => {
    const baselined = applyBaseline(outcome, ["4.6/ok", "4.6/bad"], "old.txt");
    expect(failedMustIds(baselined)).toEqual(["4.6/bad"]);
  });

  it("cannot be broken by a message that holds a newline and an id", () => {
    const sneaky = aggregateRequirements(catalog, [ev("4.6/bad", "failed", "[4.6/bad] x\n4.6/ok"), ev("4.6/ok", "passed")], [], 1);
    expect(parseBaseline(renderBaseline(sneaky, { target: "http://h/v1\n4.7/na", startedAt: new Date(0) }))).toEqual(["4.6/bad"]);
  });
});
