// The two tiers of the project's own tests. `npm test` is the fast tier: the unit tests, the
// self-checks that run the command, every fault proven caught live by re-running, against its faulty
// node, the checks the recorded fault matrix names (test/self-check/fault-matrix.ts), and every allowed
// variation proven passed: those that rewrite answers on a recorded clean run (variation-replay.test.ts),
// those of the wire live on a sample of the suite (transport-variations.test.ts).
// `npm run test:full` (TEST_TIER=full) is the whole matrix: every fault against the suite files that
// hold its requirements (which refreshes the recorded matrix), every allowed variation and every
// deviation against the whole suite, in both profiles, and each fault of the load mode missed by a run
// without --load.

/** Whether this is the full tier. */
export const FULL_TIER = process.env.TEST_TIER === "full";

/** Test files of the full tier only: each runs the whole suite once per variation or deviation and profile (most of the full tier's time). */
export const FULL_TIER_ONLY_FILES: readonly string[] = ["test/self-check/allowed-variations.test.ts", "test/self-check/deviations.test.ts"];
