// The two tiers of the project's own tests. `npm test` is the fast tier: the unit tests, the
// self-checks that run the command, and the fault self-check. `npm run test:full` (TEST_TIER=full)
// is the whole matrix: the fast tier, and every allowed variation and every deviation against the
// whole suite, in both profiles.

/** Whether this is the full tier. */
export const FULL_TIER = process.env.TEST_TIER === "full";

/** Test files of the full tier only: each runs the whole suite once per variation or deviation and profile (most of the full tier's time). */
export const FULL_TIER_ONLY_FILES: readonly string[] = ["test/self-check/allowed-variations.test.ts", "test/self-check/deviations.test.ts"];
