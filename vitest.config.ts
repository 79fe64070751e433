import { configDefaults, defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/support/longest-first.ts";
import { FULL_TIER, FULL_TIER_ONLY_FILES } from "./test/support/test-tier.ts";

// `npm test`: unit tests of codec, node and harness, and the self-checks that run the conformance
// command against the reference node. The conformance suites themselves (suites/, properties/) run
// through `npm run conformance`, which has its own vitest configuration in src/cli. Two tiers
// (test/support/test-tier.ts): `npm test`, and `npm run test:full` with the whole self-check matrix.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...(FULL_TIER ? [] : FULL_TIER_ONLY_FILES)],
    // The command compiled once for the tests that run it as a child process (test/support/test-build.ts).
    globalSetup: ["test/support/test-build.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Three test files at once on any machine (vitest's default on 2 cores is one): many of them wait
    // on child processes, nodes and timeouts, and a third file fills those waits (on 2 cores: 231 s
    // against 257 s and 270 s with two, the same tests passing).
    maxWorkers: 3,
    // A worker process runs file after file with the modules it has loaded, instead of a new process
    // per file, each loading vitest and the sources it imports again (about 0.4 CPU-s for the least of
    // the ~100 files): the whole of npm test in about 0.65x the CPU. No test file mocks a module or
    // changes a global it does not restore (allure-page.test.ts restores its working directory).
    isolate: false,
    // The longest files first, on a clean clone too, where vitest has no durations to order them by.
    sequence: { sequencer: LongestFirstSequencer },
  },
});
