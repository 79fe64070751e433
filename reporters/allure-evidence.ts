// What the Allure report shows of a check: its endpoint as feature, its requirement as story, the
// spec's part as epic, its level as severity and tag, and as attachments the requests with their curl
// lines and each failure's message. Made in the command's process from what the check's worker already
// sent (the task's conformance meta), as the runtime messages allure-vitest applies to a test result:
// the workers run no Allure runtime of their own.

import type { RuntimeMessage } from "allure-js-commons/sdk";
import type { Requirement } from "../src/harness/requirements.ts";
import type { ConformanceMeta } from "../src/harness/results.ts";

export function allureEvidence(requirement: Requirement, meta: ConformanceMeta, at = Date.now()): RuntimeMessage[] {
  const labels = [
    { name: "epic", value: `§${requirement.section.split(".")[0]}` },
    { name: "feature", value: requirement.endpoint === "*" ? "all endpoints" : requirement.endpoint },
    { name: "story", value: requirement.id },
    { name: "severity", value: requirement.level === "MUST" ? "critical" : "normal" },
    { name: "tag", value: requirement.level },
  ];
  const evidence = [
    ...meta.results.map((r) => `${r.status.padEnd(14)} ${r.requirement}${r.reason ? ` (${r.reason})` : ""}`),
    "",
    ...meta.requests.map((q) => `${q.status ?? "no answer"} ${q.method} ${q.url} (${q.durationMs} ms)\n  ${q.curl}`),
  ].join("\n");
  const failures = meta.results
    .flatMap((r) => r.failures)
    .map((f) => ({ name: `failure ${f.message.split("]")[0]?.slice(1) ?? ""}`, text: f.message }));
  return [
    { type: "metadata", data: { labels } },
    ...[{ name: "evidence", text: evidence }, ...failures].map(
      (a): RuntimeMessage => ({
        type: "attachment_content",
        data: {
          name: a.name,
          content: Buffer.from(a.text).toString("base64"),
          encoding: "base64",
          contentType: "text/plain",
          wrapInStep: true,
          timestamp: at,
        },
      }),
    ),
  ];
}
