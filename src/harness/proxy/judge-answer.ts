// One answer judged as a run judges every answer, apart from any check: the cross-cutting contract
// (observeResponse) and, for a 2xx JSON body, its operation's schema under the requirement a run checks
// it with (body-requirements.ts). The validation proxy judges each answer it forwards this way; the
// self-check replays a recorded run's answers through it, before and after an allowed variation
// rewrites them.

import { renderCurl } from "../curl.ts";
import { decodeBody } from "../content-coding.ts";
import { formatFailure } from "../failure-message.ts";
import { responseFromParts, type HttpRequest } from "../http-client.ts";
import type { LedgerMark, LedgerTracker } from "../ledger-tracker.ts";
import { observeResponse } from "../observed-contract.ts";
import type { ApiContract } from "../openapi.ts";
import { redactHeaders } from "../recording.ts";
import type { RequirementCatalog } from "../requirements.ts";
import { failingStatus, type CheckResult } from "../results.ts";
import { withFamilyNames } from "../unshown-members.ts";
import { BODY_RULES } from "./body-requirements.ts";

/** What an answer is judged against. */
export interface AnswerJudge {
  readonly contract: ApiContract;
  readonly catalog: RequirementCatalog;
  readonly headerPrefix: string;
  /** The cap on a decoded body. */
  readonly maxResponseBytes: number;
}

/** One exchange as it came: the request, and the answer's status, headers (lower-case names) and bytes as sent. */
export interface JudgedExchange {
  readonly request: HttpRequest;
  /** The request's path under the node's base URL (which ends in /v1), with the query; undefined for a path outside it. */
  readonly path: string | undefined;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as it came, its Content-Encoding not yet undone. */
  readonly raw: Uint8Array;
  readonly durationMs: number;
  /** The ledger mark taken just before the request was sent. */
  readonly markBefore: LedgerMark | undefined;
}

/**
 * The judgements of one answer, labelled ("GET get_account_module"); undefined for an answer no run
 * would judge: a path beyond the contract (e.g. GET /v1), or a body in a coding the client cannot read
 * (the client that asked judges those).
 */
export function judgeAnswer(
  judge: AnswerJudge,
  tracker: LedgerTracker,
  exchange: JudgedExchange,
): { readonly label: string; readonly results: CheckResult[] } | undefined {
  const { request, status, headers } = exchange;
  if (exchange.path === undefined) return undefined;
  const operation = judge.contract.findOperation(request.method, exchange.path);
  if (operation === undefined) return undefined;
  const readable = decodeBody(exchange.raw, headers["content-encoding"], judge.maxResponseBytes);
  if (!readable.ok) return undefined;
  const curl = renderCurl({ ...request, headers: redactHeaders(request.headers) });
  const { catalog, contract, headerPrefix } = judge;
  const { response, foundByType } = withFamilyNames(
    operation.id,
    responseFromParts({ request, status, headers, body: readable.body, durationMs: exchange.durationMs, curl, codings: readable.codings }),
    contract.errorCodes,
  );
  const results = observeResponse(
    { catalog, contract, headerPrefix, tracker },
    { operation, response, markBefore: exchange.markBefore, foundByType },
  );
  const bodyRule = BODY_RULES[operation.id];
  const bodyRequirement = bodyRule?.requirement;
  const declared = operation.response(status);
  if (
    bodyRequirement !== undefined &&
    declared !== undefined &&
    status < 300 &&
    response.contentType !== undefined &&
    !declared.isBinary(response.contentType)
  ) {
    const json = bodyRule?.asRead === undefined ? response.json : bodyRule.asRead(response.json);
    const problems = declared.validateBody(response.contentType, { json, text: response.text });
    // undefined: a media type the operation does not declare, judged by 4/media-type-declared.
    if (problems !== undefined) {
      results.push(
        problems.length === 0
          ? { requirement: bodyRequirement, status: "passed", failures: [] }
          : {
              requirement: bodyRequirement,
              status: failingStatus(catalog.get(bodyRequirement).level),
              failures: [
                formatFailure({
                  requirement: bodyRequirement,
                  expected: `a body matching the ${operation.id} ${status} ${response.contentType} schema`,
                  found: problems.slice(0, 10).join("; "),
                  response,
                  headerPrefix,
                }),
              ],
            },
      );
    }
  }
  return { label: `${request.method} ${operation.id}`, results };
}
