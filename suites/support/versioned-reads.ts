// The reads that take a ledger_version (§4.2 table item, §4.4 one module, §4.5 module listing), as
// requests a property can send at any version: fixture-free where possible (the module listing of the
// fixtures' moduleAccount or 0x1, one module of it), the table item when the fixtures name a table.

import { CheckNotApplicable, type CheckContext, type RequestSpec } from "../../src/harness/index.ts";
import { firstModuleName, moduleAccount } from "./account-modules.ts";
import { tableItemBody } from "./table-values.ts";

export interface VersionedRead {
  /** What is read, in words ("the module listing of 0x1"). */
  readonly name: string;
  /** The request at `ledgerVersion` (sent as written: a property may pass a malformed value), or at the latest. */
  request(ledgerVersion: string | undefined): RequestSpec;
}

const at = (ledgerVersion: string | undefined) => (ledgerVersion === undefined ? {} : { ledger_version: ledgerVersion });

/** The module listing of `account` (§4.5), `limit` modules a page (the node's page size when absent). */
export function moduleListingRead(account: string, limit?: number): VersionedRead {
  return {
    name: `the module listing of ${account} (§4.5)`,
    request: (v) => ({ path: `/accounts/${account}/modules`, query: { ...at(v), ...(limit === undefined ? {} : { limit }) } }),
  };
}

/** Every versioned read the target offers with these fixtures; at least the module listing. */
export async function versionedReads(t: CheckContext): Promise<VersionedRead[]> {
  const account = moduleAccount(t);
  const reads: VersionedRead[] = [moduleListingRead(account, 1)];
  const name = t.fixtures.moduleName ?? (await firstModuleName(t, account)).name;
  if (name !== undefined) {
    reads.push({
      name: `the module ${account}::${name} (§4.4)`,
      request: (v) => ({ path: `/accounts/${account}/module/${encodeURIComponent(name)}`, query: at(v) }),
    });
  }
  const table = t.fixtures.table;
  if (table !== undefined) {
    reads.push({
      name: `the item ${JSON.stringify(table.key)} of table ${table.handle} (§4.2)`,
      request: (v) => ({
        method: "POST",
        path: `/tables/${table.handle}/item`,
        query: at(v),
        json: tableItemBody(table),
      }),
    });
  }
  return reads;
}

/** Ends the check not_applicable: the node prunes nothing, so no version is below the oldest. */
export function requirePruning(t: CheckContext, prunes: boolean): void {
  if (!prunes) throw new CheckNotApplicable(`nothing is pruned: ${t.headerName("LEDGER-OLDEST-VERSION")} is 0`);
}
