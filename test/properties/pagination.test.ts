// The §4.3 pagination properties against the reference node behind proxies that break one law each:
// each property must fail with its seed, shrunk path, curl lines and a replay command, and the replay
// command must reproduce exactly that case.

import { describe, expect, it } from "vitest";
import { conformance, conformanceAgainst, expectCaught, replayArgs, requirementOf } from "./support/conformance-run.ts";
import { isPath, jsonOf, splitPath, throughProxy, withJson, withQuery, type Alteration } from "./support/law-breaking-proxy.ts";
import { againstAltered, referenceNodeForFile } from "./support/reference-node.ts";

const target = referenceNodeForFile();

const SUMMARIES = /^\/v1\/accounts\/[^/]+\/transaction_summaries$/;

/** Changes the array of every 200 summaries page. */
function alterPages(change: (items: unknown[], query: URLSearchParams) => unknown[]): Alteration {
  return async (exchange, forward) => {
    const answer = await forward();
    if (!isPath(exchange, SUMMARIES) || answer.status !== 200) return answer;
    return withJson(answer, change(jsonOf(answer) as unknown[], splitPath(exchange).query));
  };
}

const run = (alteration: Alteration, id: string) => againstAltered(target, alteration, id);

describe.concurrent("4.3 pagination properties against law-breaking nodes", () => {
  it("the order law catches a node that returns pages in descending order, and its replay command replays that case", async () => {
    const id = "4.3/ascending-order";
    await throughProxy(
      target.url,
      alterPages((items) => [...items].reverse()),
      async (url) => {
        const caught = expectCaught(await conformanceAgainst({ url, fixtures: target.fixtures }, id), id);
        const replay = await conformance(replayArgs(caught));
        const again = requirementOf(replay, id)
          .failures.map((f) => f.message)
          .find((m) => m.includes("property failed"));
        expect(replay.code).toBe(1);
        expect(again).toContain(/\n {2}counterexample: .*/.exec(caught)?.[0]);
        expect(again).toMatch(/property failed after 1 run\(s\)/);
      },
    );
  }, 180_000);

  it("the window law catches, with one drawn case, a node that reads start_version as exclusive", async () => {
    const id = "4.3/summaries-window-law";
    const exclusiveStart: Alteration = (exchange, forward) => {
      const start = splitPath(exchange).query.get("start_version");
      if (!isPath(exchange, SUMMARIES) || start === null || !/^[0-9]+$/.test(start)) return forward();
      return forward({ path: withQuery(exchange, (q) => q.set("start_version", (BigInt(start) + 1n).toString())) });
    };
    // At --depth 0.01 the law draws one case: only the fixed example (a start on a summary) can show it.
    expectCaught(await againstAltered(target, exclusiveStart, id, ["--depth", "0.01"]), id);
  }, 120_000);

  it("the window law catches a node that ignores start_version", async () => {
    const id = "4.3/summaries-window-law";
    const ignoreStart: Alteration = (exchange, forward) =>
      isPath(exchange, SUMMARIES) ? forward({ path: withQuery(exchange, (q) => q.delete("start_version")) }) : forward();
    expectCaught(await run(ignoreStart, id), id);
  }, 120_000);

  it("the end-window law catches a node whose end_version page stops short of end_version", async () => {
    const id = "4.3/summaries-end-window-law";
    const stopShort = alterPages((items, q) => (q.has("end_version") && !q.has("start_version") ? items.slice(0, -1) : items));
    expectCaught(await run(stopShort, id), id);
  }, 120_000);

  it("the same-state law catches a node that sometimes drops a summary", async () => {
    const id = "4.3/repeatable";
    expectCaught(
      await run(
        alterPages((items) => (Math.random() < 0.5 ? items.slice(1) : items)),
        id,
      ),
      id,
    );
  }, 120_000);
});
