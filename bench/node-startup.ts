// Start-up time and memory: the `ledger-node` command as a child process (spawn to `listening on`, and
// its resident memory then), and genesis alone in this process (createEngine's wall time and the heap
// it keeps), for the default genesis and larger ones.

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createEngine, DEFAULT_CONFIG, ManualClock } from "../src/node/ledger/index.ts";
import { formatMiB, formatNumber, formatVersions, printTable } from "./format.ts";
import { processMemory, startChildNode } from "./node-process.ts";
import type { BenchOptions } from "./options.ts";
import { median } from "./stats.ts";

/** A large genesis: the start-up figure at a million versions, a long-lived chain's size. */
const LARGE_GENESIS = 1_000_000;

export async function runNodeStartup(options: BenchOptions): Promise<void> {
  await childStartup(options);
  inProcessGenesis(options);
}

async function childStartup(options: BenchOptions): Promise<void> {
  const configurations = [
    { label: `default (${formatNumber(DEFAULT_CONFIG.genesisVersions)} versions)`, args: [] as string[] },
    { label: `--genesis-versions ${LARGE_GENESIS}`, args: ["--genesis-versions", String(LARGE_GENESIS)] },
  ];
  const rows: string[][] = [];
  for (const { label, args } of configurations) {
    const times: number[] = [];
    const rss: number[] = [];
    const peaks: number[] = [];
    for (let run = 0; run < options.startupRuns; run++) {
      const node = await startChildNode(args);
      try {
        const memory = processMemory(node.pid);
        times.push(node.startupMs);
        rss.push(memory.rssBytes);
        peaks.push(memory.peakRssBytes);
      } finally {
        await node.stop();
      }
    }
    rows.push([label, formatNumber(median(times)), formatNumber(Math.min(...times)), formatMiB(median(rss)), formatMiB(median(peaks))]);
  }
  printTable({
    title: `Start-up of ledger-node (child process, median of ${options.startupRuns} starts)`,
    columns: [
      { header: "genesis" },
      { header: "spawn → listening ms", align: "right" },
      { header: "fastest ms", align: "right" },
      { header: "RSS MiB", align: "right" },
      { header: "peak RSS MiB", align: "right" },
    ],
    rows,
    notes: [
      "The time includes starting node, loading the TypeScript sources through tsx and reading the OpenAPI document.",
      "RSS is VmRSS from /proc/<pid>/status read once the node listens; peak is VmHWM (the high-water mark during genesis).",
    ],
  });
}

function inProcessGenesis(options: BenchOptions): void {
  const gc = exposeGc();
  // Untimed: the first genesis in a process also pays for loading and compiling the engine's code.
  createEngine({ clock: new ManualClock(Date.now()) });
  const rows: string[][] = [];
  for (const versions of options.versions) {
    gc();
    const before = process.memoryUsage();
    const started = performance.now();
    const created = createEngine({ genesisVersions: versions, clock: new ManualClock(Date.now()) });
    const ms = performance.now() - started;
    gc();
    const after = process.memoryUsage();
    rows.push([
      formatVersions(versions),
      formatNumber(ms),
      formatMiB(after.heapUsed - before.heapUsed),
      formatMiB(after.external - before.external),
      formatNumber(Number(created.engine.info().blockHeight)),
    ]);
  }
  printTable({
    title: "Genesis in-process: createEngine({ genesisVersions }) with the default pruning window",
    columns: [
      { header: "versions" },
      { header: "wall ms", align: "right" },
      { header: "heap Δ MiB", align: "right" },
      { header: "external Δ MiB", align: "right" },
      { header: "block height", align: "right" },
    ],
    rows,
    notes: ["Heap and external (ArrayBuffer) growth after a full GC, with the engine still alive."],
  });
}

/**
 * A full collection, without asking the caller to start node with --expose-gc. Run twice: the memory of
 * ArrayBuffers freed by the first pass is only given back to the counters by a later one.
 */
function exposeGc(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  return () => {
    gc();
    gc();
  };
}
