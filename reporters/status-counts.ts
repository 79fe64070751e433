// How many requirements ended in each status, as the reports tally them (summary.json's `counts`, the
// console and HTML tables per endpoint, the fleet's rows).

import type { RequirementOutcome } from "../src/outcome/run-outcome.ts";

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
