// npm test's order (vitest.config.ts): the longest test files first, so that the short ones fill the
// three lanes at the end. vitest orders files by the durations of the run before when its cache holds
// them (a checkout that ran the tests), and else by size, largest first (a clean clone, as CI's). The
// longest files are small ones that run the command or nodes for most of a minute, so on a clean
// clone they came last: one of them still ran for 20 s after the other lanes had ended.

import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Longest first: the files that take 25 s or more of a lane on 2 cores (vitest's cache after npm test),
 * after the full tier's own (test/support/test-tier.ts), which take longest there.
 */
export const LONGEST_TEST_FILES = [
  "test/self-check/allowed-variations.test.ts",
  "test/self-check/deviations.test.ts",
  "test/self-check/load-mode.test.ts",
  "test/self-check/faults.test.ts",
  "test/package/packed-install.test.ts",
  "test/cli/command.test.ts",
  "test/fleet/fleet.test.ts",
  "test/reporters/baseline-round-trip.test.ts",
  "test/self-check/hostile-answers.test.ts",
  "test/self-check/long-lived-rerun.test.ts",
  "test/self-check/clean-node.test.ts",
  "test/run/embedded.test.ts",
  "test/self-check/stuck-sender.test.ts",
  "test/run/hostile-targets.test.ts",
] as const;

/** `files` with the longest first, in LONGEST_TEST_FILES's order; the others keep theirs. */
export function longestFirst<T>(files: readonly T[], path: (file: T) => string): T[] {
  const rank = (file: T) => {
    const at = LONGEST_TEST_FILES.findIndex((longest) => path(file).endsWith(`/${longest}`));
    return at === -1 ? LONGEST_TEST_FILES.length : at;
  };
  // Array.prototype.sort is stable.
  return [...files].sort((a, b) => rank(a) - rank(b));
}

/** vitest's own order (durations, else sizes), then the longest files moved first. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longestFirst(await super.sort(files), (file) => file.moduleId);
  }
}
