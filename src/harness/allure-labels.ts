// Labels and evidence for the Allure report: endpoint as feature, requirement as story, level as
// severity, and the requests with their curl lines as an attachment. Only when the allure-vitest
// runtime is active (the conformance command); a no-op anywhere else.

import type { Requirement } from "./requirements.ts";
import type { ConformanceMeta } from "./results.ts";

interface Outcome {
  readonly meta: ConformanceMeta;
}

export async function labelForAllure(requirement: Requirement, outcome: Outcome): Promise<void> {
  if ((globalThis as { allureTestRuntime?: unknown }).allureTestRuntime === undefined) return;
  let allure: typeof import("allure-js-commons");
  try {
    allure = await import("allure-js-commons");
  } catch {
    return;
  }
  await allure.epic(`§${requirement.section.split(".")[0]}`);
  await allure.feature(requirement.endpoint === "*" ? "all endpoints" : requirement.endpoint);
  await allure.story(requirement.id);
  await allure.severity(requirement.level === "MUST" ? "critical" : "normal");
  await allure.tag(requirement.level);
  const evidence = [
    ...outcome.meta.results.map((r) => `${r.status.padEnd(14)} ${r.requirement}${r.reason ? ` (${r.reason})` : ""}`),
    "",
    ...outcome.meta.requests.map((q) => `${q.status ?? "no answer"} ${q.method} ${q.url} (${q.durationMs} ms)\n  ${q.curl}`),
  ].join("\n");
  await allure.attachment("evidence", evidence, "text/plain");
  for (const failure of outcome.meta.results.flatMap((r) => r.failures)) {
    await allure.attachment(`failure ${failure.message.split("]")[0]?.slice(1) ?? ""}`, failure.message, "text/plain");
  }
}
