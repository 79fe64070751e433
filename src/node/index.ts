// startNode: the reference node in-process. Used by `ledger-node`, by the embedded run of
// `ledger-conformance`, and by tests (which pass a ManualClock and drive time with clock.advance).

import type { FastifyRequest } from "fastify";
import { activateFaults } from "./faults/index.ts";
import { buildApp, DEFAULT_BODY_LIMIT } from "./http/app.ts";
import { profileSettings, type ProfileName } from "./http/profile.ts";
import { DEFAULT_SPEC_PATH, loadSpecDocument, type SpecDocument } from "./http/spec-document.ts";
import { createEngine, type Clock, type EngineConfigInput, type EngineFixtures, type LedgerEngine } from "./ledger/index.ts";

/** setInterval's longest delay; a longer one would fire every millisecond. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Named deviations `--fault` switches on (src/node/faults/). */
export { FAULT_NAMES, FAULTS, UnknownFaultError, type Fault, type FaultArea } from "./faults/index.ts";

export interface StartNodeOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  readonly profile?: ProfileName;
  /** Overrides the profile's header prefix. */
  readonly headerPrefix?: string;
  readonly bodyLimit?: number;
  /** false: submission is 403 api_disabled. */
  readonly submit?: boolean;
  readonly seed?: string;
  readonly pruneWindow?: bigint | number;
  readonly blockIntervalMs?: number;
  readonly mempoolCapacity?: number;
  readonly genesisVersions?: number;
  readonly clock?: Clock;
  /** Any other engine knob (chainId, epochBlocks, …); the named options above take precedence. */
  readonly engine?: EngineConfigInput;
  /** The interface description served at /v1/spec*; schemas/openapi.yaml by default. */
  readonly specPath?: string;
  /** Named faults to switch on (FAULT_NAMES); an unknown name throws UnknownFaultError. */
  readonly faults?: readonly string[];
  /** Where a 500 (a bug, or a fault that makes one) is reported; stderr by default. */
  readonly onInternalError?: (error: unknown, request: FastifyRequest) => void;
  /** Called once the engine exists and before the node listens (the CLI writes --fixtures-out here). */
  readonly beforeListen?: (fixtures: EngineFixtures) => void | Promise<void>;
}

export interface RunningNode {
  /** Base URL including /v1, e.g. http://127.0.0.1:40123/v1. */
  readonly url: string;
  readonly fixtures: EngineFixtures;
  readonly clock: Clock;
  readonly engine: LedgerEngine;
  close(): Promise<void>;
}

export async function startNode(options: StartNodeOptions = {}): Promise<RunningNode> {
  const ledger = startLedger(options);
  try {
    await options.beforeListen?.(ledger.fixtures);
    const face = await openFace(ledger, options);
    return {
      url: face.url,
      fixtures: ledger.fixtures,
      clock: ledger.clock,
      engine: ledger.engine,
      async close() {
        ledger.stop();
        await face.close();
      },
    };
  } catch (error) {
    ledger.stop();
    throw error;
  }
}

/** What the engine needs of StartNodeOptions: everything but the HTTP face's own settings. */
export type LedgerOptions = Pick<
  StartNodeOptions,
  "submit" | "seed" | "pruneWindow" | "blockIntervalMs" | "mempoolCapacity" | "genesisVersions" | "clock" | "engine"
>;

/** A ledger engine after genesis, its blocks produced on a timer: one or more HTTP faces serve it. */
export interface RunningLedger {
  readonly engine: LedgerEngine;
  readonly fixtures: EngineFixtures;
  readonly clock: Clock;
  /** Stops producing blocks (the faces are closed by their own close). */
  stop(): void;
}

export function startLedger(options: LedgerOptions = {}): RunningLedger {
  const { engine, fixtures, config } = createEngine({
    ...options.engine,
    seed: options.seed,
    pruneWindow: options.pruneWindow,
    blockIntervalMs: options.blockIntervalMs,
    mempoolCapacity: options.mempoolCapacity,
    genesisVersions: options.genesisVersions,
    clock: options.clock,
    submissionEnabled: options.submit ?? true,
  });
  // Blocks are produced even when nobody asks (so submissions commit); unref'd so it never keeps the
  // process alive. With a ManualClock it finds nothing due until the test advances the clock.
  const producer = setInterval(
    () => {
      try {
        engine.tick();
      } catch (error) {
        console.error("block producer failed:", error);
      }
    },
    Math.min(config.blockIntervalMs, MAX_TIMER_MS),
  );
  producer.unref();
  return { engine, fixtures, clock: config.clock, stop: () => clearInterval(producer) };
}

/** Interface descriptions by path, read and parsed once per process however many faces serve one. */
const specDocuments = new Map<string, SpecDocument>();
function specDocument(path: string): SpecDocument {
  let document = specDocuments.get(path);
  if (document === undefined) {
    document = loadSpecDocument(path);
    specDocuments.set(path, document);
  }
  return document;
}

/** What the HTTP face of StartNodeOptions takes: where it listens, its profile, its faults. */
export type FaceOptions = Pick<
  StartNodeOptions,
  "port" | "host" | "profile" | "headerPrefix" | "bodyLimit" | "submit" | "specPath" | "faults" | "onInternalError"
>;

export interface RunningFace {
  /** Base URL including /v1. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * An HTTP face over a running ledger, on its own port, with its own profile and faults. Several faces
 * may serve one ledger: the fault self-check serves many faulty nodes over one genesis this way.
 */
export async function openFace(ledger: RunningLedger, options: FaceOptions = {}): Promise<RunningFace> {
  const submit = options.submit ?? true;
  const profile = profileSettings(options.profile ?? "node", options.headerPrefix);
  const { config } = ledger.engine;
  const faults = activateFaults(options.faults ?? [], {
    profile,
    clock: config.clock,
    domain: config.domain,
    node: ledger.engine,
  });
  const app = buildApp({
    engine: ledger.engine,
    profile,
    spec: specDocument(options.specPath ?? DEFAULT_SPEC_PATH),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    submitEnabled: submit,
    faults,
    ...(options.onInternalError === undefined ? {} : { onInternalError: options.onInternalError }),
  });
  let address: string;
  try {
    address = await app.listen({ port: options.port ?? 0, host: options.host ?? "127.0.0.1" });
  } catch (error) {
    await app.close();
    throw error;
  }
  return { url: `${address}/v1`, close: () => app.close() };
}
