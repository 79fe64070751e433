// The ledger window a successful response reports (§2.7): its current version and the oldest version
// not yet pruned. Checks pick the versions they ask for from it, never constants, so they hold on any
// node whatever its history and however much it prunes.

import { CheckNotApplicable, type CheckContext, type HttpResponse } from "../../src/harness/index.ts";

export const U64_MAX = (1n << 64n) - 1n;

export interface LedgerWindow {
  /** X-NODE-LEDGER-VERSION. */
  readonly latest: bigint;
  /** X-NODE-LEDGER-OLDEST-VERSION. */
  readonly oldest: bigint;
}

/**
 * The window of `res`. Without both headers as u64 the check cannot pick versions: it ends
 * not_applicable (the missing header itself is a failure of 2.7/required-headers-on-success).
 */
export function ledgerWindow(t: CheckContext, res: HttpResponse): LedgerWindow {
  return { latest: u64Header(t, res, "LEDGER-VERSION"), oldest: u64Header(t, res, "LEDGER-OLDEST-VERSION") };
}

/** The version `numerator/denominator` of the way from the oldest to the latest version. */
export function versionAt(window: LedgerWindow, numerator: bigint, denominator: bigint): bigint {
  const span = window.latest > window.oldest ? window.latest - window.oldest : 0n;
  return window.oldest + (span * numerator) / denominator;
}

function u64Header(t: CheckContext, res: HttpResponse, suffix: string): bigint {
  const value = t.header(res, suffix);
  if (value === undefined || !/^[0-9]{1,20}$/.test(value) || BigInt(value) > U64_MAX) {
    throw new CheckNotApplicable(`needs ${t.headerName(suffix)} as a u64 on the ${res.status} answer to pick ledger versions (found ${JSON.stringify(value)})`);
  }
  return BigInt(value);
}
