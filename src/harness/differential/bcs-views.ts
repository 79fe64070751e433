// The BCS layout of each read operation's 200, for a readable difference between two BCS bodies: both
// are decoded and compared member by member. The layouts are the codec's (the ones the suites decode
// with); a table item's BCS is the value's own bytes, whose type only the request names, so it is
// compared as bytes.

import type { BcsType } from "@mysten/bcs";
import { GasEstimationBcs, HealthBcs, ModuleBytecodeBcs, ModuleMapBcs, toHex, TransactionSummaryListBcs } from "../../codec/index.ts";

const LAYOUTS: Readonly<Record<string, BcsType<unknown, never>>> = {
  get_account_module: ModuleBytecodeBcs as unknown as BcsType<unknown, never>,
  get_account_modules: ModuleMapBcs as unknown as BcsType<unknown, never>,
  get_account_transaction_summaries: TransactionSummaryListBcs as unknown as BcsType<unknown, never>,
  estimate_gas_price: GasEstimationBcs as unknown as BcsType<unknown, never>,
  healthy: HealthBcs as unknown as BcsType<unknown, never>,
};

export type BcsView = { readonly decoded: true; readonly value: unknown } | { readonly decoded: false; readonly reason: string };

/** The body decoded by the operation's layout (bytes as hex, integers as decimal strings), or why not. */
export function viewBcs(operation: string, body: Uint8Array): BcsView {
  const layout = LAYOUTS[operation];
  if (layout === undefined) return { decoded: false, reason: `no BCS layout for ${operation}` };
  try {
    return { decoded: true, value: plain(layout.parse(body)) };
  } catch (e) {
    return { decoded: false, reason: `undecodable as ${layout.name}: ${(e as Error).message}` };
  }
}

/** Whether the operation's BCS body has a layout here. */
export function hasBcsLayout(operation: string): boolean {
  return LAYOUTS[operation] !== undefined;
}

/** The offset of the first differing byte, or undefined when equal. */
export function firstByteDifference(a: Uint8Array, b: Uint8Array): number | undefined {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? undefined : n;
}

function plain(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return toHex(value);
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}
