// The §4.8 tampering properties against the reference node behind proxies that break one law each.

import { afterAll, beforeAll, describe, it } from "vitest";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import { conformanceAgainst, expectCaught, fixturesFile, removeScratch } from "./support/conformance-run.ts";
import { errorAnswer, isPath, throughProxy, withJson, type Alteration, type Answer } from "./support/law-breaking-proxy.ts";

let node: RunningNode;
let fixtures: string;

beforeAll(async () => {
  node = await startNode({});
  fixtures = fixturesFile(node.fixtures);
}, 60_000);
afterAll(async () => {
  await node.close();
  removeScratch();
});

const run = (alteration: Alteration, id: string) => throughProxy(node.url, alteration, (url) => conformanceAgainst({ url, fixtures }, id));

/** Rewrites the node's 400 answers to BCS submissions. */
function onRefusedBcs(change: (answer: Answer) => Answer): Alteration {
  return async (exchange, forward) => {
    const answer = await forward();
    const bcs = (exchange.headers["content-type"] ?? "").startsWith("application/x.node.signed_transaction+bcs");
    return exchange.method === "POST" && isPath(exchange, "/v1/transactions") && bcs && answer.status === 400 ? change(answer) : answer;
  };
}

describe.concurrent("4.8 tampering properties against law-breaking nodes", () => {
  it("the tampering law catches a node that accepts a transaction whose signature does not verify", async () => {
    const id = "4.8/tampering-law";
    const acceptsAnything = onRefusedBcs((answer) => withJson(answer, { hash: `0x${"ab".repeat(32)}` }, 202));
    expectCaught(await run(acceptsAnything, id), id);
  }, 120_000);

  it("the random-bytes law catches a node that answers 500 to bytes that are no transaction", async () => {
    const id = "4.8/random-bcs-law";
    expectCaught(await run(onRefusedBcs((answer) => errorAnswer(answer, 500, "internal_error")), id), id);
  }, 120_000);
});
