// A change the target made inside its window, from the fixtures' `history` member (our extension of
// the fixtures file): the one way to tell a read at an older ledger_version from a read at the latest. Without
// it, or when the change has since been pruned (before the check, or while it runs: ledger-window.ts's
// notApplicableIfPrunedSince), the check is not applicable, never passed.

import { CheckNotApplicable, type CheckContext, type HistoryFixture } from "../../src/harness/index.ts";
import { ledgerWindow } from "./ledger-window.ts";

export interface KnownChange<T> {
  readonly fixture: T;
  /** The version that made the change. */
  readonly at: bigint;
  /** The version just before it, still inside the window. */
  readonly before: bigint;
}

export async function knownChange<K extends keyof HistoryFixture>(
  t: CheckContext,
  member: K,
): Promise<KnownChange<NonNullable<HistoryFixture[K]>>> {
  const fixture = t.needsFixture("history")[member];
  if (fixture === undefined) throw new CheckNotApplicable(`needs fixture "history.${member}"`);
  const at = BigInt(fixture.version);
  if (at === 0n) throw new CheckNotApplicable(`history.${member}.version is 0: there is no version before it`);
  // Any 200 carries the window (§2.7); health without a duration is 200 on a serving node.
  const res = await t.request({ path: "/-/healthy" });
  t.expectStatus(res, 200);
  const window = ledgerWindow(t, res);
  if (at - 1n < window.oldest) {
    throw new CheckNotApplicable(
      `history.${member}.version ${at} has been pruned: version ${at - 1n} is below ${t.headerName("LEDGER-OLDEST-VERSION")} ${window.oldest}`,
    );
  }
  if (at > window.latest)
    throw new CheckNotApplicable(`history.${member}.version ${at} is above ${t.headerName("LEDGER-VERSION")} ${window.latest}`);
  return { fixture: fixture as NonNullable<HistoryFixture[K]>, at, before: at - 1n };
}
