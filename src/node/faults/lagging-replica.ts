// A replica behind the live ledger, as a node behind a balancer serves it: which requests it serves is
// the fault's choice (headers.ts lagging-replica: every other one; concurrency.ts
// stale-replica-connections: those of connections accepted under load). The replica is consistent with
// itself: its ledger info is one the live ledger reported `lagUsec` of ledger time ago, its reads
// refuse versions above it, and its summaries end at it.

import { LedgerError, type LedgerApi, type LedgerInfo } from "../ledger/api.ts";
import type { Clock } from "../ledger/clock.ts";
import { overrideApi } from "./fault.ts";

/**
 * `api` with the requests for which `servedByReplica()` is true (asked in info(), which every request
 * starts with) served by a replica `lagUsec` behind: in their headers and in what they read.
 */
export function laggingReplicaEngine(api: LedgerApi, clock: Clock, lagUsec: bigint, servedByReplica: () => boolean): LedgerApi {
  /** Live ledger infos seen lately, oldest first: where the lagging replica's view comes from. */
  const seen: LedgerInfo[] = [];
  /** The view the current request reads (handlers run synchronously after info()). */
  let served: LedgerInfo | undefined;

  function laggingView(live: LedgerInfo): LedgerInfo {
    const cutoff = live.ledgerTimestampUsec - lagUsec;
    let view = seen[0] ?? live;
    for (const info of seen) if (info.ledgerTimestampUsec <= cutoff) view = info;
    // Forget what even the lagging replica has moved past.
    while (seen.length > 1 && (seen[1] as LedgerInfo).ledgerTimestampUsec <= cutoff) seen.shift();
    return view;
  }

  function notAtReplica(version: bigint | undefined): void {
    if (served !== undefined && version !== undefined && version > served.ledgerVersion)
      throw new LedgerError(404, "version_not_found", `Ledger version ${version} is newer than the latest version ${served.ledgerVersion}`);
  }

  return overrideApi(api, {
    info: () => {
      const live = api.info();
      if (seen[seen.length - 1]?.ledgerVersion !== live.ledgerVersion) seen.push(live);
      served = servedByReplica() ? laggingView(live) : live;
      return served;
    },
    getModule: (address, name, version) => {
      notAtReplica(version);
      return api.getModule(address, name, version);
    },
    listModules: (address, options) => {
      notAtReplica(options.version);
      return api.listModules(address, options);
    },
    getTableItem: (handle, request, version) => {
      notAtReplica(version);
      return api.getTableItem(handle, request, version);
    },
    transactionSummaries: (address, options) => {
      const latest = served?.ledgerVersion;
      return api.transactionSummaries(address, options).filter((s) => latest === undefined || s.version <= latest);
    },
    isHealthy: (durationSecs) => {
      if (durationSecs === undefined || served === undefined) return api.isHealthy(durationSecs);
      return served.ledgerTimestampUsec + durationSecs * 1_000_000n >= clock.nowUsec();
    },
  });
}
