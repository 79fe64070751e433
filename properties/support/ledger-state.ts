// The §2.7 ledger state a response reports, read from its headers, and the window of versions a
// property may generate from. Properties never use constant versions: they place generated positions
// inside (or outside) the window the node itself reports.

import type { CheckContext, HttpResponse } from "../../src/harness/index.ts";

export const U64_MAX = (1n << 64n) - 1n;

/** Each member is present when the header is present and a u64 (its form is the harness's check). */
export interface LedgerState {
  readonly ledgerVersion?: bigint;
  readonly oldestVersion?: bigint;
  readonly timestampUsec?: bigint;
  readonly blockHeight?: bigint;
  readonly oldestBlockHeight?: bigint;
}

export function ledgerState(t: CheckContext, res: HttpResponse): LedgerState {
  const read = (suffix: string): bigint | undefined => {
    const raw = t.header(res, suffix);
    return raw !== undefined && /^[0-9]{1,20}$/.test(raw) && BigInt(raw) <= U64_MAX ? BigInt(raw) : undefined;
  };
  const state: Record<string, bigint> = {};
  const put = (key: keyof LedgerState, value: bigint | undefined) => {
    if (value !== undefined) state[key] = value;
  };
  put("ledgerVersion", read("LEDGER-VERSION"));
  put("oldestVersion", read("LEDGER-OLDEST-VERSION"));
  put("timestampUsec", read("LEDGER-TIMESTAMPUSEC"));
  put("blockHeight", read("BLOCK-HEIGHT"));
  put("oldestBlockHeight", read("OLDEST-BLOCK-HEIGHT"));
  return state as LedgerState;
}

export interface LedgerWindow {
  /** X-NODE-LEDGER-OLDEST-VERSION. */
  readonly oldest: bigint;
  /** X-NODE-LEDGER-VERSION. */
  readonly latest: bigint;
  /** X-NODE-LEDGER-TIMESTAMPUSEC. */
  readonly timestampUsec: bigint;
}

/**
 * The window now: GET /-/healthy without duration_secs, which a node answers 200 whenever it can read
 * its latest ledger info (§4.7), with the §2.7 headers. Fails the run when they are missing.
 */
export async function currentWindow(t: CheckContext): Promise<LedgerWindow> {
  const res = await t.request({ path: "/-/healthy" });
  t.expectStatus(res, 200);
  const s = ledgerState(t, res);
  t.expect(
    s.oldestVersion !== undefined && s.ledgerVersion !== undefined && s.timestampUsec !== undefined,
    `${t.headerName("LEDGER-OLDEST-VERSION")}, ${t.headerName("LEDGER-VERSION")} and ${t.headerName("LEDGER-TIMESTAMPUSEC")} as u64 on a 200 (§2.7)`,
    res,
  );
  return { oldest: s.oldestVersion as bigint, latest: s.ledgerVersion as bigint, timestampUsec: s.timestampUsec as bigint };
}

/** Positions are generated as parts per million of a span, so a shrunk counterexample stays meaningful on any node. */
export const PPM = 1_000_000;

/** The version `ppm` millionths of the way from `low` to `high` (both included). */
export function versionAt(low: bigint, high: bigint, ppm: number): bigint {
  if (high <= low) return low;
  return low + ((high - low) * BigInt(ppm)) / BigInt(PPM);
}
