// The order a run's suite files start in: the ones that hold a worker longest behind a slow link first,
// so that the short ones fill the workers at the end. A worker runs one file at a time, and a file whose
// checks go one after another (the submissions: each waits for its commit) or whose properties walk a
// chain of pages (the cursor laws) is round trips end to end: behind a slow link these hold a worker
// several times as long as most files. vitest orders files by size when it has no durations of an
// earlier run (a fleet's folders are new at every run): those small files came last, and a fleet's run
// ended with its nodes' submit-transaction-accepted files alone. Several runs' copies of one file keep
// vitest's order among themselves, which is the runs' order: a fleet's nodes take turns.

import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Longest first, as measured behind 0-300 ms per request (the fleet bench, the latency run's files); paths under the code root, without the suffix. */
export const LONGEST_SUITE_FILES = [
  "suites/submit-transaction-rejected",
  "suites/submit-transaction-payload-forms",
  "suites/submit-transaction-body-flaws",
  "properties/cursors",
  "suites/submit-transaction-accepted",
  "suites/submit-transaction-signature-forms",
  "properties/pruning",
  "properties/pagination",
  "suites/get-account-modules",
  "suites/submit-transaction-inputs",
] as const;

/** The place of a suite file (an absolute path) in LONGEST_SUITE_FILES; the others after them all. */
export function longestRank(file: string): number {
  const path = file.replace(/\\/g, "/");
  const at = LONGEST_SUITE_FILES.findIndex((longest) => path.endsWith(`/${longest}.test.ts`) || path.endsWith(`/${longest}.test.js`));
  return at === -1 ? LONGEST_SUITE_FILES.length : at;
}

/** vitest's own order (durations, else sizes), then the longest files moved first. */
export class LongestSuitesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable.
    return (await super.sort(files)).sort((a, b) => longestRank(a.moduleId) - longestRank(b.moduleId));
  }
}
