import { defineConfig } from "vitest/config";

// `npm test`: unit tests of codec, node and harness, and the self-checks that run the conformance
// command against the reference node. The conformance suites themselves (suites/, properties/) run
// through `npm run conformance`, which has its own vitest configuration in src/cli.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
