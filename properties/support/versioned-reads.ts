// The reads that take a ledger_version (§4.2 table item, §4.4 one module, §4.5 module listing), as
// requests a property can send at any version: fixture-free where possible (the module listing of the
// fixtures' moduleAccount or 0x1, one module of it), the table item when the fixtures name a table.

import { CheckNotApplicable, type CheckContext, type RequestSpec } from "../../src/harness/index.ts";

export interface VersionedRead {
  /** What is read, in words ("the module listing of 0x1"). */
  readonly name: string;
  /** The request at `ledgerVersion` (sent as written: a property may pass a malformed value), or at the latest. */
  request(ledgerVersion: string | undefined): RequestSpec;
}

/** The fixtures' moduleAccount, else 0x1 (every chain of the family holds framework modules there). */
export function moduleAccountOf(t: CheckContext): string {
  return t.fixtures.moduleAccount ?? "0x1";
}

const at = (ledgerVersion: string | undefined) => (ledgerVersion === undefined ? {} : { ledger_version: ledgerVersion });

/** Every versioned read the target offers with these fixtures; at least the module listing. */
export async function versionedReads(t: CheckContext): Promise<VersionedRead[]> {
  const account = moduleAccountOf(t);
  const reads: VersionedRead[] = [
    {
      name: `the module listing of ${account} (§4.5)`,
      request: (v) => ({ path: `/accounts/${account}/modules`, query: { ...at(v), limit: 1 } }),
    },
  ];
  const name = t.fixtures.moduleName ?? (await firstModuleName(t, account));
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
        json: { key_type: table.keyType, value_type: table.valueType, key: table.key },
      }),
    });
  }
  return reads;
}

async function firstModuleName(t: CheckContext, account: string): Promise<string | undefined> {
  const res = await t.request({ path: `/accounts/${account}/modules`, query: { limit: 1 } });
  const first = Array.isArray(res.json) ? (res.json[0] as { abi?: { name?: unknown } } | undefined) : undefined;
  return res.status === 200 && typeof first?.abi?.name === "string" ? first.abi.name : undefined;
}

/** The error_code of an error answer, if it has one. */
export function errorCodeOf(json: unknown): string | undefined {
  const code = (json as { error_code?: unknown } | undefined)?.error_code;
  return typeof code === "string" ? code : undefined;
}

/** Ends the check not_applicable: the node prunes nothing, so no version is below the oldest. */
export function requirePruning(t: CheckContext, prunes: boolean): void {
  if (!prunes) throw new CheckNotApplicable(`nothing is pruned: ${t.headerName("LEDGER-OLDEST-VERSION")} is 0`);
}
