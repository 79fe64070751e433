// Laws under load (--load N): N concurrent clients read, each on connections of its own, while writers
// submit transfers and publish small modules at their own accounts (where the run may submit); every
// answer meets the contract as usual, and the answers must agree with one another as answers of one
// ledger do. What each law demands is in schemas/requirements/under-load.yaml; how the load is made,
// in suites/support/load/. Each failure shows the exchanges that disagree, as curl lines with the time
// each was sent and how long its answer took.
//
// Without --load there is no load to judge: the laws are not applicable.

import { check, CheckNotApplicable, CheckSkipped, configAtCollection, judgeTally, type CheckContext } from "../src/harness/index.ts";
import { COMMIT_TIMEOUT_MS } from "../suites/support/submission.ts";
import { LOAD_LAWS, underLoad, type LoadLawId } from "../suites/support/load/under-load.ts";

/** A law's check waits for the load, then the writers' commits and their summaries read back, then margin. */
const LAW_TIMEOUT_MS = (configAtCollection()?.load?.durationMs ?? 0) + COMMIT_TIMEOUT_MS * 3 + 60_000;

/** The laws that need the writers: skipped, with the reason, when the run may not submit. */
const WRITERS_LAWS: ReadonlySet<LoadLawId> = new Set([LOAD_LAWS.atMostOnce, LOAD_LAWS.allCommitted]);

async function judge(t: CheckContext, id: LoadLawId): Promise<void> {
  if (t.config.load === undefined) throw new CheckNotApplicable("a law under load: run with --load N (N concurrent clients) to check it");
  const outcome = await underLoad(t);
  if (WRITERS_LAWS.has(id) && outcome.writersSkipped !== undefined) {
    throw new CheckSkipped(`needs the load's writers, and the load had none: ${outcome.writersSkipped}`);
  }
  const tally = outcome.laws.get(id);
  if (tally === undefined) throw new Error(`no tally for ${id}`);
  judgeTally(t, tally);
}

for (const id of Object.values(LOAD_LAWS)) {
  check(id, { timeoutMs: LAW_TIMEOUT_MS }, (t) => judge(t, id));
}
