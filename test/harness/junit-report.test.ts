// junit.xml as the command writes it: a check that never ran is skipped with the reason (never passed),
// failures and errors carry their text, and the file is well-formed XML whatever the target sent.

import { describe, expect, it } from "vitest";
import { renderJunit } from "../../reporters/junit-report.ts";

describe("renderJunit", () => {
  it("marks never-run, skipped and n/a checks skipped with the reason, and failures with their message", () => {
    const xml = renderJunit(
      [
        { file: "suites/a.test.ts", name: "4.6/x: passes", status: "passed", durationMs: 5 },
        { file: "suites/a.test.ts", name: "4.6/y: fails", status: "failed", durationMs: 5, detail: "[4.6/y] expected: 200\n  body: \u001b[2J<b>" },
        { file: "suites/b.test.ts", name: "4.7/z: not run", status: "skipped", durationMs: 0, detail: "not run: max duration reached" },
        { file: "suites/b.test.ts", name: "4.7/w: n/a", status: "not_applicable", durationMs: 0, detail: 'needs fixture "table"' },
        { file: "suites/b.test.ts", name: "4.7/v: warns", status: "warned", durationMs: 1, detail: "should" },
        { file: "(target probe)", name: "the target can be tested", status: "error", durationMs: 0, detail: "the target requires authentication" },
      ],
      { name: "ledger-conformance", durationMs: 1234 },
    );
    expect(xml).toMatch(/<testsuites name="ledger-conformance" tests="6" failures="1" errors="1" skipped="2" time="1\.234">/);
    expect(xml).toContain('<skipped message="skipped: not run: max duration reached"/>');
    expect(xml).toContain('<skipped message="not applicable: needs fixture &quot;table&quot;"/>');
    expect(xml).toContain('<failure message="[4.6/y] expected: 200" type="RequirementNotMet">');
    expect(xml).toContain("body: \\x1b[2J&lt;b&gt;");
    expect(xml).toContain('<error message="the target requires authentication">');
    // XML 1.0 cannot hold C0 controls: none is left raw.
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    // The passing case is the only one without a child element.
    expect(xml.match(/<testcase [^>]*\/>/g)).toHaveLength(1);
  });
});
