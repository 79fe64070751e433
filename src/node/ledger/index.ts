// The ledger engine's entry point: createEngine builds the chain from its configuration (genesis
// included) and returns the engine with the fixtures (the suite's fixtures file) that describe it.

import { BlockProducer } from "./block-producer.ts";
import { resolveConfig, type EngineConfig, type EngineConfigInput } from "./config.ts";
import { LedgerEngine } from "./engine.ts";
import { Executor } from "./executor.ts";
import { runGenesis, type EngineFixtures, type GenesisReport } from "./genesis/index.ts";
import { keepForReuse, reusedGenesis } from "./genesis/reuse.ts";
import { Ledger } from "./ledger.ts";
import { Mempool } from "./mempool.ts";

export interface CreatedEngine {
  readonly engine: LedgerEngine;
  readonly fixtures: EngineFixtures;
  /** What genesis did: its keys, tables and the versions of its notable changes. */
  readonly genesis: GenesisReport;
  readonly config: EngineConfig;
}

export function createEngine(input: EngineConfigInput = {}): CreatedEngine {
  const config = resolveConfig(input);
  // The genesis this process built for the configuration, copied (genesis/reuse.ts); else built now.
  const reused = reusedGenesis(config);
  const ledger = reused?.ledger ?? new Ledger(config.chainId, config.pruneWindow);
  const mempool = new Mempool(config.mempoolCapacity, config.mempoolCapacityPerSender);
  const producer = new BlockProducer(ledger, mempool, new Executor(ledger.state), {
    epochBlocks: config.epochBlocks,
    transactionCapacity: config.blockTransactionCapacity,
    gasLimit: config.blockGasLimit,
    minGasUnitPrice: config.minGasUnitPrice,
  });
  const engine = new LedgerEngine(config, ledger, mempool, producer);
  let genesis = reused?.genesis;
  if (genesis === undefined) {
    genesis = runGenesis({ config, ledger, producer, submit: (signed) => engine.admit(signed) });
    // Genesis commits every transfer it submits, each in its own block: the mempool is empty again.
    if (mempool.size === 0) keepForReuse(config, ledger, genesis);
  }
  if (config.backgroundTransfersPerBlock > 0) engine.keepBusy(genesis.bot);
  return { engine, fixtures: genesis.fixtures, genesis, config };
}

export { LedgerEngine } from "./engine.ts";
export { moduleCursor } from "./engine.ts";
export { DEFAULT_CONFIG, EngineConfigError, resolveConfig, type EngineConfig, type EngineConfigInput } from "./config.ts";
export { ManualClock, SystemClock, type Clock } from "./clock.ts";
export type { EngineFixtures, GenesisReport } from "./genesis/index.ts";
export * from "./api.ts";
