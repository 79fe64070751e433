// What a worker builds once per run and every check of the run shares: the run configuration, the
// OpenAPI contract, the requirement catalog, the HTTP client and the ledger tracker. A worker serves
// one run (the command's), or several, each told apart by the folder its suite files are in
// (runsByFolder: the fault self-check); the catalog, and a contract per header prefix, serve them all.

import { inject, TestRunner } from "vitest";
import type { CollectionConfig, ProvidedRunConfig, RunConfig, TargetFacts } from "./config.ts";
import { HttpClient } from "./http-client.ts";
import { LedgerTracker, sharedLedgerTracker } from "./ledger-tracker.ts";
import { SequenceBook, sharedSequenceBook } from "./sequence-book.ts";
import { ApiContract } from "./openapi.ts";
import { ExchangeRecorder } from "./recording.ts";
import { loadRequirements, type RequirementCatalog } from "./requirements.ts";
import { workerInFlightGate } from "./shared-in-flight-limit.ts";
import { sharedRateLimit } from "./shared-rate-limit.ts";
import { DeclineTally, sharedDeclineTally } from "./decline-tally.ts";
import { RunMemory } from "./run-memory.ts";
import { receiveTarget } from "./target-handoff.ts";

export interface Harness {
  readonly config: RunConfig;
  readonly contract: ApiContract;
  readonly catalog: RequirementCatalog;
  readonly client: HttpClient;
  readonly tracker: LedgerTracker;
  /** The next sequence number of each sender the run's submissions used: the run's shared book, or one of the harness's own. */
  readonly sequences: SequenceBook;
  /** What the run's suite support modules keep from one check to the next (run-memory.ts). */
  readonly memory: RunMemory;
  /** Present when the run records its exchanges (--record). */
  readonly recorder?: ExchangeRecorder;
  /** The requests the target declined (503, 429), per endpoint: the run's shared tally, or one of the harness's own. */
  readonly declines?: DeclineTally;
}

/** By run: "" for the worker's one run (runConfig), else the folder of the run's files (runsByFolder). */
const harnesses = new Map<string, Harness>();
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
  return contractUnder(providedRun(fileBeingCollected())?.config.profile.headerPrefix);
}

export function catalog(): RequirementCatalog {
  sharedCatalog ??= loadRequirements(contractForCollection().operations.map((o) => o.id));
  return sharedCatalog;
}

export function createHarness(config: RunConfig, options: { contract?: ApiContract; catalog?: RequirementCatalog } = {}): Harness {
  const contract = options.contract ?? contractUnder(config.profile.headerPrefix);
  // A run of several workers keeps its ledger mark and senders' sequence numbers in memory they share;
  // a run of one worker, or a harness outside a run (a unit test), keeps its own.
  const sharedState = config.workers === 1 ? undefined : config.stateDir;
  return {
    config,
    contract,
    catalog: options.catalog ?? catalog(),
    client: new HttpClient({
      timeoutMs: config.timeoutMs,
      maxResponseBytes: config.maxResponseBytes,
      // The run's pace, which every worker keeps and declines lower (shared-rate-limit.ts), when the command shared one.
      ...(config.sharedRateLimit === true
        ? { rateLimit: sharedRateLimit(config.stateDir) }
        : config.rateLimit === undefined
          ? {}
          : { rateLimit: config.rateLimit }),
      ...(config.sharedInFlight === true ? { inFlight: workerInFlightGate(config.stateDir) } : { maxInFlight: config.concurrency ?? 1 }),
      ...(config.bodiesDir === undefined ? {} : { bodiesDir: config.bodiesDir }),
      ...(config.secretHeaders === undefined ? {} : { secretHeaders: config.secretHeaders }),
    }),
    tracker: sharedState === undefined ? new LedgerTracker() : sharedLedgerTracker(sharedState),
    sequences: sharedState === undefined ? new SequenceBook() : sharedSequenceBook(sharedState),
    declines: sharedDeclineTally(config.stateDir) ?? new DeclineTally(contract.operations.map((o) => o.id)),
    memory: new RunMemory(),
    ...(config.recordDir === undefined ? {} : { recorder: new ExchangeRecorder(config.recordDir, config.target, config.secretHeaders) }),
  };
}

/** The run's configuration while checks are collected, or undefined outside a run (a unit test loading a file). */
export function configAtCollection(): CollectionConfig | undefined {
  return providedRun(fileBeingCollected())?.config;
}

/** The target's facts of the worker's run, once handed over, when the command provided the run without them. */
let handedOver: TargetFacts | undefined;

/**
 * In a run provided without its target's facts (RunConfigAwaitingTarget): waits until the command
 * hands them over (target-handoff.ts); the run's setup file calls it before a file's checks run.
 * Otherwise there is nothing to wait for.
 */
export async function awaitTarget(): Promise<void> {
  const run = providedRun(undefined);
  if (run === undefined || !("awaitsTarget" in run.config)) return;
  handedOver ??= await receiveTarget(run.config.stateDir);
}

/** The whole configuration: as provided, or with the target's facts the command handed over. */
function withTargetFacts(config: ProvidedRunConfig): RunConfig {
  if (!("awaitsTarget" in config)) return config;
  if (handedOver === undefined)
    throw new Error("the run's target is not known yet: checks run once the command hands it over (target-handoff-setup.ts)");
  const { awaitsTarget: _, ...rest } = config;
  return { ...rest, ...handedOver };
}

/** The file whose checks are being registered (absolute path) while vitest collects it; else undefined. */
function fileBeingCollected(): string | undefined {
  try {
    return TestRunner.getCurrentSuite()?.file?.filepath;
  } catch {
    // vitest throws when no file is being collected (a check running, a unit test).
    return undefined;
  }
}

/**
 * The run the command provided to this worker for `file` (vitest's provided context): its own folder's
 * under runsByFolder, else the worker's one run; undefined outside a run.
 */
function providedRun(file: string | undefined): { readonly key: string; readonly config: ProvidedRunConfig } | undefined {
  try {
    const runs = inject("runsByFolder");
    if (runs !== undefined) {
      const folder = file === undefined ? undefined : Object.keys(runs).find((f) => file.startsWith(`${f}/`));
      return folder === undefined ? undefined : { key: folder, config: runs[folder] as RunConfig };
    }
    const config = inject("runConfig");
    return config === undefined ? undefined : { key: "", config };
  } catch {
    return undefined;
  }
}

/**
 * The harness of the run that `file` (a suite file's absolute path) belongs to, built on first use from
 * the provided run configuration; throws a clear error outside a run.
 */
export function harness(file: string | undefined): Harness {
  const run = providedRun(file);
  if (run === undefined) {
    const of = file === undefined ? "" : ` for ${file}`;
    throw new Error(
      `no run configuration${of}: conformance suites run through \`npm run conformance\` (or npx ledger-conformance), which describes the target to them`,
    );
  }
  let h = harnesses.get(run.key);
  if (h === undefined) {
    h = createHarness(withTargetFacts(run.config));
    harnesses.set(run.key, h);
  }
  return h;
}
