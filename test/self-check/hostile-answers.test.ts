// No pass without evidence: the whole conformance command, run as a node team runs it (with the
// reference node's fixtures, so that every fixture-bound check runs too), against servers that answer
// every request the same way (200 {}, 404 with and without the error object, a 302). Such a server conforms to almost nothing, so almost every requirement
// must end failed, warned, skipped or not applicable. The few that pass are listed here, each with why
// its text is truly satisfied by that one answer; any other pass is a check that passes without
// evidence (a branch that returns without asserting, a loop that ran zero times, a vacuous property).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Summary } from "../../reporters/summary.ts";
import { startNode } from "../../src/node/index.ts";
import { httpServer, type Running } from "../harness/servers.ts";
import { conformance, fixturesFile, removeScratch } from "../properties/support/conformance-run.ts";

interface HostileAnswer {
  readonly name: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** The requirements that may pass, and why that answer satisfies each one's text. */
  readonly passes: Readonly<Record<string, string>>;
}

const ERROR_OBJECT = JSON.stringify({ message: "not found", error_code: "resource_not_found" });

/**
 * The refusals whose MUST is a client error, any 4xx (§7.1 leaves the conditions of the statuses
 * unshown; the family's exact status is a SHOULD of its own, which fails): a 404 to every malformed or
 * missing input satisfies them.
 */
const REFUSED_WITH_ANY_4XX: Readonly<Record<string, string>> = Object.fromEntries(
  [
    "2.1/u64-forms-law",
    "8/limit-forms-law",
    "4.2/malformed-handle-rejected",
    "4.2/malformed-ledger-version-rejected",
    "4.2/body-required",
    "4.2/malformed-body-rejected",
    "4.2/invalid-type-rejected",
    "4.2/key-mismatch-rejected",
    "4.3/malformed-limit-rejected",
    "4.3/malformed-address-rejected",
    "4.3/malformed-version-rejected",
    "4.4/malformed-address-rejected",
    "4.4/malformed-ledger-version-rejected",
    "4.5/malformed-address-rejected",
    "4.5/malformed-ledger-version-rejected",
    "4.5/malformed-limit-rejected",
    "4.5/malformed-cursor-rejected",
    "4.8/body-required",
    "4.8/broken-json-rejected",
    "4.8/json-missing-member-rejected",
  ].map((id) => [
    id,
    "the malformed request is refused with a client error, 404; that the family answers 400 is its error-codes SHOULD's, which fails",
  ]),
);

const ANSWERS: readonly HostileAnswer[] = [
  {
    name: "200 {} (application/json) to everything",
    status: 200,
    contentType: "application/json",
    body: "{}",
    passes: {
      "7.1/listed-status": "every answer is 200, which every endpoint lists (a submission's success is any 2xx: §4.8 leaves it unshown)",
      "7.1/unsupported-body-status": "a body the operation does not take is answered 200 too, a status §4.2 and §4.8 list",
      "4/bcs-body-labelled":
        "a 200 body labelled application/json is JSON, and nothing else is served: every body is labelled as what it is",
      "4.7/healthy-without-duration":
        'without duration_secs the answer is 200 with "the health success object: it is an object; its members are not shown" (§2.6), which {} is',
    },
  },
  {
    name: "404 with a JSON error object to everything",
    status: 404,
    contentType: "application/json",
    body: ERROR_OBJECT,
    passes: {
      "2.6/error-object": "every error is the JSON error object {message, error_code}",
      "4/errors-json-when-bcs-asked":
        "an error asked for as BCS is the JSON error object, judged by 2.6/error-object's rule (that 404 is not a status the endpoint lists is 7.1/listed-status's, which fails)",
      "7.2/error-code-known": "resource_not_found is one of the §7.2 values",
      "2/family-member-names": "the error object's message and code carry the family's names",
      "2.7/no-cursor-on-error": "no answer carries a cursor header",
      "4.2/missing-item-not-found":
        "a key with no item is answered with a client error, 404 (the present key's 200 is 4.2/item-found's, which fails)",
      "4.4/missing-module-not-found":
        "a missing module is answered with a client error, 404 (a present one's 200 is 4.4/module-record's, which fails)",
      "4.8/oversized-body-refused": "a 9 MiB body is refused with a client error; that it is 413 is 4.8/oversized-body-413's, which fails",
      "7.1/unsupported-body-status":
        "a body §4.2 or §4.8 does not take is refused with 404, a status both list (another endpoint's 404 is 7.1/listed-status's, which fails)",
      ...REFUSED_WITH_ANY_4XX,
    },
  },
  {
    name: "404 with a plain-text body to everything",
    status: 404,
    contentType: "text/plain",
    body: "Not Found",
    passes: {
      "2.7/no-cursor-on-error": "no answer carries a cursor header",
      "4.2/missing-item-not-found": "a key with no item is answered 404 (the error object's form is 2.6/error-object's, which fails)",
      "4.4/missing-module-not-found": "a missing module is answered 404 (the error object's form is 2.6/error-object's, which fails)",
      "4.8/oversized-body-refused": "a 9 MiB body is refused with a client error; that it is 413 is 4.8/oversized-body-413's, which fails",
      "7.1/unsupported-body-status":
        "a body §4.2 or §4.8 does not take is refused with 404, a status both list (another endpoint's 404 is 7.1/listed-status's, which fails)",
      ...REFUSED_WITH_ANY_4XX,
    },
  },
  {
    // Not followed by the suite: a redirect is no answer about the interface (4.8/oversized-body-refused passed on one).
    name: "302 (a redirect elsewhere) to everything",
    status: 302,
    contentType: "text/plain",
    body: "",
    passes: {},
  },
];

let fixtures: string;
beforeAll(async () => {
  const node = await startNode({ onInternalError: () => undefined });
  fixtures = fixturesFile(node.fixtures);
  await node.close();
}, 60_000);
afterAll(() => removeScratch());

describe("against a server that answers every request the same way", () => {
  describe.each(ANSWERS)("$name", (answer) => {
    let server: Running;
    beforeAll(async () => {
      server = await httpServer((_req, res) => {
        res.writeHead(answer.status, {
          "content-type": answer.contentType,
          ...(answer.status === 302 ? { location: "http://127.0.0.1:9/elsewhere" } : {}),
        });
        res.end(answer.body);
      });
    });
    afterAll(() => server.close());

    it("exits 1 and passes only the requirements that answer satisfies", async () => {
      const run = await conformance(["--target", `${server.origin}/v1`, "--fixtures", fixtures], { timeoutMs: 240_000 });
      const context = `exit ${run.code}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`;
      expect(run.summary, `no summary.json\n${context}`).toBeDefined();
      expect(run.code, context).toBe(1);
      // summary.json in full (the properties' helper types only what they read).
      const summary = run.summary as Summary | undefined;
      const requirements = summary?.requirements ?? [];
      const passed = requirements.filter((r) => r.status === "passed").map((r) => r.id);
      // Where the verdicts differ: each requirement's status, with its reason or first failure.
      const differing = requirements
        .filter((r) => (r.status === "passed") !== r.id in answer.passes)
        .map((r) => `${r.id}: ${r.status} (${r.checks} checks) ${r.reason ?? r.failures[0]?.message.split("\n")[0] ?? ""}`);
      expect(
        passed.sort(),
        `requirements passed against ${answer.name}:\n${differing.join("\n")}\n${JSON.stringify(summary?.errors ?? []).slice(0, 2000)}\n${context}`,
      ).toEqual(Object.keys(answer.passes).sort());
    }, 300_000);
  });
});
