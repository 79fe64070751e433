// What a response says, read without judging it: the §2.7 ledger state in its headers, the window of
// versions that state names, and the §2.6 error_code of an error body. Pure functions, shared by the
// harness (the observed contract, the check context), the suites and the properties, so that each
// header is parsed in one place. Judging the forms is the observed contract's job (2.7/header-forms):
// here a header of another form reads as absent.

import { U64_MAX } from "../codec/index.ts";
import type { HttpResponse } from "./http-client.ts";

export { U64_MAX };

/** §2.7: the ledger-state headers (suffix after the prefix), their integer bound, and whether a 2xx needs them. */
export const LEDGER_HEADERS = [
  { suffix: "CHAIN-ID", key: "chainId", max: 255n, requiredOnSuccess: true },
  { suffix: "LEDGER-VERSION", key: "ledgerVersion", max: U64_MAX, requiredOnSuccess: true },
  { suffix: "LEDGER-OLDEST-VERSION", key: "oldestVersion", max: U64_MAX, requiredOnSuccess: true },
  { suffix: "LEDGER-TIMESTAMPUSEC", key: "timestampUsec", max: U64_MAX, requiredOnSuccess: true },
  { suffix: "EPOCH", key: "epoch", max: U64_MAX, requiredOnSuccess: false },
  { suffix: "BLOCK-HEIGHT", key: "blockHeight", max: U64_MAX, requiredOnSuccess: true },
  { suffix: "OLDEST-BLOCK-HEIGHT", key: "oldestBlockHeight", max: U64_MAX, requiredOnSuccess: true },
  { suffix: "GAS-USED", key: "gasUsed", max: U64_MAX, requiredOnSuccess: false },
] as const;

/** Each member is present when its header is present and a decimal integer within its bound. */
export type LedgerState = { readonly [K in (typeof LEDGER_HEADERS)[number]["key"]]?: bigint };

/** The versions a node can answer for: its oldest not yet pruned, and its latest. */
export interface LedgerWindow {
  /** X-NODE-LEDGER-OLDEST-VERSION. */
  readonly oldest: bigint;
  /** X-NODE-LEDGER-VERSION. */
  readonly latest: bigint;
}

/** A §2.7 header of `res` by its suffix ("LEDGER-VERSION") under `headerPrefix` ("X-NODE-"), or undefined. */
export function headerValue(res: Pick<HttpResponse, "headers">, headerPrefix: string, suffix: string): string | undefined {
  return res.headers[`${headerPrefix}${suffix}`.toLowerCase()];
}

/** A decimal integer of at most `max`, or undefined for anything else (absent, signed, hex, too large). */
export function boundedInteger(raw: string | undefined, max: bigint = U64_MAX): bigint | undefined {
  return raw !== undefined && /^[0-9]+$/.test(raw) && BigInt(raw) <= max ? BigInt(raw) : undefined;
}

/** The ledger state `res` reports in its headers. */
export function ledgerState(res: Pick<HttpResponse, "headers">, headerPrefix: string): LedgerState {
  const state: { -readonly [K in keyof LedgerState]: bigint } = {};
  for (const h of LEDGER_HEADERS) {
    const value = boundedInteger(headerValue(res, headerPrefix, h.suffix), h.max);
    if (value !== undefined) state[h.key] = value;
  }
  return state;
}

/** The version `numerator/denominator` of the way from the oldest to the latest version (the oldest when the window is empty or inverted). */
export function versionAt(window: LedgerWindow, numerator: bigint, denominator: bigint): bigint {
  const span = window.latest > window.oldest ? window.latest - window.oldest : 0n;
  return window.oldest + (span * numerator) / denominator;
}

/** The §2.6 error_code of a body, if it has one as a string. */
export function errorCodeOf(res: Pick<HttpResponse, "json">): string | undefined {
  const code = (res.json as { error_code?: unknown } | null | undefined)?.error_code;
  return typeof code === "string" ? code : undefined;
}

/** The §2.6 vm_error_code of a body, if it has one as an integer (null counts as absent, the family's convention). */
export function vmErrorCodeOf(res: Pick<HttpResponse, "json">): number | undefined {
  const code = (res.json as { vm_error_code?: unknown } | null | undefined)?.vm_error_code;
  return typeof code === "number" && Number.isInteger(code) ? code : undefined;
}
