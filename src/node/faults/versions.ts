// Faults in ledger versions: ledger_version ignored (wholly, or checked and then not used), the oldest
// version misreported in the headers, and the oldest version's state gone while the headers still name it.

import { LedgerError, type LedgerApi } from "../ledger/api.ts";
import { overrideApi, type Fault } from "./fault.ts";

const ledgerVersionIgnored: Fault = {
  name: "ledger-version-ignored",
  area: "versions",
  description: "ignores ledger_version on module and table item reads: every read is at the latest version",
  breaks: [
    "4.2/pruned-version-gone",
    "4.2/future-version-rejected",
    "4.4/pruned-version-gone",
    "4.4/future-version-rejected",
    "4.5/pruned-version-gone",
    "4.5/future-version-rejected",
  ],
  engine: (api) =>
    overrideApi(api, {
      getModule: (address, name) => api.getModule(address, name),
      listModules: (address, options) => api.listModules(address, { ...options, version: undefined }),
      getTableItem: (handle, request) => api.getTableItem(handle, request),
    }),
};

/** The version checks of a read, as the engine makes them, without reading anything. */
function checkWindow(api: LedgerApi, version: bigint | undefined): void {
  if (version === undefined) return;
  const { ledgerVersion, oldestLedgerVersion } = api.info();
  if (version > ledgerVersion)
    throw new LedgerError(404, "version_not_found", `Ledger version ${version} is newer than the latest version ${ledgerVersion}`);
  if (version < oldestLedgerVersion) throw new LedgerError(410, "version_pruned", `Ledger version ${version} has been pruned`);
}

const pastVersionsReadLatest: Fault = {
  name: "past-versions-read-latest",
  area: "versions",
  description:
    "checks ledger_version against the window (404 above, 410 below) but then reads modules and table items at the latest version",
  breaks: ["4.2/item-at-ledger-version", "4.4/module-at-ledger-version", "4.5/listing-at-ledger-version"],
  engine: (api) =>
    overrideApi(api, {
      getModule: (address, name, version) => {
        checkWindow(api, version);
        return api.getModule(address, name);
      },
      listModules: (address, options) => {
        checkWindow(api, options.version);
        return api.listModules(address, { ...options, version: undefined });
      },
      getTableItem: (handle, request, version) => {
        checkWindow(api, version);
        return api.getTableItem(handle, request);
      },
    }),
};

const oldestVersionOffByOne: Fault = {
  name: "oldest-version-off-by-one",
  area: "versions",
  description: "reports X-NODE-LEDGER-OLDEST-VERSION one below the oldest version it can still read",
  breaks: ["4.2/window-versions-readable"],
  engine: (api) =>
    overrideApi(api, {
      info: () => {
        const info = api.info();
        return info.oldestLedgerVersion > 0n ? { ...info, oldestLedgerVersion: info.oldestLedgerVersion - 1n } : info;
      },
    }),
};

/**
 * The pruner runs ahead of the ledger info by one version: X-NODE-LEDGER-OLDEST-VERSION names a
 * version whose table state is already gone, and a read at it finds no such version.
 */
const oldestVersionNotFound: Fault = {
  name: "oldest-version-not-found",
  area: "versions",
  description: "answers a table item read at its oldest ledger version with 404 version_not_found, as if the version did not exist",
  breaks: ["4.2/window-versions-readable"],
  engine: (api) =>
    overrideApi(api, {
      getTableItem: (handle, request, version) => {
        if (version !== undefined && version === api.info().oldestLedgerVersion)
          throw new LedgerError(404, "version_not_found", `Ledger version ${version} not found`);
        return api.getTableItem(handle, request, version);
      },
    }),
};

export const VERSION_FAULTS: readonly Fault[] = [
  ledgerVersionIgnored,
  pastVersionsReadLatest,
  oldestVersionOffByOne,
  oldestVersionNotFound,
];
