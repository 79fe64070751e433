// The declined requests as each report shows them (reporters/declines-report.ts), the verdict's
// --rate-limit advice for a paced run, and the tally the workers share (src/harness/decline-tally.ts).

import { describe, expect, it } from "vitest";
import { declinesLines, declinesMarkdown, declinesSection } from "../../reporters/declines-report.ts";
import { DeclineTally, pacingHint } from "../../src/harness/decline-tally.ts";

describe("DeclineTally", () => {
  it("counts shed and rate-limited answers per endpoint, in the contract's order, the unknown ones as other", () => {
    const tally = new DeclineTally(["spec", "healthy", "get_table_item"]);
    expect(tally.declines()).toBeUndefined();
    tally.add("get_table_item", "shed");
    tally.add("healthy", "rate_limited");
    tally.add("get_table_item", "shed");
    tally.add(undefined, "shed");
    const d = tally.declines({ settledPerSecond: 118.4, decreases: 3 });
    expect(d?.endpoints).toEqual([
      { endpoint: "healthy", shed: 0, rateLimited: 1 },
      { endpoint: "get_table_item", shed: 2, rateLimited: 0 },
      { endpoint: "other", shed: 1, rateLimited: 0 },
    ]);
    expect([d?.shed, d?.rateLimited]).toEqual([3, 1]);
    expect(d?.pacing?.settledPerSecond).toBe(118.4);
  });

  it("is shown in every report, escaped, and a paced run's verdict suggests --rate-limit", () => {
    const d = {
      endpoints: [{ endpoint: "<b>x|y</b>", shed: 2, rateLimited: 1 }],
      shed: 2,
      rateLimited: 1,
      pacing: { settledPerSecond: 118.4, decreases: 3 },
    };
    expect(declinesLines(undefined)).toEqual([]);
    expect(declinesLines(d).join("\n")).toMatch(/2 shed \(503\), 1 rate-limited \(429\).*paced to 118 requests\/s/);
    expect(declinesMarkdown(d, (t) => t.replace(/\|/g, "\\|")).join("\n")).toContain("x\\|y");
    const html = declinesSection(d, "");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;b&gt;");
    expect(pacingHint(d)).toMatch(/--rate-limit 118\b/);
    expect(pacingHint({ ...d, pacing: undefined } as never)).toBeUndefined();
  });
});
