// The load mode's one run per file: the plan (plan.ts), N readers (readers.ts) and the writers
// (writers.ts) at once until the deadline, the writers' commits awaited, then every law under load
// decided over what the load saw. The first check of properties/under-load.test.ts to ask runs it; the
// others wait for the same outcome, each reading its own law's tally. The profile and what the observed
// contract found of every answer go to the check that ran it.

import {
  answeredUnderLoad,
  LawTally,
  type CheckContext,
  type LoadProfile,
  LoadTraffic,
  loadProfileOf,
  monotonicUnderLoad,
  runMemoryKey,
  useRunSeed,
} from "../../../src/harness/index.ts";
import { currentWindow } from "../ledger-window.ts";
import { nextSequenceNumber } from "../submission.ts";
import { loadPlan } from "./plan.ts";
import { readUntil, type ReaderTallies, type Walk } from "./readers.ts";
import { clientRandom } from "./random.ts";
import { judgeWriter, writeUntil, type Writer, type WriterTallies } from "./writers.ts";

/** The laws under load, by requirement id (schemas/requirements/under-load.yaml). */
export const LOAD_LAWS = {
  monotonic: "2.7/monotonic-under-load",
  snapshot: "4/snapshot-under-load",
  cursorWalk: "4.5/cursor-walk-under-load",
  atMostOnce: "4.8/committed-at-most-once",
  allCommitted: "4.8/accepted-committed-under-load",
  answered: "7.1/answered-under-load",
} as const;

export type LoadLawId = (typeof LOAD_LAWS)[keyof typeof LOAD_LAWS];

export interface LoadOutcome {
  readonly laws: ReadonlyMap<LoadLawId, LawTally>;
  readonly profile: LoadProfile;
  /** Why the writers' laws could not be decided at all (no writers), if so. */
  readonly writersSkipped: string | undefined;
}

/** The run's load, once started. */
const LOAD = runMemoryKey("the load", (): { outcome?: Promise<LoadOutcome> } => ({}));

/** The load's outcome: run by the first check that asks, shared by the others of the run. */
export function underLoad(t: CheckContext): Promise<LoadOutcome> {
  const load = t.remembered(LOAD);
  load.outcome ??= runLoad(t);
  return load.outcome;
}

async function runLoad(t: CheckContext): Promise<LoadOutcome> {
  const settings = t.config.load;
  if (settings === undefined) throw new Error("underLoad: the run has no --load");
  const seed = useRunSeed(t.config);
  const plan = await loadPlan(t);
  const fromVersion = (await currentWindow(t)).latest;
  const traffic = new LoadTraffic(t);
  const readerTallies: ReaderTallies = { snapshot: new LawTally(), walks: [], listingSizes: new Map() };
  const writerTallies: WriterTallies = { atMostOnce: new LawTally(), allCommitted: new LawTally(), publishedAt: new Map() };
  const writers: Writer[] = [];
  for (const [i, setup] of plan.writers.entries()) {
    writers.push({
      traffic,
      setup,
      clients: [traffic.client(`writer ${i + 1}`), traffic.client(`writer ${i + 1} (second connection)`)],
      random: clientRandom(seed, 1_000 + i),
      accepted: [],
      sequenceNumber: await nextSequenceNumber(t, setup),
      committed: [],
      nextVersion: fromVersion,
      unreadBelow: undefined,
      unreadNewest: undefined,
    });
  }
  const headerPrefix = t.profile.headerPrefix;
  const readers = Array.from({ length: settings.clients }, (_, i) => ({
    traffic,
    client: traffic.client(`reader ${i + 1}`),
    plan,
    random: clientRandom(seed, i),
    tallies: readerTallies,
    headerPrefix,
  }));

  const started = performance.now();
  const deadline = started + settings.durationMs;
  await Promise.all([...readers.map((r) => readUntil(r, deadline)), ...writers.map((w) => writeUntil(w, deadline))]);
  const durationMs = performance.now() - started;
  await Promise.all(writers.map((writer) => judgeWriter(writer, writerTallies)));

  const laws = new Map<LoadLawId, LawTally>([
    [LOAD_LAWS.monotonic, monotonicUnderLoad(traffic.exchanges, headerPrefix)],
    [LOAD_LAWS.snapshot, readerTallies.snapshot],
    [LOAD_LAWS.cursorWalk, cursorWalkLaw(readerTallies.walks, writerTallies.publishedAt, plan.writersSkipped)],
    [LOAD_LAWS.atMostOnce, writerTallies.atMostOnce],
    [LOAD_LAWS.allCommitted, writerTallies.allCommitted],
    [LOAD_LAWS.answered, answeredUnderLoad(traffic.exchanges)],
  ]);
  const profile = loadProfileOf(
    traffic.exchanges,
    {
      clients: settings.clients,
      writers: writers.length,
      ...(plan.writersSkipped === undefined ? {} : { writersSkipped: plan.writersSkipped }),
      durationMs,
      laws: [...laws].map(([id, tally]) => ({ id, decided: tally.decided, anomalies: tally.anomalyCount })),
    },
    t.contract.operations.map((o) => o.id),
  );
  await traffic.close(profile);
  return { laws, profile, writersSkipped: plan.writersSkipped };
}

/**
 * 4.5/cursor-walk-under-load: a walk decides the law when a module was published at its account inside
 * it (after the version it is pinned at, by the last answer it got); a walk that disagrees with the
 * listing fails it whether or not one was.
 */
function cursorWalkLaw(
  walks: readonly Walk[],
  publishedAt: ReadonlyMap<string, readonly bigint[]>,
  writersSkipped: string | undefined,
): LawTally {
  const tally = new LawTally();
  for (const walk of walks) {
    if (walk.disagreement !== undefined) {
      tally.fail(walk.disagreement);
      continue;
    }
    const published = publishedAt.get(walk.account) ?? [];
    if (published.some((v) => v > walk.version && v <= walk.latest)) tally.decide();
  }
  if (tally.decided === 0) {
    tally.undecided(
      walks.length === 0
        ? "no walk of a module listing ran to its end under load"
        : `no module was published at a walked account while a walk was under way (${walks.length} walks)${writersSkipped === undefined ? "" : `; the load had no writers: ${writersSkipped}`}`,
    );
  }
  return tally;
}
