// How the cost of a versioned read grows with the length of the chain: the engine's reads called
// in-process (no HTTP), at a random version inside the pruning window and at the latest, for genesis
// sizes from 10^4 to 10^6 versions. Each size runs twice: with the default window (what a node keeps)
// and with the window holding the whole history (the longest histories the store can have).

import { parseAddress } from "../src/codec/index.ts";
import { createEngine, DEFAULT_CONFIG, LedgerError, ManualClock } from "../src/node/ledger/index.ts";
import { VersionedStore } from "../src/node/ledger/versioned-store.ts";
import { formatNumber, formatVersions, printTable } from "./format.ts";
import type { BenchOptions } from "./options.ts";
import { seededRandom } from "../src/harness/seeded-random.ts";
import { median, randomBigIntBetween } from "./stats.ts";

/** Summaries asked for per read: a page, small enough that the lookup is not hidden by copying. */
const SUMMARY_LIMIT = 10;

/** One read; `version` undefined means the latest. Returns something so the call cannot be optimised away. */
type Read = (version: bigint | undefined) => number;

interface Cell {
  /** Median microseconds per read. */
  readonly micros: number;
  /** Share of reads that found nothing (404 from the engine, or an empty page). */
  readonly missRate: number;
}

export async function runNodeReadScaling(options: BenchOptions): Promise<void> {
  const rows: string[][] = [];
  for (const versions of options.versions) {
    for (const window of [DEFAULT_CONFIG.pruneWindow, BigInt(versions)]) {
      rows.push(measureChain(versions, window, options));
      // Yield between chains so the process can collect the previous engine.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  printTable({
    title: `Versioned reads in-process: µs per read, median of ${options.batches} batches of ~${options.batchMs} ms`,
    columns: [
      { header: "versions" },
      { header: "window", align: "right" },
      { header: "module random", align: "right" },
      { header: "module latest", align: "right" },
      { header: "table item random", align: "right" },
      { header: "table item latest", align: "right" },
      { header: "summaries random", align: "right" },
      { header: "summaries latest", align: "right" },
    ],
    rows,
    notes: [
      "module: getModule(0x1, coin); table item: getTableItem of the fixture key (parses both type tags and encodes the key too);",
      `summaries: transactionSummaries of the transactions account, limit ${SUMMARY_LIMIT} (random: ending at the version).`,
      "random: a seeded uniform version in the window [oldest, latest]; window: versions kept by the pruner.",
      "A percentage after a figure is the share of reads that found nothing at that version.",
      "Genesis commits 300 transfers however long it is (the other versions are block metadata), so no key's history",
      "grows with the chain: these reads stay flat by construction. The table below isolates the binary search.",
    ],
  });

  const storeRows = options.versions.map((versions) => measureStore(versions, options));
  printTable({
    title: `VersionedStore.get on one key written at every version: µs per read, median of ${options.batches} batches`,
    columns: [{ header: "entries" }, { header: "random version", align: "right" }, { header: "latest version", align: "right" }],
    rows: storeRows,
    notes: ["The worst case the store allows: a read is a binary search over the key's entries (about log2(entries) steps)."],
  });
}

/** A store whose one key has `entries` versions, read at random versions and at the latest. */
function measureStore(entries: number, options: BenchOptions): string[] {
  const store = new VersionedStore<number>();
  for (let v = 0; v < entries; v++) store.put("key", BigInt(v), v);
  const latest = BigInt(entries - 1);
  const read: Read = (version) => (store.get("key", version ?? latest) ?? -1) + 1;
  const random = seededRandom(entries);
  const randomCell = time(read, () => randomBigIntBetween(random, 0n, latest), options);
  const latestCell = time(read, () => undefined, options);
  return [formatVersions(entries), formatCell(randomCell), formatCell(latestCell)];
}

function measureChain(versions: number, window: bigint, options: BenchOptions): string[] {
  const { engine, fixtures } = createEngine({
    genesisVersions: versions,
    pruneWindow: window,
    // A still clock: no block is produced while reads are timed.
    clock: new ManualClock(Date.now()),
    backgroundTransfersPerBlock: 0,
  });
  const info = engine.info();
  const moduleAccount = parseAddress(fixtures.moduleAccount);
  const tableHandle = parseAddress(fixtures.table.handle);
  const tableRequest = { keyType: fixtures.table.keyType, valueType: fixtures.table.valueType, key: fixtures.table.key };
  const transactionsAccount = parseAddress(fixtures.transactionsAccount);

  const reads: readonly Read[] = [
    (version) => found(() => engine.getModule(moduleAccount, fixtures.moduleName, version).bytecode.length),
    (version) => found(() => engine.getTableItem(tableHandle, tableRequest, version).bcs.length),
    (version) => engine.transactionSummaries(transactionsAccount, { endVersion: version, limit: SUMMARY_LIMIT }).length,
  ];
  const random = seededRandom(versions + Number(window % 1_000_003n));
  const randomVersion = () => randomBigIntBetween(random, info.oldestLedgerVersion, info.ledgerVersion);

  const cells: string[] = [];
  for (const read of reads) {
    for (const at of ["random", "latest"] as const) {
      const cell = time(read, at === "random" ? randomVersion : () => undefined, options);
      cells.push(formatCell(cell));
    }
  }
  return [formatVersions(versions), formatNumber(Number(window)), ...cells];
}

/** A read's result size, or 0 when the engine says there is nothing at that version. */
function found(read: () => number): number {
  try {
    return read();
  } catch (error) {
    if (error instanceof LedgerError && error.status === 404) return 0;
    throw error;
  }
}

/** Calibrates a batch to ~batchMs, then times `batches` batches over pre-drawn versions. */
function time(read: Read, nextVersion: () => bigint | undefined, options: BenchOptions): Cell {
  let perBatch = 0;
  const calibrationEnd = performance.now() + options.batchMs;
  while (performance.now() < calibrationEnd) {
    read(nextVersion());
    perBatch++;
  }
  const versions = Array.from({ length: perBatch }, nextVersion);
  const samples: number[] = [];
  let misses = 0;
  let sink = 0;
  for (let batch = 0; batch < options.batches; batch++) {
    const started = performance.now();
    for (const version of versions) {
      const size = read(version);
      sink += size;
      if (size === 0) misses++;
    }
    samples.push(((performance.now() - started) * 1000) / versions.length);
  }
  if (sink < 0) throw new Error("unreachable: result sizes are never negative");
  return { micros: median(samples), missRate: misses / (versions.length * options.batches) };
}

function formatCell(cell: Cell): string {
  const micros = formatNumber(cell.micros, cell.micros < 10 ? 2 : 1);
  if (cell.missRate === 0) return micros;
  const percent = cell.missRate * 100;
  return `${micros} (${percent < 1 ? "<1" : formatNumber(percent)}% none)`;
}
