// One fast-check seed for the whole run, printed once, so that every run can be replayed (issue:
// "every run prints its seed"). runProperty passes --seed to fast-check when it is given; otherwise
// fast-check would pick a fresh seed per property and report it only on failure. So when no --seed was
// given this derives one seed from the run's private state directory (the same for every worker of the
// run, different for every run) and installs it as fast-check's global default seed, which fc.check
// uses whenever its own parameters name none. The first worker to get here prints it; a failure's replay command names the same seed.

import { createHash } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import type { RunConfig } from "./config.ts";

let installed: number | undefined;

/** Installs the run's seed as fast-check's default (once per worker) and prints it (once per run). */
export function useRunSeed(config: RunConfig): number {
  if (installed !== undefined) return installed;
  const seed = config.seed ?? seedOf(config.stateDir);
  if (config.seed === undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
  installed = seed;
  if (firstInRun(config.stateDir)) {
    const source = config.seed === undefined ? "chosen for this run" : "from --seed";
    // Straight to the file descriptor: vitest does not pass a worker's process.stdout on to the command's output.
    writeSync(config.infoFd ?? 1, `properties: seed ${seed} (${source}; replay the whole run with --seed ${seed})\n`);
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
