// Rerunning the suite against a long-lived node: once the previous run's transactions are pruned, the
// sender's summaries no longer show its sequence number, and the node refuses the suite's numbers as
// too old. That is the suite's own bookkeeping, never a failed MUST: the sequence number comes from
// GET /accounts/{address} when the node offers it (then the checks pass), and otherwise, after a
// bounded walk up from the node's refusals, the check is skipped with the reason.
//
// The node prunes all but 60 versions and makes a block every 200 ms, so the first run's transactions
// are pruned within seconds (the repro: --prune-window 60, wait 45 s, run again).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import { conformance, fixturesFile, removeScratch, requirementOf } from "../properties/support/conformance-run.ts";

const PRUNE_WINDOW = 60;
const BLOCK_INTERVAL_MS = 200;
/** The two MUSTs the rerun used to fail with SEQUENCE_NUMBER_TOO_OLD. */
const ACCEPTED = ["4.8/bcs-submission-accepted", "4.8/json-submission-accepted"] as const;

let node: RunningNode;
let fixtures: string;
beforeAll(async () => {
  node = await startNode({ pruneWindow: PRUNE_WINDOW, blockIntervalMs: BLOCK_INTERVAL_MS });
  fixtures = fixturesFile(node.fixtures);
});
afterAll(async () => {
  await node.close();
  removeScratch();
});

async function ledgerWindow(): Promise<{ latest: bigint; oldest: bigint }> {
  const res = await fetch(`${node.url}/-/healthy`);
  return { latest: BigInt(res.headers.get("x-node-ledger-version") ?? "0"), oldest: BigInt(res.headers.get("x-node-ledger-oldest-version") ?? "0") };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a rerun against a long-lived node that pruned the previous run", () => {
  it(
    "fails no MUST over a stale sequence number: passes with GET /accounts/{address}, else skips with the reason",
    async () => {
      const run = () => conformance(["--target", node.url, "--fixtures", fixtures, "--only", "submit-transaction-accepted"]);
      const first = await run();
      for (const id of ACCEPTED) expect(requirementOf(first, id).status, first.stdout.slice(-3000)).toBe("passed");

      // Wait (bounded) until every version of the first run is pruned.
      const end = (await ledgerWindow()).latest;
      for (let i = 0; i < 300 && (await ledgerWindow()).oldest <= end; i++) await sleep(100);
      expect((await ledgerWindow()).oldest).toBeGreaterThan(end);
      // The repro's precondition: the sender (the last fixtures account) has no summary left to read a number from.
      const sender = node.fixtures.accounts[node.fixtures.accounts.length - 1]?.address as string;
      expect(await (await fetch(`${node.url}/accounts/${sender}/transaction_summaries`)).json()).toEqual([]);

      const second = await run();
      expect(second.code, `${second.stdout.slice(-3000)}\n${second.stderr.slice(-2000)}`).toBe(0);
      const accountEndpoint = (await fetch(`${node.url}/accounts/${sender}`)).status === 200;
      for (const id of ACCEPTED) {
        const r = requirementOf(second, id) as { status: string; reason?: string };
        if (accountEndpoint) expect(r.status, JSON.stringify(r)).toBe("passed");
        else {
          expect(r.status, JSON.stringify(r)).toBe("skipped");
          expect(r.reason).toMatch(/refused sequence number \d+ of 0x[0-9a-f]+ as taken .*could not learn the account's sequence number/);
        }
      }
    },
    240_000,
  );
});
