// The ledger window a successful response reports (§2.7): its current version and the oldest version
// not yet pruned. Checks and properties pick the versions they ask for from it, never constants, so they
// hold on any node whatever its history and however much it prunes. The headers are read by the
// harness's ledgerState (one parser); this file decides what a check does when they are missing.

import { CheckNotApplicable, type CheckContext, type HttpResponse, type LedgerWindow } from "../../src/harness/index.ts";

export { U64_MAX, versionAt, type LedgerWindow } from "../../src/harness/index.ts";

/** Properties generate positions as parts per million of a span, so a shrunk counterexample stays meaningful on any node. */
export const PPM = 1_000_000;

/**
 * The window of `res`. Without both headers as u64 the check cannot pick versions: it ends
 * not_applicable (the missing header itself is a failure of 2.7/required-headers-on-api-success).
 */
export function ledgerWindow(t: CheckContext, res: HttpResponse): LedgerWindow {
  const s = t.ledgerState(res);
  const need = (value: bigint | undefined, suffix: string): bigint => {
    if (value !== undefined) return value;
    throw new CheckNotApplicable(
      `needs ${t.headerName(suffix)} as a u64 on the ${res.status} answer to pick ledger versions (found ${JSON.stringify(t.header(res, suffix))})`,
    );
  };
  return { latest: need(s.ledgerVersion, "LEDGER-VERSION"), oldest: need(s.oldestVersion, "LEDGER-OLDEST-VERSION") };
}

/**
 * The window now, with its timestamp: GET /-/healthy without duration_secs, which a node answers 200
 * whenever it can read its latest ledger info (§4.7), with the §2.7 headers. Fails the check when they
 * are missing (a property's generated positions need them).
 */
export async function currentWindow(t: CheckContext): Promise<LedgerWindow & { readonly timestampUsec: bigint }> {
  const res = await t.request({ path: "/-/healthy" });
  t.expectStatus(res, 200);
  const s = t.ledgerState(res);
  t.expect(
    s.oldestVersion !== undefined && s.ledgerVersion !== undefined && s.timestampUsec !== undefined,
    `${t.headerName("LEDGER-OLDEST-VERSION")}, ${t.headerName("LEDGER-VERSION")} and ${t.headerName("LEDGER-TIMESTAMPUSEC")} as u64 on a 200 (§2.7)`,
    res,
  );
  return { oldest: s.oldestVersion as bigint, latest: s.ledgerVersion as bigint, timestampUsec: s.timestampUsec as bigint };
}

/**
 * A read at `version` (picked from a window seen earlier) that the node answers 410 because it has
 * pruned that version since: its own answer says so, with a LEDGER-OLDEST-VERSION above it. A node whose
 * window moves on with every block can prune a version near the edge between two requests of one check,
 * more so behind a slow link; that answer is right, and says nothing about what the check reads, so the
 * check ends not_applicable. A 410 whose oldest version does not pass `version` is left for the check to
 * judge (a node that calls a retained version pruned fails it).
 */
export function notApplicableIfPrunedSince(t: CheckContext, res: HttpResponse, version: bigint): void {
  if (res.status !== 410) return;
  const oldest = t.ledgerState(res).oldestVersion;
  if (oldest === undefined || oldest <= version) return;
  throw new CheckNotApplicable(
    `version ${version} was pruned while the check ran: the ${res.status} answer reports ${t.headerName("LEDGER-OLDEST-VERSION")} ${oldest}`,
  );
}
