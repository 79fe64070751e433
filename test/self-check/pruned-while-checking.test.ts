// A version pruned while a check reads it: the checks that read before and at a known change of the
// fixtures' history (a module's publication, a table item's insert) see it inside the window first,
// then read it; on a node whose window moves on with every block, behind a slow link, the pruner can
// pass it in between, and the node rightly answers 410. Found in a fleet of long-lived nodes behind
// 0-300 ms proxies: "expected: status 200, found: status 410 (version_pruned)" with the answer's own
// LEDGER-OLDEST-VERSION above the version asked for. That is no evidence about what the check reads:
// the check ends not applicable, never failed. A 410 for a version the answer's own window still
// holds is the node's error, and fails the check.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import { conformance, fixturesFile, removeScratch, requirementOf } from "../properties/support/conformance-run.ts";
import { splitPath, throughProxy, withHeaders, withJson, type Alteration } from "../properties/support/law-breaking-proxy.ts";

/** The three checks of a known change, and their requirements. */
const ONLY = ["known publication", "known insert"];
const REQUIREMENTS = ["4.4/module-at-ledger-version", "4.5/listing-at-ledger-version", "4.2/item-at-ledger-version"] as const;

let node: RunningNode;
let fixtures: string;
beforeAll(async () => {
  node = await startNode();
  fixtures = fixturesFile(node.fixtures);
});
afterAll(async () => {
  await node.close();
  removeScratch();
});

/** The versions the checks read: each change's, and the one before it. */
function historyVersions(): Set<string> {
  const history = node.fixtures.history ?? {};
  const versions = [history.modulePublished?.version, history.tableItemInserted?.version].filter((v): v is string => v !== undefined);
  expect(versions, "the reference node's fixtures name both changes").toHaveLength(2);
  return new Set(versions.flatMap((v) => [v, (BigInt(v) - 1n).toString()]));
}

/** Answers a read at a history version with the node's 410, its window's oldest version `oldestOf(version)`. */
const prunedAnswer =
  (oldestOf: (version: bigint) => bigint): Alteration =>
  async (exchange, forward) => {
    const version = splitPath(exchange).query.get("ledger_version");
    if (version === null || !historyVersions().has(version)) return forward();
    const healthy = await forward({ method: "GET", path: "/v1/-/healthy", body: Buffer.alloc(0) });
    const oldest = oldestOf(BigInt(version));
    return withHeaders(
      withJson(
        healthy,
        { message: `Ledger version ${version} has been pruned; the oldest available version is ${oldest}`, error_code: "version_pruned" },
        410,
      ),
      {
        "x-node-ledger-oldest-version": oldest.toString(),
      },
    );
  };

describe("a version pruned while a check reads it", () => {
  it("ends the check not applicable when the node's 410 reports its oldest version past the one read", async () => {
    const run = await throughProxy(
      node.url,
      prunedAnswer((version) => version + 1n),
      (url) => conformance(["--target", url, "--fixtures", fixtures, ...ONLY.flatMap((o) => ["--only", o])]),
    );
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    for (const id of REQUIREMENTS) {
      const r = requirementOf(run, id) as { status: string; reason?: string };
      expect(r.status, `${id}: ${JSON.stringify(r)}`).toBe("not_applicable");
      expect(r.reason, id).toMatch(/was pruned while the check ran: the 410 answer reports X-NODE-LEDGER-OLDEST-VERSION \d+/);
    }
  });

  it("fails the check when the node answers 410 for a version its own answer says it still holds", async () => {
    const run = await throughProxy(
      node.url,
      prunedAnswer((version) => version),
      (url) => conformance(["--target", url, "--fixtures", fixtures, ...ONLY.flatMap((o) => ["--only", o])]),
    );
    expect(run.code, run.stdout.slice(-3000)).toBe(1);
    for (const id of REQUIREMENTS) expect(requirementOf(run, id).status, id).toBe("failed");
  });
});
