// One status for a requirement over a fleet's nodes, from each node's own status for it: the row of the
// requirement-by-node matrix, and the requirement's status in the fleet's summary.json. A fleet run and
// `merge` judge alike; the reporters render it.

import type { ResultStatus } from "../harness/results.ts";

/** A node's status for a requirement, or absent when its run's catalog has no such id. */
export type NodeStatus = { readonly status: ResultStatus } | { readonly status: "absent" };

/**
 * Unlike the results of one node (aggregateStatus, where a pass with some skipped results is a pass),
 * each node is a claim of its own: the fleet holds a requirement only when every node that has it does,
 * so failed > warned > skipped > not_applicable > passed, and a node that did not run the requirement
 * keeps the row from passing.
 */
export function fleetStatus(cells: readonly NodeStatus[]): ResultStatus {
  const order: ResultStatus[] = ["failed", "warned", "skipped", "not_applicable", "passed"];
  const present = cells.flatMap((c) => (c.status === "absent" ? [] : [c.status]));
  if (present.length === 0) return "skipped";
  return order.find((s) => present.includes(s)) ?? "passed";
}
