// Recorded answers of the real Aptos node (aptos-core's API test goldens, api/goldens/), judged by the
// suite's own contract code: observeResponse, the function every live response goes through, and the
// body schema of schemas/openapi.yaml compiled by ApiContract, the one expectBodyMatchesSchema uses.
// Each file of aptos-goldens/ names its source (repository, path, commit), the test that recorded it,
// the status that test expects, and what the suite must conclude: "accepted" (every verdict the
// recording gives evidence for passes), or the requirements it fails and why (an older format, or a
// deviation of aptos-core from the spec).
//
// A golden holds the body only. So only the verdicts a recording gives evidence for are asserted: the
// status (7.1), the error object and its code (2.6, 7.2) and the body schema; the ledger-state headers
// and the media-type rules are not recorded and their verdicts are left out. The Content-Type the
// error-object rule reads is stated in each file with its source (aptos-core answers JSON bodies as
// application/json).

import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { catalog } from "../../src/harness/harness.ts";
import { responseFromParts } from "../../src/harness/http-client.ts";
import { LedgerTracker } from "../../src/harness/ledger-tracker.ts";
import { OBSERVED, observeResponse } from "../../src/harness/observed-contract.ts";
import { ApiContract } from "../../src/harness/openapi.ts";

const DIR = new URL("./aptos-goldens/", import.meta.url);
const PREFIX = "X-APTOS-";
/** What a recorded hash blanked by the golden writer becomes: any well-formed 32-byte hash. */
const PLACEHOLDER_HASH = `0x${"ab".repeat(32)}`;
/** The observed-contract verdicts a body-only recording gives evidence for. */
const EVIDENCED = new Set<string>([OBSERVED.statusInSet, OBSERVED.unsupportedBodyStatus, OBSERVED.errorObject, OBSERVED.errorCodeKnown]);

interface RecordedCase {
  readonly source: { readonly repo: string; readonly path: string; readonly commit: string };
  readonly recordedBy: string;
  /**
   * The request; a golden keeps no request body, so a POST is judged as one with a body of `contentType`
   * (as the recording test sent it), by default the first media type the operation takes.
   */
  readonly request: { readonly method: string; readonly path: string; readonly contentType?: string };
  readonly status: number;
  readonly contentType: string;
  readonly contentTypeSource: string;
  /** The requirement a 2xx body's schema is judged under (the check that validates it on a live node). */
  readonly bodyRequirement?: string;
  readonly blankedByRecorder?: { readonly members: readonly string[]; readonly why: string };
  readonly expect: "accepted" | { readonly rejected: readonly string[]; readonly why: string };
  readonly body: unknown;
}

const cases = readdirSync(DIR)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => ({ name, recorded: JSON.parse(readFileSync(new URL(name, DIR), "utf8")) as RecordedCase }));

const contract = ApiContract.load(undefined, PREFIX);
const requirements = catalog();

/** The body as the node sent it, with what the golden writer blanked put back in a well-formed form. */
function sentBody(c: RecordedCase): unknown {
  const members = c.blankedByRecorder?.members ?? [];
  if (members.length === 0) return c.body;
  const body = { ...(c.body as Record<string, unknown>) };
  for (const member of members) if (body[member] === "") body[member] = PLACEHOLDER_HASH;
  return body;
}

/** requirement id -> "passed" | "failed" | "warned", for the verdicts the recording gives evidence for. */
function judge(c: RecordedCase): Map<string, string> {
  const operation = contract.findOperation(c.request.method, c.request.path);
  if (operation === undefined) throw new Error(`${c.request.method} ${c.request.path} is no operation of the contract`);
  const url = `http://recorded.invalid/v1${c.request.path}`;
  const contentType = c.request.contentType ?? operation.requestMediaTypes[0];
  const body = c.request.method === "POST" && contentType !== undefined ? new TextEncoder().encode("(not recorded)") : undefined;
  const bodyHeaders: Record<string, string> = body === undefined || contentType === undefined ? {} : { "content-type": contentType };
  const response = responseFromParts({
    request: {
      method: c.request.method,
      url,
      headers: { accept: "application/json", ...bodyHeaders },
      ...(body === undefined ? {} : { body }),
    },
    status: c.status,
    headers: { "content-type": c.contentType },
    body: new TextEncoder().encode(JSON.stringify(sentBody(c))),
    durationMs: 0,
    curl: `(recorded: ${c.source.path} at ${c.source.commit})`,
  });
  const verdicts = new Map<string, string>();
  const context = { catalog: requirements, contract, headerPrefix: PREFIX, tracker: new LedgerTracker() };
  for (const result of observeResponse(context, { operation, response, markBefore: undefined })) {
    if (EVIDENCED.has(result.requirement)) verdicts.set(result.requirement, result.status);
  }
  if (c.status < 300) {
    if (c.bodyRequirement === undefined) throw new Error("a success recording names the requirement its body is judged under");
    const problems = operation.response(c.status)?.validateBody(c.contentType, { json: response.json, text: response.text });
    verdicts.set(c.bodyRequirement, problems !== undefined && problems.length === 0 ? "passed" : "failed");
  }
  return verdicts;
}

describe("recorded answers of aptos-core (api/goldens) judged by the suite's contract", () => {
  it("holds recordings of successes and errors, current and older formats", () => {
    expect(cases.filter((c) => c.recorded.expect === "accepted").length).toBeGreaterThanOrEqual(5);
    expect(cases.filter((c) => c.recorded.expect !== "accepted").length).toBeGreaterThanOrEqual(3);
    expect(cases.some((c) => c.recorded.status < 300)).toBe(true);
  });

  it.each(cases)("$name", ({ recorded: c }) => {
    expect(c.source.repo).toBe("aptos-labs/aptos-core");
    expect(c.source.path).toMatch(/^api\/goldens\/.+\.json$/);
    expect(c.source.commit).toMatch(/^[0-9a-f]{40}$/);
    const verdicts = judge(c);
    expect(verdicts.size, "the recording gives evidence for at least one verdict").toBeGreaterThan(0);
    const failing = [...verdicts]
      .filter(([, status]) => status !== "passed")
      .map(([id]) => id)
      .sort();
    if (c.expect === "accepted") {
      expect(failing, `${c.source.path}@${c.source.commit} is a current-format answer: every verdict passes`).toEqual([]);
    } else {
      expect(c.expect.why.length, "a rejected recording says why").toBeGreaterThan(20);
      expect(failing, `${c.source.path}@${c.source.commit}: ${c.expect.why}`).toEqual([...c.expect.rejected].sort());
    }
  });
});
