// The differential phase of a run (--compare-to URL): after the suite, the same reads go to the target
// and to the compared node at one ledger version both retain (src/harness/differential/). The compared
// node is probed first, like the target: one that cannot be reached is a configuration error (exit 2),
// not an empty comparison that would let --fail-on-diff pass.

import { DEFAULT_MAX_RESPONSE_BYTES, normalizeTarget, type RunConfig } from "../harness/config.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { runDifferential, type DifferentialResult } from "../harness/differential/differential-run.ts";
import { loadFixturesFile } from "../harness/fixtures.ts";
import { ApiContract } from "../harness/openapi.ts";
import type { ConformanceArgs } from "./conformance-args.ts";
import { probeTarget } from "./conformance-target.ts";

/** Throws a ConfigurationError when the compared node cannot be tested at all. */
export async function probeComparedNode(compareTo: string, timeoutMs: number): Promise<void> {
  const probe = await probeTarget(normalizeTarget(compareTo), timeoutMs);
  if (!probe.ok) throw new ConfigurationError(`--compare-to: ${probe.reason}`);
}

export async function runComparePhase(args: ConformanceArgs & { readonly compareTo: string }, config: RunConfig, say: (line: string) => void): Promise<DifferentialResult> {
  const compareTo = normalizeTarget(args.compareTo);
  const fixtures = args.compareFixtures === undefined ? [config.fixtures] : [config.fixtures, loadFixturesFile(args.compareFixtures)];
  say(`comparing ${config.target} with ${compareTo}…`);
  const result = await runDifferential({
    target: config.target,
    compareTo,
    fixtures,
    contract: ApiContract.load(undefined, config.profile.headerPrefix),
    headerPrefix: config.profile.headerPrefix,
    timeoutMs: config.timeoutMs,
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
    ...(config.bodiesDir === undefined ? {} : { bodiesDir: config.bodiesDir }),
  });
  return result;
}
