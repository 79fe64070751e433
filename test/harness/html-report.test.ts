// The requirement matrix page: self-contained, and everything from the target is escaped.

import { describe, expect, it } from "vitest";
import { aggregateRequirements } from "../../reporters/aggregate.ts";
import { renderHtmlReport } from "../../reporters/html-report.ts";
import { parseRequirements } from "../../src/harness/requirements.ts";

const catalog = parseRequirements(JSON.stringify([{ id: "1/a", level: "MUST", section: "1", endpoint: "op", text: "Text <b>x</b>." }]), ["op"]);

describe("renderHtmlReport", () => {
  it("escapes bodies and curl lines that came from the target, and loads nothing from outside", () => {
    const outcome = aggregateRequirements(
      catalog,
      [{ test: "1/a: t", file: "suites/x.test.ts", result: { requirement: "1/a", status: "failed", failures: [{ message: 'body: <script>alert("x")</script>', curl: "curl 'http://h/?a=<img src=x>'" }] } }],
      [{ file: "suites/y.test.ts", message: "<iframe>" }],
      3,
    );
    const html = renderHtmlReport({ outcome, target: "http://h/v1", startedAt: new Date(0), durationMs: 1500, exitCode: 1 });
    expect(html).not.toMatch(/<script|<img|<iframe|<b>x/);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("curl &#39;http://h/?a=&lt;img src=x&gt;&#39;");
    expect(html).toMatch(/Not conforming/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toContain("Allure report");
  });

  it("shows control characters from the target as visible escapes, on a page too", () => {
    const outcome = aggregateRequirements(
      catalog,
      [{ test: "1/a: t", file: "suites/x.test.ts", result: { requirement: "1/a", status: "failed", failures: [{ message: "body: \u001b[2J\u001b]0;title\u0007\u202eevil", curl: null }] } }],
      [],
      1,
    );
    const html = renderHtmlReport({ outcome, target: "http://h/v1", startedAt: new Date(0), durationMs: 1, exitCode: 1 });
    expect(html).toContain("body: \\x1b[2J\\x1b]0;title\\x07\\u202eevil");
    expect(html).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
  });
});
