// What a node sent reaches the comparison reports escaped: markup and terminal control sequences in a
// body, a header or a request key are shown, never interpreted.

import { describe, expect, it } from "vitest";
import { renderDifferencesConsole, renderDifferencesSection, withSections } from "../../reporters/differences-report.ts";
import { renderDiffConsole, renderDiffHtml } from "../../reporters/diff-report.ts";
import type { DifferentialResult } from "../../src/harness/differential/differential-run.ts";
import type { RunDiff } from "../../src/harness/recording-diff.ts";

const HOSTILE = "<script>alert(1)</script>\u001b[2J\u202e";

const side = (url: string) => ({
  url,
  curl: `curl '${url}'`,
  status: 200,
  headers: { "content-type": "application/json", "x-node-chain-id": HOSTILE },
  body: `{"m":"${HOSTILE}"}`,
});
const result: DifferentialResult = {
  target: "http://a/v1",
  compareTo: "http://b/v1",
  version: "10",
  compared: 1,
  skipped: [{ request: "r", reason: HOSTILE }],
  differences: [
    {
      request: `gas ${HOSTILE}`,
      operation: "estimate_gas_price",
      accept: "application/json",
      kind: "body",
      at: "$.m",
      detail: `${HOSTILE} vs x`,
      target: side("http://a/v1/x"),
      compareTo: side("http://b/v1/x"),
    },
  ],
};

describe("comparison reports", () => {
  it("escape what the nodes sent in the HTML section and on the console", () => {
    const html = withSections("<main>\n</main>", [renderDifferencesSection(result)]);
    expect(html).toContain('<section id="differences">');
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("\u001b");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("curl &#39;http://b/v1/x&#39;");
    const console = renderDifferencesConsole(result);
    expect(console).toContain("DIFFERS gas");
    expect(console).not.toContain("\u001b");
    expect(console).toContain("\\x1b[2J");
  });

  it("escape a recorded request key and answer in the diff page and on the console", () => {
    const diff: RunDiff = {
      runA: { dir: "a", target: "t", startedAt: "s" },
      runB: { dir: "b", target: "t", startedAt: "s" },
      requirements: [{ id: "4.6/gas-estimate-object", level: "MUST", from: "passed", to: "failed", regression: true }],
      regressions: 1,
      exchanges: {
        matched: 1,
        onlyInA: 0,
        onlyInB: 0,
        changed: [
          {
            key: `GET /x${HOSTILE}`,
            change: "shape",
            at: "$.a",
            a: "number",
            b: "string",
            requirements: ["4.6/gas-estimate-object"],
            curlA: "curl a",
            curlB: "curl b",
          },
        ],
      },
    };
    const html = renderDiffHtml(diff);
    expect(html).not.toContain("<script>");
    expect(html).toContain('class="regression"');
    expect(renderDiffConsole(diff, "out")).not.toContain("\u001b");
  });
});
