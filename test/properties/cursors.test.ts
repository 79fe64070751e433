// The §4.5 cursor properties against the reference node behind proxies that break one law each.

import { describe, it } from "vitest";
import { expectCaught } from "./support/conformance-run.ts";
import { errorAnswer, isPath, splitPath, withHeaders, withQuery, type Alteration } from "./support/law-breaking-proxy.ts";
import { againstAltered, referenceNodeForFile } from "./support/reference-node.ts";

const target = referenceNodeForFile();

const MODULES = /^\/v1\/accounts\/[^/]+\/modules$/;

const run = (alteration: Alteration, id: string) => againstAltered(target, alteration, id);

describe.concurrent("4.5 cursor properties against law-breaking nodes", () => {
  it("the walk law catches a node that drops the cursor after the second page", async () => {
    const id = "4.5/cursor-round-trip";
    const dropSecondCursor: Alteration = async (exchange, forward) => {
      const answer = await forward();
      // A page reached with a start is the second or later: its cursor goes missing.
      return isPath(exchange, MODULES) && splitPath(exchange).query.has("start")
        ? withHeaders(answer, { "x-node-cursor": undefined })
        : answer;
    };
    expectCaught(await run(dropSecondCursor, id), id);
  }, 120_000);

  it("the as-start law catches a node that ignores start when the limit changed", async () => {
    const id = "4.5/cursor-as-start-law";
    // Pages of one walk keep their limit; a cursor given back with another limit is ignored (the first page comes back).
    let lastLimit: string | null = null;
    const ignoreStartOnNewLimit: Alteration = (exchange, forward) => {
      if (!isPath(exchange, MODULES)) return forward();
      const q = splitPath(exchange).query;
      const limit = q.get("limit");
      const changed = q.has("start") && limit !== lastLimit;
      lastLimit = limit;
      return changed ? forward({ path: withQuery(exchange, (query) => query.delete("start")) }) : forward();
    };
    expectCaught(await run(ignoreStartOnNewLimit, id), id);
  }, 120_000);

  it("the malformed-cursor law catches a node that answers 500 to a start that is not hex", async () => {
    const id = "4.5/malformed-cursor-rejected";
    const crashOnBadStart: Alteration = async (exchange, forward) => {
      const answer = await forward();
      const start = splitPath(exchange).query.get("start");
      return isPath(exchange, MODULES) && start !== null && !/^(0x)?[0-9a-fA-F]+$/.test(start)
        ? errorAnswer(answer, 500, "internal_error")
        : answer;
    };
    expectCaught(await run(crashOnBadStart, id), id);
  }, 120_000);

  it("the unissued-cursor law (SHOULD) warns about a node that answers an unknown cursor with the first page", async () => {
    const id = "4.5/unissued-cursor-rejected";
    const firstPageForUnknown: Alteration = async (exchange, forward) => {
      const answer = await forward();
      if (!isPath(exchange, MODULES) || answer.status !== 400 || !splitPath(exchange).query.has("start")) return answer;
      return forward({ path: withQuery(exchange, (q) => q.delete("start")) });
    };
    expectCaught(await run(firstPageForUnknown, id), id);
  }, 120_000);
});
