// What a worker builds once and every check shares: the run configuration, the OpenAPI contract, the
// requirement catalog, the HTTP client and the ledger tracker.

import { runConfig, type RunConfig } from "./config.ts";
import { HttpClient } from "./http-client.ts";
import { LedgerTracker } from "./ledger-tracker.ts";
import { ApiContract } from "./openapi.ts";
import { loadRequirements, type RequirementCatalog } from "./requirements.ts";

export interface Harness {
  readonly config: RunConfig;
  readonly contract: ApiContract;
  readonly catalog: RequirementCatalog;
  readonly client: HttpClient;
  readonly tracker: LedgerTracker;
}

let shared: Harness | undefined;
let sharedContract: ApiContract | undefined;
let sharedCatalog: RequirementCatalog | undefined;

/** The contract with header names under the profile's prefix is built per harness; this one is for catalog checks at collection time. */
export function contractForCollection(): ApiContract {
  sharedContract ??= ApiContract.load();
  return sharedContract;
}

export function catalog(): RequirementCatalog {
  sharedCatalog ??= loadRequirements(contractForCollection().operations.map((o) => o.id));
  return sharedCatalog;
}

export function createHarness(config: RunConfig, options: { contract?: ApiContract; catalog?: RequirementCatalog } = {}): Harness {
  return {
    config,
    contract: options.contract ?? ApiContract.load(undefined, config.profile.headerPrefix),
    catalog: options.catalog ?? catalog(),
    client: new HttpClient({
      timeoutMs: config.timeoutMs,
      maxResponseBytes: config.maxResponseBytes,
      ...(config.rateLimit === undefined ? {} : { rateLimit: config.rateLimit }),
      ...(config.bodiesDir === undefined ? {} : { bodiesDir: config.bodiesDir }),
    }),
    tracker: new LedgerTracker(config.stateDir),
  };
}

/** The worker's harness, built on first use from LEDGER_CONFORMANCE_CONFIG. */
export function harness(): Harness {
  shared ??= createHarness(runConfig());
  return shared;
}

/** For tests of the harness: use this one (or, with undefined, build from the environment again). */
export function setHarnessForTesting(h: Harness | undefined): void {
  shared = h;
}
