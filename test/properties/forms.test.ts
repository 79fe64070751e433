// The §2.1 and §8 form properties against the reference node behind proxies that break one law each.

import { describe, it } from "vitest";
import { expectCaught } from "./support/conformance-run.ts";
import { errorAnswer, splitPath, withQuery, type Alteration } from "./support/law-breaking-proxy.ts";
import { againstAltered, referenceNodeForFile } from "./support/reference-node.ts";

const target = referenceNodeForFile();

const run = (alteration: Alteration, id: string) => againstAltered(target, alteration, id);

describe.concurrent("form properties against law-breaking nodes", () => {
  it("the unprefixed short address law catches a node that does not find accounts written without 0x and 64 digits", async () => {
    const id = "2.1/unprefixed-short-address-law";
    const needsPrefixOrAllDigits: Alteration = async (exchange, forward) => {
      const answer = await forward();
      return /^\/v1\/accounts\/(?!0x)[0-9a-fA-F]{1,63}\//.test(splitPath(exchange).pathname)
        ? errorAnswer(answer, 400, "web_framework_error")
        : answer;
    };
    expectCaught(await run(needsPrefixOrAllDigits, id), id);
  }, 120_000);

  it("the address forms law catches a node that does not find 64 digits written without 0x", async () => {
    const id = "2.1/address-forms-equivalent-law";
    const needsPrefixOn64: Alteration = async (exchange, forward) => {
      const answer = await forward();
      return /^\/v1\/accounts\/[0-9a-fA-F]{64}\//.test(splitPath(exchange).pathname)
        ? errorAnswer(answer, 404, "account_not_found")
        : answer;
    };
    expectCaught(await run(needsPrefixOn64, id), id);
  }, 120_000);

  it("the u64 law catches a node that answers 500 to a malformed version", async () => {
    const id = "2.1/u64-forms-law";
    const crashOnBadU64: Alteration = async (exchange, forward) => {
      const answer = await forward();
      const q = splitPath(exchange).query;
      const versions = ["ledger_version", "start_version", "end_version"].map((name) => q.get(name)).filter((v) => v !== null);
      return answer.status === 400 && versions.length > 0 ? errorAnswer(answer, 500, "internal_error") : answer;
    };
    expectCaught(await run(crashOnBadU64, id), id);
  }, 120_000);

  it("the limit law catches a node that clamps a limit outside uint16 instead of refusing it", async () => {
    const id = "8/limit-forms-law";
    const clamp: Alteration = (exchange, forward) => {
      const limit = splitPath(exchange).query.get("limit");
      const bad = limit !== null && !(/^[0-9]+$/.test(limit) && BigInt(limit) <= 65_535n);
      return bad ? forward({ path: withQuery(exchange, (q) => q.set("limit", "100")) }) : forward();
    };
    expectCaught(await run(clamp, id), id);
  }, 120_000);
});
