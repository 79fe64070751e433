// What a worker builds once and every check shares: the run configuration, the OpenAPI contract, the
// requirement catalog, the HTTP client and the ledger tracker.

import { inject } from "vitest";
import type { RunConfig } from "./config.ts";
import { HttpClient } from "./http-client.ts";
import { LedgerTracker } from "./ledger-tracker.ts";
import { ApiContract } from "./openapi.ts";
import { ExchangeRecorder } from "./recording.ts";
import { loadRequirements, type RequirementCatalog } from "./requirements.ts";

export interface Harness {
  readonly config: RunConfig;
  readonly contract: ApiContract;
  readonly catalog: RequirementCatalog;
  readonly client: HttpClient;
  readonly tracker: LedgerTracker;
  /** Present when the run records its exchanges (--record). */
  readonly recorder?: ExchangeRecorder;
}

let shared: Harness | undefined;
let sharedCatalog: RequirementCatalog | undefined;
/** Compiled contracts by header prefix: a worker compiles schemas/openapi.yaml once, under its run's prefix. */
const contracts = new Map<string, ApiContract>();

function contractUnder(headerPrefix: string | undefined): ApiContract {
  const key = headerPrefix ?? "";
  let contract = contracts.get(key);
  if (contract === undefined) {
    contract = ApiContract.load(undefined, headerPrefix);
    contracts.set(key, contract);
  }
  return contract;
}

/** The worker's contract, for checks at collection time: the run's (the document's own names outside a run, in unit tests). */
export function contractForCollection(): ApiContract {
  // Not through harness(): building the harness asks catalog(), which comes back here.
  return contractUnder(providedConfigOrUndefined()?.profile.headerPrefix);
}

export function catalog(): RequirementCatalog {
  sharedCatalog ??= loadRequirements(contractForCollection().operations.map((o) => o.id));
  return sharedCatalog;
}

export function createHarness(config: RunConfig, options: { contract?: ApiContract; catalog?: RequirementCatalog } = {}): Harness {
  return {
    config,
    contract: options.contract ?? contractUnder(config.profile.headerPrefix),
    catalog: options.catalog ?? catalog(),
    client: new HttpClient({
      timeoutMs: config.timeoutMs,
      maxResponseBytes: config.maxResponseBytes,
      ...(config.rateLimit === undefined ? {} : { rateLimit: config.rateLimit }),
      maxInFlight: config.concurrency ?? 1,
      ...(config.bodiesDir === undefined ? {} : { bodiesDir: config.bodiesDir }),
      ...(config.secretHeaders === undefined ? {} : { secretHeaders: config.secretHeaders }),
    }),
    // One worker has no other to share its mark with: no file to stat, read and replace per request.
    tracker: new LedgerTracker(config.workers === 1 ? undefined : config.stateDir),
    ...(config.recordDir === undefined ? {} : { recorder: new ExchangeRecorder(config.recordDir, config.target, config.secretHeaders) }),
  };
}

/** The run's configuration while checks are collected, or undefined outside a run (a unit test loading a file). */
export function configAtCollection(): RunConfig | undefined {
  try {
    return harness().config;
  } catch {
    return undefined;
  }
}

/** The configuration the command provided to this worker (vitest's provided context), or undefined outside a run. */
function providedConfigOrUndefined(): RunConfig | undefined {
  try {
    return inject("runConfig");
  } catch {
    return undefined;
  }
}

/** The configuration the command provided to this worker; throws a clear error outside a run. */
function providedConfig(): RunConfig {
  const config = providedConfigOrUndefined();
  if (config === undefined) {
    throw new Error("no run configuration: conformance suites run through `npm run conformance` (or npx ledger-conformance), which describes the target to them");
  }
  return config;
}

/** The worker's harness, built on first use from the provided run configuration. */
export function harness(): Harness {
  shared ??= createHarness(providedConfig());
  return shared;
}
