// The requests the differential mode sends to both nodes: every read operation of the contract, at one
// ledger version both nodes retain, derived from the fixtures (the accounts, module, table and history
// they name), each in JSON and, where the operation offers it, in BCS. What both answers must share
// depends on whether the answer is pinned to that version:
// - "exact": reads at the version (a module, the listing, a table item, a summaries window ending at
//   it): the same status, the same body (JSON member by member, BCS byte for byte);
// - "shape": reads of the node's latest state (the gas estimate, health): the same status and the same
//   members of the same types (the values move with the ledger);
// - "status": the interface description pages: each implementation describes itself, so only the
//   status and the media type must agree.
// Error answers are compared by status and §7.2 error_code (the message is free text, §2.6).

import type { Fixtures } from "../fixtures.ts";
import type { ApiContract } from "../openapi.ts";

export type Comparison = "exact" | "shape" | "status";

export const JSON_MEDIA = "application/json";
export const BCS_MEDIA = "application/x-bcs";

export interface ComparedRequest {
  /** What the request reads, for the report: "module 0x…::coin at 1234". */
  readonly name: string;
  readonly operation: string;
  readonly method: "GET" | "POST";
  /** Relative to the target (which ends in /v1), with its query. */
  readonly path: string;
  readonly accept: typeof JSON_MEDIA | typeof BCS_MEDIA;
  /** A JSON request body (the table item request). */
  readonly body?: unknown;
  readonly comparison: Comparison;
}

/** The submission is not a read: it is never sent to a node being compared. */
export const NOT_COMPARED = new Set(["submit_transaction"]);

/** An address no fixture names and no genesis creates, for the "unknown account" reads. */
const UNKNOWN_ACCOUNT = `0x${"0d".repeat(32)}`;
/** A module name no account publishes. */
const MISSING_MODULE = "no_such_module_ledger_conformance";

/**
 * The requests for `version` (retained by both nodes, at or above `oldest`, at or below `latest`),
 * from every fixtures given (the run's, and --compare-fixtures'), without duplicates.
 */
export function comparedRequests(
  contract: ApiContract,
  fixturesList: readonly Fixtures[],
  window: { readonly version: bigint; readonly oldest: bigint; readonly latest: bigint },
): ComparedRequest[] {
  const v = window.version;
  const jsonRequests: Omit<ComparedRequest, "accept">[] = [];
  const add = (r: Omit<ComparedRequest, "accept">) => jsonRequests.push(r);
  const inWindow = (at: bigint) => at >= window.oldest && at <= v;

  for (const fixtures of fixturesList) {
    if (fixtures.moduleAccount !== undefined) {
      const account = fixtures.moduleAccount;
      add({
        name: `modules of ${account} at ${v}`,
        operation: "get_account_modules",
        method: "GET",
        path: `/accounts/${account}/modules?ledger_version=${v}`,
        comparison: "exact",
      });
      add({
        name: `first module of ${account} at ${v} (limit 1)`,
        operation: "get_account_modules",
        method: "GET",
        path: `/accounts/${account}/modules?ledger_version=${v}&limit=1`,
        comparison: "exact",
      });
      add({
        name: `missing module of ${account} at ${v}`,
        operation: "get_account_module",
        method: "GET",
        path: `/accounts/${account}/module/${MISSING_MODULE}?ledger_version=${v}`,
        comparison: "exact",
      });
      if (fixtures.moduleName !== undefined) {
        add({
          name: `module ${account}::${fixtures.moduleName} at ${v}`,
          operation: "get_account_module",
          method: "GET",
          path: `/accounts/${account}/module/${fixtures.moduleName}?ledger_version=${v}`,
          comparison: "exact",
        });
      }
    }
    const published = fixtures.history?.modulePublished;
    if (published !== undefined && inWindow(BigInt(published.version))) {
      const at = BigInt(published.version);
      add({
        name: `module ${published.address}::${published.name} at its publication ${at}`,
        operation: "get_account_module",
        method: "GET",
        path: `/accounts/${published.address}/module/${published.name}?ledger_version=${at}`,
        comparison: "exact",
      });
      if (inWindow(at - 1n)) {
        add({
          name: `module ${published.address}::${published.name} before its publication (${at - 1n})`,
          operation: "get_account_module",
          method: "GET",
          path: `/accounts/${published.address}/module/${published.name}?ledger_version=${at - 1n}`,
          comparison: "exact",
        });
      }
    }
    if (fixtures.table !== undefined) {
      const { handle, keyType, valueType, key } = fixtures.table;
      add({
        name: `table item ${handle} key ${JSON.stringify(key)} at ${v}`,
        operation: "get_table_item",
        method: "POST",
        path: `/tables/${handle}/item?ledger_version=${v}`,
        body: { key_type: keyType, value_type: valueType, key },
        comparison: "exact",
      });
    }
    const inserted = fixtures.history?.tableItemInserted;
    if (inserted !== undefined && inWindow(BigInt(inserted.version))) {
      const body = { key_type: inserted.keyType, value_type: inserted.valueType, key: inserted.key };
      const at = BigInt(inserted.version);
      add({
        name: `table item ${inserted.handle} at its insertion ${at}`,
        operation: "get_table_item",
        method: "POST",
        path: `/tables/${inserted.handle}/item?ledger_version=${at}`,
        body,
        comparison: "exact",
      });
      if (inWindow(at - 1n))
        add({
          name: `table item ${inserted.handle} before its insertion (${at - 1n})`,
          operation: "get_table_item",
          method: "POST",
          path: `/tables/${inserted.handle}/item?ledger_version=${at - 1n}`,
          body,
          comparison: "exact",
        });
    }
    const accounts = [fixtures.transactionsAccount, ...(fixtures.accounts ?? []).map((a) => a.address)].filter(
      (a): a is string => a !== undefined,
    );
    for (const account of accounts) {
      // Windows that end at the version: the summaries committed by then, the same on both nodes.
      add({
        name: `summaries of ${account} ending at ${v}`,
        operation: "get_account_transaction_summaries",
        method: "GET",
        path: `/accounts/${account}/transaction_summaries?end_version=${v}`,
        comparison: "exact",
      });
      add({
        name: `last 5 summaries of ${account} ending at ${v}`,
        operation: "get_account_transaction_summaries",
        method: "GET",
        path: `/accounts/${account}/transaction_summaries?end_version=${v}&limit=5`,
        comparison: "exact",
      });
    }
  }
  add({
    name: `summaries of an unknown account ending at ${v}`,
    operation: "get_account_transaction_summaries",
    method: "GET",
    path: `/accounts/${UNKNOWN_ACCOUNT}/transaction_summaries?end_version=${v}`,
    comparison: "exact",
  });
  add({
    name: `modules of an unknown account at ${v}`,
    operation: "get_account_modules",
    method: "GET",
    path: `/accounts/${UNKNOWN_ACCOUNT}/modules?ledger_version=${v}`,
    comparison: "exact",
  });
  // Far past both nodes' latest version: both refuse it the same way (404 version_not_found).
  const future = window.latest + 1_000_000_000n;
  add({
    name: `modules at a future version ${future}`,
    operation: "get_account_modules",
    method: "GET",
    path: `/accounts/0x1/modules?ledger_version=${future}`,
    comparison: "exact",
  });
  add({ name: "gas estimate", operation: "estimate_gas_price", method: "GET", path: "/estimate_gas_price", comparison: "shape" });
  add({ name: "health", operation: "healthy", method: "GET", path: "/-/healthy", comparison: "shape" });
  add({ name: "interface description (JSON)", operation: "spec_json", method: "GET", path: "/spec.json", comparison: "status" });
  add({ name: "interface description (YAML)", operation: "spec_yaml", method: "GET", path: "/spec.yaml", comparison: "status" });
  add({ name: "interface description page", operation: "spec", method: "GET", path: "/spec", comparison: "status" });

  const seen = new Set<string>();
  const out: ComparedRequest[] = [];
  for (const r of jsonRequests) {
    const key = `${r.method} ${r.path} ${JSON.stringify(r.body ?? null)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...r, accept: JSON_MEDIA });
    if (contract.operation(r.operation).response(200)?.mediaTypes.includes(BCS_MEDIA))
      out.push({ ...r, name: `${r.name} (BCS)`, accept: BCS_MEDIA });
  }
  return out;
}
