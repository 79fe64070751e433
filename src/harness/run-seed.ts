// One fast-check seed for the whole run, printed once, so that every run can be replayed. It is
// --seed when given; otherwise one derived from the run's private state directory (the same for every
// worker of the run, different for every run). runProperty passes it to fast-check explicitly: a worker may serve several runs (runsByFolder), so it is kept per run,
// never installed as fast-check's global default. The first worker to get here prints it; a failure's
// replay command names the same seed.

import { createHash } from "node:crypto";
import { appendFileSync, closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { RunConfig } from "./config.ts";

/** The seeds chosen for runs without --seed, by run (its state directory; "" for a run without one). */
const chosen = new Map<string, number>();
/** The runs whose seed line this worker has seen to. */
const announced = new Set<string>();

/** The run's seed (--seed, else one chosen for the run); printed once per run, by the first worker to ask. */
export function useRunSeed(config: RunConfig): number {
  const key = config.stateDir ?? "";
  let seed = config.seed ?? chosen.get(key);
  if (seed === undefined) {
    seed = seedOf(config.stateDir);
    chosen.set(key, seed);
  }
  if (!announced.has(key)) {
    announced.add(key);
    if (firstInRun(config.stateDir)) {
      const source = config.seed === undefined ? "chosen for this run" : "from --seed";
      // Straight to the file descriptor: vitest does not pass a worker's process.stdout on to the command's output.
      const line = `properties: seed ${seed} (${source}; replay the whole run with --seed ${seed})\n`;
      if (config.infoFile !== undefined) appendFileSync(config.infoFile, line);
      else writeSync(config.infoFd ?? 1, line);
    }
  }
  return seed;
}

/** A 31-bit seed from the run's state directory, whose name mkdtemp made random; random without one. */
function seedOf(stateDir: string | undefined): number {
  if (stateDir === undefined) return Math.floor(Math.random() * 0x7fffffff);
  return createHash("sha256").update(stateDir).digest().readUInt32BE(0) & 0x7fffffff;
}

/** True for exactly one caller per run: whoever creates the marker file first. */
function firstInRun(stateDir: string | undefined): boolean {
  if (stateDir === undefined) return true;
  try {
    closeSync(openSync(join(stateDir, "properties-seed-printed"), "wx"));
    return true;
  } catch {
    return false;
  }
}
