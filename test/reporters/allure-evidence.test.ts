// The Allure report's labels and evidence of a check, made in the command's process from the check's
// conformance meta (reporters/allure-evidence.ts).

import { describe, expect, it } from "vitest";
import { allureEvidence } from "../../reporters/allure-evidence.ts";
import type { Requirement } from "../../src/harness/requirements.ts";
import type { ConformanceMeta } from "../../src/harness/results.ts";

const requirement: Requirement = {
  id: "4.5/cursor-round-trip",
  level: "MUST",
  section: "4.5",
  endpoint: "get_account_modules",
  text: "a cursor brings the next page",
};
const curl = "curl -sS -i -g --path-as-is -X 'GET' 'http://127.0.0.1:1/v1/accounts/0x1/modules?limit=2'";
const meta: ConformanceMeta = {
  results: [
    {
      requirement: "4.5/cursor-round-trip",
      status: "failed",
      failures: [{ message: "[4.5/cursor-round-trip] expected the next page, got the first again", curl }],
    },
    { requirement: "2.7/ledger-headers-on-200", status: "not_applicable", failures: [], reason: "no answer" },
  ],
  requests: [{ method: "GET", url: "http://127.0.0.1:1/v1/accounts/0x1/modules?limit=2", status: 200, durationMs: 3, curl }],
};

const text = (content: string) => Buffer.from(content, "base64").toString("utf8");

describe("allureEvidence", () => {
  it("labels the check with its spec part, endpoint, requirement and level", () => {
    const [labels] = allureEvidence(requirement, meta, 5);
    expect(labels).toEqual({
      type: "metadata",
      data: {
        labels: [
          { name: "epic", value: "§4" },
          { name: "feature", value: "get_account_modules" },
          { name: "story", value: "4.5/cursor-round-trip" },
          { name: "severity", value: "critical" },
          { name: "tag", value: "MUST" },
        ],
      },
    });
    const [shouldLabels] = allureEvidence({ ...requirement, level: "SHOULD", endpoint: "*" }, meta, 5);
    expect(shouldLabels).toMatchObject({
      data: {
        labels: expect.arrayContaining([
          { name: "feature", value: "all endpoints" },
          { name: "severity", value: "normal" },
        ]),
      },
    });
  });

  it("attaches every result and request with its curl line, then each failure's message", () => {
    const attachments = allureEvidence(requirement, meta, 5).slice(1);
    expect(attachments.map((m) => m.type)).toEqual(["attachment_content", "attachment_content"]);
    const [evidence, failure] = attachments.map((m) => (m as { data: { name: string; content: string; contentType: string } }).data);
    expect(evidence?.name).toBe("evidence");
    expect(evidence?.contentType).toBe("text/plain");
    expect(text(evidence?.content ?? "")).toBe(
      [
        "failed         4.5/cursor-round-trip",
        "not_applicable 2.7/ledger-headers-on-200 (no answer)",
        "",
        `200 GET http://127.0.0.1:1/v1/accounts/0x1/modules?limit=2 (3 ms)\n  ${curl}`,
      ].join("\n"),
    );
    expect(failure?.name).toBe("failure 4.5/cursor-round-trip");
    expect(text(failure?.content ?? "")).toBe("[4.5/cursor-round-trip] expected the next page, got the first again");
  });
});
