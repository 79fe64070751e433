// The observed-status contract: whatever provoked a response, it must fit the contract for its
// status. Every response a check receives through `t.request` goes through `observeResponse`, and the
// outcomes are recorded under the cross-cutting requirement ids of schemas/requirements/ (not the
// check's own id), so a deviation in any response anywhere in the suite is caught.

import type { HttpResponse } from "./http-client.ts";
import { boundedInteger, errorCodeOf, headerValue, LEDGER_HEADERS } from "./response-facts.ts";
import type { LedgerMark, LedgerTracker } from "./ledger-tracker.ts";
import type { ApiContract, OperationContract } from "./openapi.ts";
import { errorObjectProblem } from "./error-object.ts";
import type { RequirementCatalog } from "./requirements.ts";
import { failingStatus, type CheckResult, type Failure } from "./results.ts";
import { formatFailure } from "./failure-message.ts";
import { foreignLedgerPrefixes } from "./foreign-header-prefix.ts";
import { bringsUnsupportedBody } from "./unsupported-body.ts";

/** The specification pages (§4.1), whose ledger headers are judged apart from the API's answers'. */
const SPEC_PAGES: ReadonlySet<string> = new Set(["spec", "spec_yaml", "spec_json"]);

export const OBSERVED = {
  statusInSet: "7.1/listed-status",
  unsupportedBodyStatus: "7.1/unsupported-body-status",
  errorObject: "2.6/error-object",
  errorCodeKnown: "7.2/error-code-known",
  requiredHeaders: "2.7/required-headers-on-api-success",
  requiredHeadersSpecPages: "2.7/required-headers-on-spec-pages",
  headerForms: "2.7/header-integer-forms",
  headerConsistency: "2.7/header-consistency",
  chainId: "2.7/chain-id-matches",
  monotonic: "2.7/ledger-state-monotonic",
  noCursorOnError: "2.7/no-cursor-on-error",
  cursorLastPage: "2.7/cursor-absent-on-last-page",
  mediaType: "4/media-type-declared",
  acceptSelects: "4/accept-selects-media-type",
  familyMemberNames: "2/family-member-names",
} as const;

export interface ObservedContext {
  readonly catalog: RequirementCatalog;
  /** The §7.2 codes and the §2.6 error object's rule, from the contract. */
  readonly contract: Pick<ApiContract, "errorCodes" | "errorObjectProblems">;
  /** e.g. "X-NODE-". */
  readonly headerPrefix: string;
  readonly fixturesChainId?: number;
  readonly tracker: LedgerTracker;
}

export interface ObservedExchange {
  readonly operation: OperationContract;
  readonly response: HttpResponse;
  /** The ledger mark taken just before the request was sent. */
  readonly markBefore: LedgerMark | undefined;
  /** Members the spec leaves unnamed that the answer names otherwise, found by type (unshown-members.ts). */
  readonly foundByType?: readonly string[] | undefined;
}

/** What one rule found wrong: the expectation and what came back. */
interface Problem {
  readonly expected: string;
  readonly found?: string;
}

/** A rule's judgement of one response: it holds, it does not (the problem), or it does not apply. */
type Judgement = "holds" | Problem | "not applicable";

/** One response as the rules see it, its §2.7 headers parsed once. */
interface Observation {
  readonly ctx: ObservedContext;
  readonly res: HttpResponse;
  readonly op: OperationContract;
  readonly markBefore: LedgerMark | undefined;
  readonly foundByType: readonly string[] | undefined;
  /** The ledger headers present in a valid form, by suffix. */
  readonly values: ReadonlyMap<string, bigint>;
  /** The ledger headers present in another form, as the failure names them. */
  readonly badForms: readonly string[];
  header(suffix: string): string | undefined;
}

const isError = (o: Observation) => o.res.status >= 400;
const isSuccess = (o: Observation) => o.res.status >= 200 && o.res.status < 300;
const holdsUnless = (problem: Problem | undefined): Judgement => problem ?? "holds";

/** §7.1: the status is one the endpoint lists. */
function statusInSet(o: Observation): Judgement {
  const { op, res } = o;
  return holdsUnless(
    op.lists(res.status) ? undefined : { expected: `a status ${op.id} lists: ${op.statusSet}`, found: `status ${res.status}` },
  );
}

/** §2.6: an error answer is the error object. */
function errorObject(o: Observation): Judgement {
  return isError(o) ? holdsUnless(errorObjectProblem(o.ctx.contract, o.res)) : "not applicable";
}

/** §7.2: an error's code is one the spec lists. */
function errorCodeKnown(o: Observation): Judgement {
  const code = isError(o) ? errorCodeOf(o.res) : undefined;
  if (code === undefined) return "not applicable";
  const codes = o.ctx.contract.errorCodes;
  return holdsUnless(
    codes.includes(code) ? undefined : { expected: `error_code one of §7.2 (${codes.join(", ")})`, found: JSON.stringify(code) },
  );
}

/** §2.7: no cursor on an error. */
function noCursorOnError(o: Observation): Judgement {
  if (!isError(o)) return "not applicable";
  const cursor = o.header("CURSOR");
  const prefix = o.ctx.headerPrefix;
  return holdsUnless(
    cursor === undefined ? undefined : { expected: `no ${prefix}CURSOR on an error`, found: `${prefix}CURSOR: ${cursor}` },
  );
}

/** §2.7: a success carries the ledger headers, and the headers its operation declares required. */
function requiredHeaders(o: Observation): Judgement {
  if (!isSuccess(o)) return "not applicable";
  const { res, op, ctx } = o;
  const prefix = ctx.headerPrefix.toLowerCase();
  const declared =
    op
      .response(res.status)
      ?.headers.filter((h) => h.required)
      .map((h) => h.name) ?? [];
  const builtIn = LEDGER_HEADERS.filter((h) => h.requiredOnSuccess).map((h) => `${prefix}${h.suffix.toLowerCase()}`);
  const missing = [...new Set([...builtIn, ...declared])].filter((name) => res.headers[name] === undefined);
  return holdsUnless(
    missing.length === 0
      ? undefined
      : {
          expected: `headers ${missing.join(", ")} on a ${res.status}`,
          found: `missing ${missing.join(", ")}${otherPrefixHint(res, ctx.headerPrefix)}`,
        },
  );
}

/** The media types the operation declares for this success, when there is a body to judge. */
function declaredMediaTypes(o: Observation): readonly string[] | undefined {
  if (!isSuccess(o)) return undefined;
  const declared = o.op.response(o.res.status);
  if (declared === undefined || declared.mediaTypes.length === 0) return undefined;
  // An empty body without a Content-Type (e.g. an accepted BCS submission) has no media type to judge.
  if (o.res.contentType === undefined && o.res.body.length === 0) return undefined;
  return declared.mediaTypes;
}

/** §4: the Content-Type is one the operation declares. */
function mediaType(o: Observation): Judgement {
  const declared = declaredMediaTypes(o);
  if (declared === undefined) return "not applicable";
  const type = o.res.contentType ?? "(none)";
  return holdsUnless(declared.includes(type) ? undefined : { expected: `Content-Type one of ${declared.join(", ")}`, found: type });
}

/** §4: where a 200 may be JSON or BCS, the Accept header chooses. */
function acceptSelects(o: Observation): Judgement {
  const declared = declaredMediaTypes(o);
  if (declared === undefined || o.res.status !== 200 || !declared.includes("application/json") || !declared.includes("application/x-bcs"))
    return "not applicable";
  const type = o.res.contentType ?? "(none)";
  const accept = (o.res.request.headers.accept ?? o.res.request.headers.Accept ?? "").trim().toLowerCase();
  const wanted = accept === "application/x-bcs" ? "application/x-bcs" : "application/json";
  return holdsUnless(
    type === wanted ? undefined : { expected: `Content-Type ${wanted} for Accept ${JSON.stringify(accept || "(none)")}`, found: type },
  );
}

/** The family's names for the members §2.3–§2.6 leave unnamed (found by type otherwise: unshown-members.ts). */
function familyMemberNames(o: Observation): Judgement {
  if (o.foundByType === undefined) return "not applicable";
  if (o.foundByType.length === 0) return "holds";
  return {
    expected: "the family's names for the members the spec leaves unnamed (message, error_code; sender, version; bytecode; gas_estimate)",
    found: `read by type: ${o.foundByType.join(", ")}`,
  };
}

/** §2.7: a page with no items is a last page, without a cursor. */
function cursorLastPage(o: Observation): Judgement {
  const { res } = o;
  if (!isSuccess(o) || res.status !== 200 || !Array.isArray(res.json) || res.json.length !== 0) return "not applicable";
  const cursor = o.header("CURSOR");
  const prefix = o.ctx.headerPrefix;
  return holdsUnless(
    cursor === undefined
      ? undefined
      : { expected: `no ${prefix}CURSOR on a page with no items (a last page)`, found: `${prefix}CURSOR: ${cursor}` },
  );
}

/** §2.7 on any status: whatever ledger headers are present are decimal integers of their type. */
function headerForms(o: Observation): Judgement {
  if (o.values.size + o.badForms.length === 0) return "not applicable";
  return holdsUnless(
    o.badForms.length === 0 ? undefined : { expected: "ledger headers as decimal integers of their type", found: o.badForms.join(", ") },
  );
}

/** §2.7: the oldest version and block height are not above the current ones. */
function headerConsistency(o: Observation): Judgement {
  const prefix = o.ctx.headerPrefix;
  const pairs: [string, string][] = [
    ["LEDGER-OLDEST-VERSION", "LEDGER-VERSION"],
    ["OLDEST-BLOCK-HEIGHT", "BLOCK-HEIGHT"],
  ];
  const inverted: string[] = [];
  let compared = false;
  for (const [oldest, current] of pairs) {
    const old = o.values.get(oldest);
    const now = o.values.get(current);
    if (old === undefined || now === undefined) continue;
    compared = true;
    if (old > now) inverted.push(`${prefix}${oldest} ${old} > ${prefix}${current} ${now}`);
  }
  if (!compared) return "not applicable";
  return holdsUnless(inverted.length === 0 ? undefined : { expected: "oldest <= current", found: inverted.join(", ") });
}

/** §2.7: every response names the same chain (and the fixtures' one, when they name it). */
function chainIdMatches(o: Observation): Judgement {
  const chainId = o.values.get("CHAIN-ID");
  if (chainId === undefined) return "not applicable";
  const { ctx } = o;
  const first = ctx.tracker.chainId();
  const problems: string[] = [];
  if (ctx.fixturesChainId !== undefined && chainId !== BigInt(ctx.fixturesChainId))
    problems.push(`fixtures chainId is ${ctx.fixturesChainId}`);
  if (first !== undefined && chainId !== BigInt(first.chainId)) problems.push(`an earlier response said ${first.chainId} (${first.curl})`);
  return holdsUnless(
    problems.length === 0
      ? undefined
      : { expected: "the same chain id on every response", found: `${ctx.headerPrefix}CHAIN-ID ${chainId}; ${problems.join("; ")}` },
  );
}

/** The ledger state a response reports, as the tracker keeps it. */
function stateNow(o: Observation): { ledgerVersion?: bigint; blockHeight?: bigint; timestampUsec?: bigint } {
  return {
    ledgerVersion: o.values.get("LEDGER-VERSION"),
    blockHeight: o.values.get("BLOCK-HEIGHT"),
    timestampUsec: o.values.get("LEDGER-TIMESTAMPUSEC"),
  };
}

/** §2.7: the ledger does not go back: no response reports less than one received before its request was sent. */
function ledgerStateMonotonic(o: Observation): Judgement {
  const mark = o.markBefore;
  const now = stateNow(o);
  if (mark === undefined || (now.ledgerVersion ?? now.blockHeight ?? now.timestampUsec) === undefined) return "not applicable";
  const back: string[] = [];
  if (now.ledgerVersion !== undefined && now.ledgerVersion < mark.ledgerVersion)
    back.push(`LEDGER-VERSION ${now.ledgerVersion} < ${mark.ledgerVersion}`);
  if (now.blockHeight !== undefined && now.blockHeight < mark.blockHeight)
    back.push(`BLOCK-HEIGHT ${now.blockHeight} < ${mark.blockHeight}`);
  if (now.timestampUsec !== undefined && now.timestampUsec < mark.timestampUsec)
    back.push(`LEDGER-TIMESTAMPUSEC ${now.timestampUsec} < ${mark.timestampUsec}`);
  return holdsUnless(
    back.length === 0
      ? undefined
      : {
          expected: "ledger state at least as far as a response received before this request was sent",
          found: `${back.join(", ")}; earlier response: ${mark.curl}`,
        },
  );
}

/**
 * Every cross-cutting rule beside its requirement id, in the order results are recorded. Where one
 * case of a rule is a known deviation of the family (aptos-core, baselines/aptos-core.txt), the case
 * has an id of its own, picked from the exchange, so that a baseline listing it masks nothing else.
 */
const RULES: readonly { readonly id: string | ((o: Observation) => string); readonly judge: (o: Observation) => Judgement }[] = [
  // A body the operation does not take (aptos-core answers 415): the request tells.
  {
    id: (o) => (bringsUnsupportedBody(o.op, o.res.request) ? OBSERVED.unsupportedBodyStatus : OBSERVED.statusInSet),
    judge: statusInSet,
  },
  { id: OBSERVED.errorObject, judge: errorObject },
  { id: OBSERVED.errorCodeKnown, judge: errorCodeKnown },
  { id: OBSERVED.noCursorOnError, judge: noCursorOnError },
  // The specification pages (aptos-core serves them beside the API, without ledger headers): the operation tells.
  { id: (o) => (SPEC_PAGES.has(o.op.id) ? OBSERVED.requiredHeadersSpecPages : OBSERVED.requiredHeaders), judge: requiredHeaders },
  { id: OBSERVED.mediaType, judge: mediaType },
  { id: OBSERVED.acceptSelects, judge: acceptSelects },
  { id: OBSERVED.familyMemberNames, judge: familyMemberNames },
  { id: OBSERVED.cursorLastPage, judge: cursorLastPage },
  { id: OBSERVED.headerForms, judge: headerForms },
  { id: OBSERVED.headerConsistency, judge: headerConsistency },
  { id: OBSERVED.chainId, judge: chainIdMatches },
  { id: OBSERVED.monotonic, judge: ledgerStateMonotonic },
];

export function observeResponse(ctx: ObservedContext, ex: ObservedExchange): CheckResult[] {
  const { response: res } = ex;
  const header = (suffix: string) => headerValue(res, ctx.headerPrefix, suffix);
  const values = new Map<string, bigint>();
  const badForms: string[] = [];
  for (const h of LEDGER_HEADERS) {
    const raw = header(h.suffix);
    if (raw === undefined) continue;
    const value = boundedInteger(raw, h.max);
    if (value !== undefined) values.set(h.suffix, value);
    else badForms.push(`${ctx.headerPrefix}${h.suffix}: ${JSON.stringify(raw)} (${h.max === 255n ? "uint8" : "uint64"})`);
  }
  const o: Observation = {
    ctx,
    res,
    op: ex.operation,
    markBefore: ex.markBefore,
    foundByType: ex.foundByType,
    values,
    badForms,
    header,
  };
  const results: CheckResult[] = [];
  for (const rule of RULES) {
    const judgement = rule.judge(o);
    if (judgement === "not applicable") continue;
    const id = typeof rule.id === "string" ? rule.id : rule.id(o);
    if (judgement === "holds") {
      results.push({ requirement: id, status: "passed", failures: [] });
      continue;
    }
    const failure: Failure = formatFailure({ requirement: id, ...judgement, response: res, headerPrefix: ctx.headerPrefix });
    results.push({ requirement: id, status: failingStatus(ctx.catalog.get(id).level), failures: [failure] });
  }
  const chainId = values.get("CHAIN-ID");
  ctx.tracker.observe({ ...stateNow(o), ...(chainId !== undefined && chainId <= 255n ? { chainId: Number(chainId) } : {}) }, res.curl);
  return results;
}

function otherPrefixHint(res: HttpResponse, prefix: string): string {
  const foreign = foreignLedgerPrefixes(res.headers, prefix);
  return foreign.length > 0 ? ` (the node sends ${foreign.join(", ")}* headers: try --profile or --header-prefix)` : "";
}
