// Rerunning the suite against a long-lived node: once the previous run's transactions are pruned, the
// sender's summaries no longer show its sequence number, and the node refuses the suite's numbers as
// too old. That is the suite's own bookkeeping, never a failed MUST: the sequence number comes from
// GET /accounts/{address} when the node offers it (then the checks pass), and otherwise, after a
// bounded walk up from the node's refusals, the check is skipped with the reason. A node whose own
// GET /accounts/{address} names a number it then refuses fails the check.
//
// The node prunes all but 60 versions and makes a block every 200 ms, so the first run's transactions
// are pruned within seconds (the repro: --prune-window 60, wait 45 s, run again).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAddress } from "../../src/codec/index.ts";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import { conformance, fixturesFile, removeScratch, requirementOf } from "../properties/support/conformance-run.ts";
import { splitPath, throughProxy, withJson, type Alteration } from "../properties/support/law-breaking-proxy.ts";

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
  return {
    latest: BigInt(res.headers.get("x-node-ledger-version") ?? "0"),
    oldest: BigInt(res.headers.get("x-node-ledger-oldest-version") ?? "0"),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) until every version up to the current one is pruned. */
async function prunePast(): Promise<void> {
  const end = (await ledgerWindow()).latest;
  for (let i = 0; i < 300 && (await ledgerWindow()).oldest <= end; i++) await sleep(100);
  expect((await ledgerWindow()).oldest).toBeGreaterThan(end);
}

/**
 * GET /v1/accounts/{address} as aptos-core answers it (AccountData {sequence_number,
 * authentication_key}, api/types/src/account.rs, served by api/src/accounts.rs), from the node's own
 * state (the number `told` makes of it), in front of a node that may not have the endpoint.
 */
const accountEndpoint =
  (told: (sequenceNumber: bigint) => bigint): Alteration =>
  async (exchange, forward) => {
    const address = /^\/v1\/accounts\/((?:0x)?[0-9a-fA-F]{1,64})$/.exec(splitPath(exchange).pathname)?.[1];
    const account =
      exchange.method === "GET" && address !== undefined
        ? node.engine.ledger.state.latestAccount(parseAddress(address, { prefixOptional: true }))
        : undefined;
    if (account === undefined) return forward();
    const withHeaders = await forward({ path: "/v1/-/healthy" });
    return withJson(
      withHeaders,
      { sequence_number: told(account.sequenceNumber).toString(), authentication_key: `0x${"00".repeat(32)}` },
      200,
    );
  };

describe("a rerun against a long-lived node that pruned the previous run", () => {
  it("fails no MUST over its own stale sequence number (passes with GET /accounts/{address}, else skips with the reason), but fails a node that refuses the number it names", async () => {
    const run = () => conformance(["--target", node.url, "--fixtures", fixtures, "--only", "submit-transaction-accepted"]);
    const first = await run();
    for (const id of ACCEPTED) expect(requirementOf(first, id).status, first.stdout.slice(-3000)).toBe("passed");

    await prunePast();
    // The repro's precondition: the sender (the last fixtures account) has no summary left to read a number from.
    const sender = node.fixtures.accounts[node.fixtures.accounts.length - 1]?.address as string;
    expect(await (await fetch(`${node.url}/accounts/${sender}/transaction_summaries`)).json()).toEqual([]);

    const second = await run();
    expect(second.code, `${second.stdout.slice(-3000)}\n${second.stderr.slice(-2000)}`).toBe(0);
    const nodeHasAccountEndpoint = (await fetch(`${node.url}/accounts/${sender}`)).status === 200;
    for (const id of ACCEPTED) {
      const r = requirementOf(second, id) as { status: string; reason?: string };
      if (nodeHasAccountEndpoint) expect(r.status, JSON.stringify(r)).toBe("passed");
      else {
        expect(r.status, JSON.stringify(r)).toBe("skipped");
        expect(r.reason).toMatch(/refused sequence number \d+ of 0x[0-9a-f]+ as taken .*the suite's number was out of date/);
      }
    }

    // Once more after pruning, with GET /accounts/{address} answered in front of the node: the suite reads the number there.
    await prunePast();
    const proxied = (told: (sequenceNumber: bigint) => bigint) =>
      throughProxy(node.url, accountEndpoint(told), (url) =>
        conformance(["--target", url, "--fixtures", fixtures, "--only", "submit-transaction-accepted"]),
      );
    const third = await proxied((n) => n);
    expect(third.code, `${third.stdout.slice(-3000)}\n${third.stderr.slice(-2000)}`).toBe(0);
    for (const id of ACCEPTED) expect(requirementOf(third, id).status, third.stdout.slice(-3000)).toBe("passed");

    // A node that names the account's number itself and then refuses it as too old contradicts
    // itself: that is evidence about the node, a failure, not the suite's bookkeeping.
    const fourth = await proxied(() => 0n);
    expect(requirementOf(fourth, "4.8/bcs-submission-accepted").status, fourth.stdout.slice(-3000)).toBe("failed");
    expect(fourth.code).toBe(1);
  }, 240_000);
});
