// The §4.8 tampering properties against the reference node behind proxies that break one law each.

import { describe, it } from "vitest";
import { expectCaught } from "./support/conformance-run.ts";
import { errorAnswer, isPath, withJson, type Alteration, type Answer } from "./support/law-breaking-proxy.ts";
import { againstAltered, referenceNodeForFile } from "./support/reference-node.ts";

const target = referenceNodeForFile();

const run = (alteration: Alteration, id: string) => againstAltered(target, alteration, id);

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
    const id = "4.8/broken-bcs-rejected";
    expectCaught(
      await run(
        onRefusedBcs((answer) => errorAnswer(answer, 500, "internal_error")),
        id,
      ),
      id,
    );
  }, 120_000);
});
