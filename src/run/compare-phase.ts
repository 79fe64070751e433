// The differential phase of a run (--compare-to URL): after the suite, the same reads go to the target
// and to the compared node at one ledger version both retain (src/harness/differential/). The compared
// node is probed first, like the target: one that cannot be reached is a configuration error (exit 2),
// not an empty comparison that would let --fail-on-diff pass.

import { DEFAULT_MAX_RESPONSE_BYTES, normalizeTarget, type RunConfig } from "../harness/config.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { runDifferential, type DifferentialResult } from "../harness/differential/differential-run.ts";
import { loadFixturesFile, type Fixtures } from "../harness/fixtures.ts";
import { ApiContract } from "../harness/openapi.ts";
import { probeTarget } from "./target-probe.ts";

/** The compared node, probed, and its fixtures, read before the suite runs so that a mistake costs no run. */
export interface Comparison {
  readonly compareTo: string;
  readonly fixtures?: Fixtures;
}

/** Throws a ConfigurationError when the compared node cannot be tested at all or its fixtures cannot be read. */
export async function prepareComparison(compareTo: string, compareFixtures: string | undefined, timeoutMs: number): Promise<Comparison> {
  const fixtures = compareFixtures === undefined ? undefined : loadFixturesFile(compareFixtures);
  const url = normalizeTarget(compareTo);
  // Only whether it can be tested: the compared node's answers choose no workers.
  const probe = await probeTarget(url, timeoutMs, { timeAnswers: false });
  if (!probe.ok) throw new ConfigurationError(`--compare-to: ${probe.reason}`);
  return { compareTo: url, ...(fixtures === undefined ? {} : { fixtures }) };
}

export async function runComparePhase(comparison: Comparison, config: RunConfig, say: (line: string) => void): Promise<DifferentialResult> {
  const { compareTo } = comparison;
  const fixtures = comparison.fixtures === undefined ? [config.fixtures] : [config.fixtures, comparison.fixtures];
  say(`comparing ${config.target} with ${compareTo}…`);
  return runDifferential({
    target: config.target,
    compareTo,
    fixtures,
    contract: ApiContract.load(undefined, config.profile.headerPrefix),
    headerPrefix: config.profile.headerPrefix,
    timeoutMs: config.timeoutMs,
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
    ...(config.bodiesDir === undefined ? {} : { bodiesDir: config.bodiesDir }),
    ...(config.rateLimit === undefined ? {} : { rateLimit: config.rateLimit }),
    ...(config.secretHeaders === undefined ? {} : { secretHeaders: config.secretHeaders }),
  });
}
