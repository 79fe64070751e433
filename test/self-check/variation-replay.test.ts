// No false failures, in the fast tier: every allowed variation that rewrites answers (test/support/
// variations.ts: an unknown member, OWS around a header value, another member order, a coded body, …)
// is proven on a recorded clean run. The run (the cross-cutting sample of suite-files.ts and the
// accepted submissions, against the clean reference node, in both profiles, the aptos profile with the
// shipped baseline) is recorded with --record;
// each recorded answer is then rewritten by each variation, and judged before and after as a run
// judges every answer, apart from any check (src/harness/proxy/judge-answer.ts: the client's reading,
// the cross-cutting contract and the body's schema). A variation must change some answers, and must
// make no answer fail, or warn beyond the conventions it departs from, where the answer as the node
// sent it did not.
//
// What this does not prove, the full tier does (allowed-variations.test.ts): the checks' own reading
// of every answer under each variation, live, over the whole suite; and the variations of the
// transport (framing, interim answers, closed connections, a gateway's declines, delays).

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpRequest } from "../../src/harness/http-client.ts";
import { flattenHeaders } from "../../src/harness/http-client.ts";
import { LedgerTracker } from "../../src/harness/ledger-tracker.ts";
import { ApiContract } from "../../src/harness/openapi.ts";
import { headerFields } from "../../src/harness/proxy/forward.ts";
import { judgeAnswer, type AnswerJudge } from "../../src/harness/proxy/judge-answer.ts";
import { EXCHANGES_FILE, type RecordedBody, type RecordedExchange } from "../../src/harness/recording.ts";
import { loadRequirements } from "../../src/harness/requirements.ts";
import type { CheckResult } from "../../src/harness/results.ts";
import { WIRE_PROFILES } from "../../src/harness/config.ts";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import type { Answer } from "../support/proxy-answer.ts";
import { runSuitesAtOnce } from "../support/suite-runs.ts";
import { rewritesAnswersOnly, VARIATIONS, type Variation, type VariationHooks } from "../support/variations.ts";
import { APTOS_CORE_BASELINE, aptosCoreBaselined } from "./conformance-run.ts";
import { CROSS_CUTTING_SAMPLE } from "./suite-files.ts";

/** The recorded run: the sample that reaches every read operation, and the accepted submissions (§4.8). */
const RECORDED_FILES = [...CROSS_CUTTING_SAMPLE, "suites/submit-transaction-accepted.test.ts"];
const PROFILES = ["node", "aptos"] as const;
type Profile = (typeof PROFILES)[number];

/** The variations that rewrite answers and nothing else: the others act on the wire (transport-variations.test.ts). */
const ANSWER_REWRITES: readonly Variation[] = VARIATIONS.filter(rewritesAnswersOnly);

/** A recorded exchange whose request and answer were kept whole. */
interface Replayable {
  readonly request: HttpRequest;
  /** The request target as the node saw it (/v1/…, with the query). */
  readonly target: string;
  readonly status: number;
  /** As the client read them: lower-case names, the body's coding undone. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

const bytesOf = (body: RecordedBody) => Buffer.from(body.data, body.encoding);

function replayable(exchange: RecordedExchange, base: URL): Replayable | undefined {
  const { request, response } = exchange;
  if (response === null || response.body.truncated || request.body?.truncated === true) return undefined;
  const target = `${base.pathname.replace(/\/$/, "")}${request.path}`;
  const body = bytesOf(response.body);
  // The recording holds the body as the client read it: its coding undone, so its length is the body's.
  const headers = Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name]) => name !== "content-encoding")
      .map(([name, value]) => [name, name === "content-length" ? String(body.length) : value]),
  );
  return {
    request: {
      method: request.method,
      url: `${base.origin}${target}`,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: bytesOf(request.body) }),
    },
    target,
    status: response.status,
    headers,
    body,
  };
}

/** The answer as the variation proxy holds it (proxy-answer.ts). */
function answerOf(exchange: Replayable): Answer {
  return {
    method: exchange.request.method,
    path: exchange.target.split("?")[0] as string,
    target: exchange.target,
    requestHeaders: exchange.request.headers,
    status: exchange.status,
    headers: Object.entries(exchange.headers),
    body: exchange.body,
  };
}

/**
 * Each exchange's judgements. Without a ledger mark: a recording keeps the order answers came in, not
 * the order requests were sent in, so the rule that a later request sees no older ledger state
 * (2.7/ledger-state-monotonic) has nothing to go on; it is about the node's state over time, which no
 * rewrite of one answer changes.
 */
function judgeAll(
  judge: AnswerJudge,
  exchanges: readonly { readonly request: HttpRequest; readonly answer: Answer }[],
): (CheckResult[] | undefined)[] {
  const tracker = new LedgerTracker();
  const basePath = "/v1";
  return exchanges.map(
    ({ request, answer }) =>
      judgeAnswer(judge, tracker, {
        request,
        path: answer.target.startsWith(`${basePath}/`) ? answer.target.slice(basePath.length) : undefined,
        status: answer.status,
        headers: flattenHeaders(headerFields(answer.headers)),
        raw: answer.body,
        durationMs: 1,
        markBefore: undefined,
      })?.results,
  );
}

/** The requirements `results` fail, or warn beyond `departures`. */
function notOk(results: readonly CheckResult[] | undefined, departures: ReadonlySet<string>): Map<string, string> {
  const found = new Map<string, string>();
  for (const r of results ?? [])
    if (r.status === "failed" || (r.status === "warned" && !departures.has(r.requirement)))
      found.set(r.requirement, `${r.status}: ${r.failures[0]?.message.split("\n").slice(0, 3).join(" ") ?? ""}`);
  return found;
}

const nodes: RunningNode[] = [];
const scratch = mkdtempSync(join(tmpdir(), "variation-replay-"));
const recorded = new Map<Profile, { readonly exchanges: readonly Replayable[]; readonly judge: AnswerJudge }>();

beforeAll(async () => {
  for (const profile of PROFILES) nodes.push(await startNode({ profile }));
  const results = await runSuitesAtOnce(
    PROFILES.map((profile, i) => {
      const node = nodes[i] as RunningNode;
      return {
        name: profile,
        target: node.url,
        fixtures: node.fixtures,
        profile,
        files: RECORDED_FILES,
        // aptos-core's own deviations, as an Aptos-family team runs the suite.
        ...(profile === "aptos" ? { baseline: APTOS_CORE_BASELINE } : {}),
        extraArgs: ["--record"],
      };
    }),
    { scratch, maxDurationMs: 120_000 },
  );
  const contract = ApiContract.load();
  const catalog = loadRequirements(contract.operations.map((o) => o.id));
  PROFILES.forEach((profile, i) => {
    const run = results.get(profile);
    if (run === undefined) throw new Error(`no recorded run in the ${profile} profile`);
    if (run.exitCode !== 0) throw new Error(`the recorded run in the ${profile} profile exited ${run.exitCode}: it is not a clean run`);
    const base = new URL((nodes[i] as RunningNode).url);
    const exchanges = readFileSync(join(run.reportDir, EXCHANGES_FILE), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => replayable(JSON.parse(line) as RecordedExchange, base))
      .filter((exchange): exchange is Replayable => exchange !== undefined);
    const { headerPrefix } = WIRE_PROFILES[profile];
    recorded.set(profile, {
      exchanges,
      judge: { contract: ApiContract.load(undefined, headerPrefix), catalog, headerPrefix, maxResponseBytes: 8 * 1024 * 1024 },
    });
  });
}, 180_000);

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.close()));
  rmSync(scratch, { recursive: true, force: true });
});

describe("a recorded clean run, replayed under every variation that rewrites answers", () => {
  it("holds enough answers to replay, judged as the node sent them clean but for aptos-core's own deviations", () => {
    expect(ANSWER_REWRITES.length).toBeGreaterThanOrEqual(10);
    const baselined = aptosCoreBaselined();
    for (const profile of PROFILES) {
      const { exchanges, judge } = recorded.get(profile) ?? { exchanges: [], judge: undefined };
      expect(exchanges.length, profile).toBeGreaterThan(200);
      const before = judgeAll(
        judge as AnswerJudge,
        exchanges.map((exchange) => ({ request: exchange.request, answer: answerOf(exchange) })),
      );
      expect(before.filter((results) => results !== undefined).length, profile).toBeGreaterThan(200);
      const notClean = before.flatMap((results, i) =>
        [...notOk(results, new Set()).entries()]
          .filter(([id]) => profile === "node" || !baselined.has(id))
          .map(([id, message]) => `${exchanges[i]?.request.method} ${exchanges[i]?.target}: ${id} ${message}`),
      );
      expect(notClean.slice(0, 5), profile).toEqual([]);
    }
  });

  it.each(
    ANSWER_REWRITES.flatMap((variation) =>
      PROFILES.map((profile) => [`${variation.name} (${profile} profile)`, variation, profile] as const),
    ),
  )("%s", (_label, variation, profile) => {
    const { broken, changed } = replayUnder(variation.create(), new Set(variation.departsFrom ?? []), profile);
    expect(
      broken.slice(0, 10),
      `${variation.name}: answers judged clean as sent, not once rewritten:\n${broken.slice(0, 10).join("\n")}`,
    ).toEqual([]);
    expect(changed, `${variation.name}: changed no recorded answer, so the replay proves nothing`).toBeGreaterThan(0);
  });

  it("sees a rewrite that is not allowed: the ledger version header dropped from every answer", () => {
    const dropVersion: VariationHooks = {
      answer: (answer) => {
        const kept = answer.headers.filter(([name]) => !/-ledger-version$/i.test(name));
        const changed = kept.length !== answer.headers.length;
        answer.headers = kept;
        return changed;
      },
    };
    for (const profile of PROFILES) {
      const { broken, changed } = replayUnder(dropVersion, new Set(), profile);
      expect(changed, profile).toBeGreaterThan(0);
      expect(
        broken.some((line) => line.includes("2.7/required-headers-on-api-success failed")),
        `${profile}: ${broken.slice(0, 3).join("\n")}`,
      ).toBe(true);
    }
  });
});

/** Every recorded answer of `profile` rewritten by `hooks`: those judged clean as sent and not once rewritten, and how many changed. */
function replayUnder(hooks: VariationHooks, departures: ReadonlySet<string>, profile: Profile): { broken: string[]; changed: number } {
  const { exchanges, judge } = recorded.get(profile) as { exchanges: readonly Replayable[]; judge: AnswerJudge };
  let changed = 0;
  const rewritten = exchanges.map((exchange) => {
    const answer = answerOf(exchange);
    if (hooks.answer?.(answer) === true) changed++;
    return { request: exchange.request, answer };
  });
  const before = judgeAll(
    judge,
    exchanges.map((exchange) => ({ request: exchange.request, answer: answerOf(exchange) })),
  );
  const after = judgeAll(judge, rewritten);
  const broken: string[] = [];
  after.forEach((results, i) => {
    const where = `${rewritten[i]?.request.method} ${rewritten[i]?.answer.target}`;
    const was = notOk(before[i], departures);
    for (const [requirement, message] of notOk(results, departures))
      if (!was.has(requirement)) broken.push(`${where}: ${requirement} ${message}`);
    // An answer the client could read as sent and no longer can: the variation broke the reading itself.
    if (before[i] !== undefined && results === undefined) broken.push(`${where}: no longer readable`);
  });
  return { broken, changed };
}
