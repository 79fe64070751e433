// The requirement matrix page: self-contained, everything from the target escaped, what failed at the
// top with identical failures grouped, each curl once, every § linked to the spec page; and that page.

import { describe, expect, it } from "vitest";
import type { Evidence } from "../../src/outcome/run-outcome.ts";
import { aggregateRequirements } from "../../src/outcome/aggregate.ts";
import { verdictOf } from "../../src/outcome/verdict.ts";
import { renderHtmlReport } from "../../reporters/html-report.ts";
import { readSpec, renderSpecPage } from "../../reporters/spec-page.ts";
import { parseRequirements } from "../../src/harness/requirements.ts";

const catalog = parseRequirements(JSON.stringify([{ id: "1/a", level: "MUST", section: "1", endpoint: "op", text: "Text <b>x</b>." }]), [
  "op",
]);

describe("renderHtmlReport", () => {
  it("escapes bodies and curl lines that came from the target, and loads nothing from outside", () => {
    const outcome = aggregateRequirements(
      catalog,
      [
        {
          test: "1/a: t",
          file: "suites/x.test.ts",
          result: {
            requirement: "1/a",
            status: "failed",
            failures: [{ message: 'body: <script>alert("x")</script>', curl: "curl 'http://h/?a=<img src=x>'" }],
          },
        },
      ],
      [{ file: "suites/y.test.ts", message: "<iframe>" }],
      3,
    );
    const html = renderHtmlReport({
      outcome,
      verdict: verdictOf(outcome),
      target: "http://h/v1",
      startedAt: new Date(0),
      durationMs: 1500,
      exitCode: 1,
    });
    // The one script is the page's own filter; nothing from the target becomes markup.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<img|<iframe|<b>x/);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("curl &#39;http://h/?a=&lt;img src=x&gt;&#39;");
    expect(html).toMatch(/Not conforming/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toContain("Allure report");
  });

  it("shows control characters from the target as visible escapes, on a page too", () => {
    const outcome = aggregateRequirements(
      catalog,
      [
        {
          test: "1/a: t",
          file: "suites/x.test.ts",
          result: {
            requirement: "1/a",
            status: "failed",
            failures: [{ message: "body: \u001b[2J\u001b]0;title\u0007\u202eevil", curl: null }],
          },
        },
      ],
      [],
      1,
    );
    const html = renderHtmlReport({
      outcome,
      verdict: verdictOf(outcome),
      target: "http://h/v1",
      startedAt: new Date(0),
      durationMs: 1,
      exitCode: 1,
    });
    expect(html).toContain("body: \\x1b[2J\\x1b]0;title\\x07\\u202eevil");
    expect(html).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
  });
});

describe("the top of the page, failure groups, the curl once, § links", () => {
  const two = parseRequirements(
    JSON.stringify([
      {
        id: "4.5/member",
        level: "MUST",
        section: "4.5",
        endpoint: "get_account_modules",
        text: "A module record has bytecode (see §2.4; a client error as RFC 9110 §15.5 has it).",
      },
      { id: "4.6/ok", level: "MUST", section: "4.6", endpoint: "estimate_gas_price", text: "Passes." },
      { id: "4.7/soft", level: "SHOULD", section: "4.7", endpoint: "healthy", text: "Warns." },
    ]),
    ["get_account_modules", "estimate_gas_price", "healthy"],
  );
  const renamed = (n: number) => {
    const curl = `curl -sS 'http://h/v1/accounts/0x${n.toString(16)}/modules?limit=${n}'`;
    return {
      message: `[4.5/member] expected: body matches the schema\n  found:    /0 must have required property 'bytecode'\n  actual:   HTTP 200\n  body:     [{"bytecodes":"0x${n}"}]\n  replay:   ${curl}`,
      curl,
    };
  };
  const evidence: Evidence[] = [
    ...Array.from({ length: 12 }, (_, n) => ({
      test: `4.5/member: check ${n}`,
      file: "suites/modules.test.ts",
      result: { requirement: "4.5/member", status: "failed" as const, failures: [renamed(n + 1)] },
    })),
    {
      test: "4.5/member: abi",
      file: "suites/modules.test.ts",
      result: {
        requirement: "4.5/member",
        status: "failed",
        failures: [{ message: "[4.5/member] expected: an abi\n  found:    none", curl: null }],
      },
    },
    { test: "4.6/ok: t", file: "suites/gas.test.ts", result: { requirement: "4.6/ok", status: "passed", failures: [] } },
    {
      test: "4.7/soft: t",
      file: "suites/health.test.ts",
      result: {
        requirement: "4.7/soft",
        status: "warned",
        failures: [{ message: "[4.7/soft] meh", curl: "curl 'http://h/v1/-/healthy'" }],
      },
    },
  ];
  const outcome = aggregateRequirements(two, evidence, [], 22);
  const html = renderHtmlReport({
    outcome,
    verdict: verdictOf(outcome),
    target: "http://h/v1",
    startedAt: new Date(0),
    durationMs: 1,
    exitCode: 1,
  });

  it("lists what failed before the matrix, linking each requirement and each group of identical failures with its count", () => {
    const top = html.slice(html.indexOf('<section class="what-failed"'), html.indexOf('<table class="matrix">'));
    expect(top).toContain('<a href="#req-4.5/member"><code>4.5/member</code></a>');
    expect(top).toContain('<a href="#req-4.7/soft"><code>4.7/soft</code></a>');
    expect(top).not.toContain("4.6/ok");
    expect(top).toMatch(
      /<a href="#req-4\.5\/member-g1">\[4\.5\/member\] expected: body matches the schema<\/a> <span class="times">×12<\/span>/,
    );
    expect(top).toMatch(/<a href="#req-4\.5\/member-g2">\[4\.5\/member\] expected: an abi<\/a><\/li>/);
    expect(html.indexOf("What failed (2)")).toBeLessThan(html.indexOf('<table class="matrix">'));
    expect(html).toContain('id="req-4.5/member-g1"');
  });

  it("shows one block per group, and each failure's curl line exactly once", () => {
    const section = html.slice(html.indexOf('id="req-4.5/member"'));
    expect(section).toContain("12 failures of this shape");
    expect(section.match(/must have required property/g)).toHaveLength(1);
    for (let n = 1; n <= 12; n++) {
      const curl = `curl -sS &#39;http://h/v1/accounts/0x${n.toString(16)}/modules?limit=${n}&#39;`;
      expect(html.split(curl).length - 1, curl).toBe(1);
    }
    expect(section).not.toContain("replay:   curl");
  });

  it("links every § to the spec page beside it", () => {
    expect(html).toContain('<a class="sec" href="spec.html#4.5">§4.5</a>');
    expect(html).toContain('see <a class="sec" href="spec.html#2.4">§2.4</a>');
    expect(html).toContain('href="spec.html"');
    expect(html).toContain("as RFC 9110 §15.5 has it)");
    const sections = [...html.matchAll(/(?<!RFC [0-9]+ )§([0-9.]+)/g)].length;
    expect([...html.matchAll(/<a class="sec" href="spec\.html#[0-9.]+">§[0-9.]+<\/a>/g)].length).toBe(sections);
  });

  it("offers the failed-and-warned filter as an inline script, loading nothing", () => {
    expect(html).toContain('<input type="checkbox" id="only-failing">');
    expect(html).toMatch(/<script>\n\(function \(\) \{/);
    expect(html).not.toMatch(/<script[^>]*src=/);
    expect(html).toContain('data-status="passed"');
  });
});

describe("renderSpecPage", () => {
  it("renders the shipped spec with an anchor per numbered section, escaping everything", () => {
    const page = renderSpecPage(readSpec());
    for (const section of ["1", "2.1", "2.7", "2.8.1", "4", "4.5", "7.1", "8"]) expect(page, section).toContain(`id="${section}"`);
    expect(page).toContain("vector&lt;{non-reference type}&gt;");
    expect(page).toContain("^(bool|u8|u64|u128|address|signer|vector&lt;.+&gt;|0x[0-9a-zA-Z:_&lt;, &gt;]+)$");
    const hostile = renderSpecPage(
      '# T\n\n## 1. A <script>alert(1)</script>\n\n| a | b |\n|---|---|\n| <img src=x> | "q" \\| r |\n\n- <b>x</b>\n',
    );
    expect(hostile).not.toMatch(/<script>alert|<img|<b>x/);
    expect(hostile).toContain("<td>&quot;q&quot; | r</td>");
  });
});

describe("failureShape", () => {
  it("leaves out a body over several lines, up to the replay line, and what varies in the rest", async () => {
    const { failureShape } = await import("../../reporters/failure-groups.ts");
    const html =
      "[2.7/x] expected: headers on a 200\n  actual:   HTTP 200\n  body:     <!DOCTYPE html>\n<html>\n  title: page 1\n</html>\n  replay:   curl 'http://h/v1/spec'";
    const yaml =
      "[2.7/x] expected: headers on a 200\n  actual:   HTTP 200\n  body:     openapi: 3.1.0\ninfo:\n  title: x\n  replay:   curl 'http://h/v1/spec.yaml'";
    expect(failureShape(html)).toBe(failureShape(yaml));
    expect(failureShape(html)).toBe("[N.N/x] expected: headers on a N\n  actual:   HTTP N");
    expect(failureShape("[4.5/x] expected: member 'abi'")).not.toBe(failureShape("[4.5/x] expected: member 'bytecode'"));
  });
});
