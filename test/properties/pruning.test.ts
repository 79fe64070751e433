// The pruning properties and the §2.7 header laws against the reference node behind proxies that break
// one law each.

import { describe, it } from "vitest";
import { expectCaught } from "./support/conformance-run.ts";
import {
  errorAnswer,
  isPath,
  jsonOf,
  splitPath,
  withHeaders,
  withJson,
  withQuery,
  type Alteration,
  type Answer,
} from "./support/law-breaking-proxy.ts";
import { againstAltered, referenceNodeForFile } from "./support/reference-node.ts";

const target = referenceNodeForFile();

const run = (alteration: Alteration, id: string, extraArgs: readonly string[] = []) => againstAltered(target, alteration, id, extraArgs);

/** Far more than the node adds between two requests (a block a second). */
const STALE_VERSIONS = 50n;

const header = (answer: Answer, name: string) => BigInt(answer.headers[name.toLowerCase()] ?? "0");

/** Rewrites answers to requests that carry a ledger_version, given that version. */
function onVersioned(change: (answer: Answer, version: bigint, forward: () => Promise<Answer>) => Promise<Answer> | Answer): Alteration {
  return async (exchange, forward) => {
    const answer = await forward();
    const v = splitPath(exchange).query.get("ledger_version");
    if (v === null || !/^[0-9]+$/.test(v)) return answer;
    return change(answer, BigInt(v), () => forward({ path: withQuery(exchange, (q) => q.delete("ledger_version")) }));
  };
}

describe.concurrent("pruning properties against law-breaking nodes", () => {
  it("the pruned law catches a node that answers pruned versions with the latest state", async () => {
    const id = "1/pruned-version-law";
    expectCaught(
      await run(
        onVersioned((answer, _v, latest) => (answer.status === 410 ? latest() : answer)),
        id,
      ),
      id,
    );
  }, 120_000);

  it("the window law catches a node that claims its whole window but serves only its last 10 versions", async () => {
    const id = "1/window-version-law";
    const servesLastTen = onVersioned((answer, v) => {
      const oldest = header(answer, "x-node-ledger-oldest-version");
      const latest = header(answer, "x-node-ledger-version");
      return v >= oldest && v < latest - 10n ? errorAnswer(answer, 410, "version_pruned") : answer;
    });
    expectCaught(await run(servesLastTen, id), id);
  }, 120_000);

  it("the future law catches a node that answers versions above the latest with the latest state", async () => {
    const id = "4/future-version-law";
    expectCaught(
      await run(
        onVersioned((answer, _v, latest) =>
          answer.status === 404 && (jsonOf(answer) as { error_code?: string }).error_code === "version_not_found" ? latest() : answer,
        ),
        id,
      ),
      id,
    );
  }, 120_000);

  it("the version code law (SHOULD) warns about a node whose 410 says invalid_input", async () => {
    const id = "4/version-code-law";
    expectCaught(
      await run(
        onVersioned((answer) =>
          answer.status === 410 ? withJson(answer, { ...(jsonOf(answer) as object), error_code: "invalid_input" }) : answer,
        ),
        id,
      ),
      id,
    );
  }, 120_000);

  it("the header consistency law catches a node whose oldest version is above its ledger version", async () => {
    const id = "2.7/header-consistency";
    const invert: Alteration = async (_exchange, forward) => {
      const answer = await forward();
      const latest = answer.headers["x-node-ledger-version"];
      return latest === undefined ? answer : withHeaders(answer, { "x-node-ledger-oldest-version": (BigInt(latest) + 1n).toString() });
    };
    expectCaught(await run(invert, id), id);
  }, 120_000);

  it("the monotonic law catches a node whose health answers come from a stale cache", async () => {
    const id = "2.7/ledger-state-monotonic";
    // Chosen by the request, not by a count of answers: with cases run concurrently, "every other answer"
    // can give one sequence only the altered answers and another none, and neither goes back.
    const staleHealth: Alteration = async (exchange, forward) => {
      const answer = await forward();
      const latest = answer.headers["x-node-ledger-version"];
      if (latest === undefined || !isPath(exchange, "/v1/-/healthy")) return answer;
      return withHeaders(answer, { "x-node-ledger-version": (BigInt(latest) - STALE_VERSIONS).toString() });
    };
    expectCaught(await run(staleHealth, id), id);
  }, 120_000);

  it("the future law catches, with one drawn case, a node whose ledger version header is one short of its reads", async () => {
    const id = "4/future-version-law";
    const oneShort: Alteration = async (_exchange, forward) => {
      const answer = await forward();
      const latest = answer.headers["x-node-ledger-version"];
      return latest === undefined ? answer : withHeaders(answer, { "x-node-ledger-version": (BigInt(latest) - 1n).toString() });
    };
    // At --depth 0.01 each law draws one case: only the fixed example (one version ahead) can show it.
    expectCaught(await run(oneShort, id, ["--depth", "0.01"]), id);
  }, 120_000);

  it("the timestamp law catches a node whose timestamp header is its wall clock", async () => {
    const id = "2.7/timestamp-of-ledger-version";
    const wallClock: Alteration = async (_exchange, forward) => {
      const answer = await forward();
      return answer.headers["x-node-ledger-timestampusec"] === undefined
        ? answer
        : withHeaders(answer, { "x-node-ledger-timestampusec": (BigInt(Date.now()) * 1000n).toString() });
    };
    expectCaught(await run(wallClock, id), id);
  }, 120_000);

  it("the ledger info law (SHOULD) warns about a node whose timestamp header differs from its ledger info's", async () => {
    const id = "2.7/timestamp-matches-ledger-info";
    // One microsecond later than the version's timestamp, on the ledger info's answer alone.
    const late: Alteration = async (exchange, forward) => {
      const answer = await forward();
      const value = answer.headers["x-node-ledger-timestampusec"];
      if (!/^\/v1\/?$/.test(splitPath(exchange).pathname) || value === undefined) return answer;
      return withHeaders(answer, { "x-node-ledger-timestampusec": (BigInt(value) + 1n).toString() });
    };
    expectCaught(await run(late, id), id);
  }, 120_000);
});
