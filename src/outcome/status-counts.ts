// How many requirements ended in each status (summary.json's `counts`, the reports' tallies).

import type { RequirementOutcome } from "./run-outcome.ts";

export interface StatusCounts {
  passed: number;
  failed: number;
  skipped: number;
  notApplicable: number;
  warned: number;
}

export function countStatuses(requirements: readonly Pick<RequirementOutcome, "status">[]): StatusCounts {
  const counts: StatusCounts = { passed: 0, failed: 0, skipped: 0, notApplicable: 0, warned: 0 };
  for (const r of requirements) {
    if (r.status === "not_applicable") counts.notApplicable += 1;
    else counts[r.status] += 1;
  }
  return counts;
}
