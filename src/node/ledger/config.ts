// The engine's configuration: every knob with its default, checked once so the rest of the engine can
// trust it.

import { SystemClock, type Clock } from "./clock.ts";

export interface EngineConfig {
  /** Genesis is a pure function of the seed (and of the clock's time at start). */
  readonly seed: string;
  readonly chainId: number;
  /** How many versions the pruner keeps: the oldest version is `latest - pruneWindow + 1`. */
  readonly pruneWindow: bigint;
  /** A block is produced every this many milliseconds of the clock. */
  readonly blockIntervalMs: number;
  /** The epoch changes every this many blocks. */
  readonly epochBlocks: number;
  /** Pending transactions the mempool holds in all; one more is 507 mempool_is_full. */
  readonly mempoolCapacity: number;
  /** Pending transactions one sender may have; one more is 507 mempool_is_full too (as Aptos). */
  readonly mempoolCapacityPerSender: number;
  /** User transactions a block takes at most; a block that reaches it is full. */
  readonly blockTransactionCapacity: number;
  /** Gas units a block may use; a block that reaches it is full. */
  readonly blockGasLimit: number;
  /** How many versions genesis creates (the genesis transaction at 0 and the history after it). */
  readonly genesisVersions: number;
  readonly minGasUnitPrice: bigint;
  /** The signing and hashing domain prefix ("APTOS" in the family's nodes). */
  readonly domain: string;
  /** When false, submit throws 403 api_disabled. */
  readonly submissionEnabled: boolean;
  /**
   * Transfers the transactions account sends after each block, so that the account keeps recent
   * summaries however long the node runs (its early ones fall out of the pruning window). 0 disables.
   */
  readonly backgroundTransfersPerBlock: number;
  /** Whether info() first catches up with the clock (produces the blocks that are due). */
  readonly autoTick: boolean;
  /** After a long pause, at most this many blocks are produced to catch up; the rest is skipped. */
  readonly maxCatchUpBlocks: number;
  readonly clock: Clock;
}

/** Committed transactions the transactions account has at genesis (the suite's pagination checks want at least 250). */
export const GENESIS_TRANSFERS = 300;
/** Enough for the genesis transfers to go one per block, whatever the block limits. */
export const MIN_GENESIS_VERSIONS = 1_000;

export const DEFAULT_CONFIG: Omit<EngineConfig, "clock"> = {
  seed: "ledger-conformance",
  chainId: 4,
  pruneWindow: 1_000n,
  blockIntervalMs: 1_000,
  epochBlocks: 3_600,
  mempoolCapacity: 1_000,
  mempoolCapacityPerSender: 100,
  blockTransactionCapacity: 100,
  blockGasLimit: 20_000,
  genesisVersions: 2_000,
  minGasUnitPrice: 100n,
  domain: "APTOS",
  submissionEnabled: true,
  backgroundTransfersPerBlock: 1,
  autoTick: true,
  maxCatchUpBlocks: 120,
};

export type EngineConfigInput = Partial<Omit<EngineConfig, "pruneWindow" | "minGasUnitPrice">> & {
  readonly pruneWindow?: bigint | number;
  readonly minGasUnitPrice?: bigint | number;
};

export class EngineConfigError extends Error {
  override readonly name = "EngineConfigError";
}

/** Fills in the defaults and rejects values the engine cannot run with. */
export function resolveConfig(input: EngineConfigInput = {}): EngineConfig {
  const config: EngineConfig = {
    ...DEFAULT_CONFIG,
    ...withoutUndefined(input),
    pruneWindow: BigInt(input.pruneWindow ?? DEFAULT_CONFIG.pruneWindow),
    minGasUnitPrice: BigInt(input.minGasUnitPrice ?? DEFAULT_CONFIG.minGasUnitPrice),
    clock: input.clock ?? new SystemClock(),
  };
  const problems: string[] = [];
  const positiveInteger = (name: keyof EngineConfig, value: number) => {
    if (!Number.isSafeInteger(value) || value < 1) problems.push(`${name} must be a positive integer, got ${value}`);
  };
  if (typeof config.seed !== "string" || config.seed.length === 0) problems.push("seed must be a non-empty string");
  if (!Number.isInteger(config.chainId) || config.chainId < 0 || config.chainId > 255)
    problems.push(`chainId must be an integer in 0..255, got ${config.chainId}`);
  if (config.pruneWindow < 1n) problems.push(`pruneWindow must be at least 1, got ${config.pruneWindow}`);
  positiveInteger("blockIntervalMs", config.blockIntervalMs);
  positiveInteger("epochBlocks", config.epochBlocks);
  positiveInteger("mempoolCapacity", config.mempoolCapacity);
  positiveInteger("mempoolCapacityPerSender", config.mempoolCapacityPerSender);
  positiveInteger("blockTransactionCapacity", config.blockTransactionCapacity);
  positiveInteger("blockGasLimit", config.blockGasLimit);
  positiveInteger("maxCatchUpBlocks", config.maxCatchUpBlocks);
  if (!Number.isSafeInteger(config.genesisVersions) || config.genesisVersions < MIN_GENESIS_VERSIONS)
    problems.push(`genesisVersions must be an integer of at least ${MIN_GENESIS_VERSIONS}, got ${config.genesisVersions}`);
  if (!Number.isSafeInteger(config.backgroundTransfersPerBlock) || config.backgroundTransfersPerBlock < 0)
    problems.push(`backgroundTransfersPerBlock must be a non-negative integer, got ${config.backgroundTransfersPerBlock}`);
  if (config.minGasUnitPrice < 1n) problems.push(`minGasUnitPrice must be at least 1, got ${config.minGasUnitPrice}`);
  if (!/^[A-Za-z0-9_]+$/.test(config.domain)) problems.push(`domain must be an identifier, got ${JSON.stringify(config.domain)}`);
  if (problems.length > 0) throw new EngineConfigError(`invalid engine configuration: ${problems.join("; ")}`);
  return config;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
