// A process builds the genesis of a configuration once and gives the next engine of that configuration
// a copy, its blocks moved to the new engine's time. A genesis costs about 0.2 CPU-s, most of it the
// transactions account's transfers (signed, verified and executed one by one); a copy costs a few
// milliseconds. The project's own tests start some 160 nodes, most of them in a few processes.
//
// A copy is what a genesis built now would be, but for the transfers' expiration times, which stay
// those of the genesis it copies (they are signed): so a genesis is reused only within a tenth of the
// transfers' time to live (a minute of ten) of the time it was built at, and every transfer still
// expires after the block that commits it.

import type { EngineConfig } from "../config.ts";
import type { Ledger } from "../ledger.ts";
import { TRANSFER_TTL_SECONDS, type GenesisReport } from "./index.ts";

/** How far from the time a genesis was built at a copy of it may start: a tenth of the transfers' time to live. */
const REUSE_WITHIN_USEC = (TRANSFER_TTL_SECONDS * 1_000_000n) / 10n;
/** Larger geneses are built each time: a copy of one would hold megabytes for as long as the process runs. */
const MAX_REUSED_VERSIONS = 20_000;
/** Configurations kept at once; the oldest kept is dropped first. */
const MAX_KEPT = 4;

/** A genesis: its ledger and what genesis did. The one kept is never served: each engine gets a copy. */
interface Built {
  readonly ledger: Ledger;
  readonly genesis: GenesisReport;
}

const built = new Map<string, Built>();

/** A copy of a genesis, its blocks `shiftUsec` later, that shares nothing changeable with it. */
function copyOf(genesis: Built, shiftUsec: bigint): Built {
  return { ledger: genesis.ledger.copy(shiftUsec), genesis: { ...genesis.genesis, bot: genesis.genesis.bot.copy() } };
}

/** Everything of the configuration that genesis depends on: all but the clock, whose time a copy follows. */
function keyOf(config: EngineConfig): string {
  const { clock: _clock, ...rest } = config;
  return JSON.stringify(rest, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value));
}

/** A copy of the genesis built for `config`, at the clock's time now; undefined when there is none to copy. */
export function reusedGenesis(config: EngineConfig): Built | undefined {
  const kept = built.get(keyOf(config));
  if (kept === undefined) return undefined;
  const shiftUsec = config.clock.nowUsec() - kept.ledger.blocks.latest().timestampUsec;
  if (shiftUsec > REUSE_WITHIN_USEC || -shiftUsec > REUSE_WITHIN_USEC) return undefined;
  return copyOf(kept, shiftUsec);
}

/**
 * Keeps a copy of a genesis just built for `config`, for the next engine of that configuration. Called
 * before the engine does anything else, while the ledger is genesis alone and the mempool empty.
 */
export function keepForReuse(config: EngineConfig, ledger: Ledger, genesis: GenesisReport): void {
  if (config.genesisVersions > MAX_REUSED_VERSIONS) return;
  const key = keyOf(config);
  built.delete(key);
  built.set(key, copyOf({ ledger, genesis }, 0n));
  for (const oldest of built.keys()) {
    if (built.size <= MAX_KEPT) break;
    built.delete(oldest);
  }
}

/** Forgets every genesis kept: the next engine of any configuration builds its own (for tests of genesis itself). */
export function forgetBuiltGeneses(): void {
  built.clear();
}
