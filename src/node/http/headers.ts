// The §2.7 ledger-state headers, all decimal integers, under the profile's prefix.

import type { LedgerInfo } from "../ledger/api.ts";

export function ledgerHeaders(info: LedgerInfo, prefix: string): Record<string, string> {
  return {
    [`${prefix}CHAIN-ID`]: String(info.chainId),
    [`${prefix}LEDGER-VERSION`]: info.ledgerVersion.toString(),
    [`${prefix}LEDGER-OLDEST-VERSION`]: info.oldestLedgerVersion.toString(),
    [`${prefix}LEDGER-TIMESTAMPUSEC`]: info.ledgerTimestampUsec.toString(),
    [`${prefix}EPOCH`]: info.epoch.toString(),
    [`${prefix}BLOCK-HEIGHT`]: info.blockHeight.toString(),
    [`${prefix}OLDEST-BLOCK-HEIGHT`]: info.oldestBlockHeight.toString(),
  };
}

export function cursorHeader(prefix: string): string {
  return `${prefix}CURSOR`;
}
