// The observed-status contract: whatever provoked a response, it must fit the contract for its
// status. Every response a check receives through `t.request` goes through `observeResponse`, and the
// outcomes are recorded under the cross-cutting requirement ids of schemas/requirements/ (not the
// check's own id), so a deviation in any response anywhere in the suite is caught.

import type { HttpResponse } from "./http-client.ts";
import { boundedInteger, errorCodeOf, headerValue, LEDGER_HEADERS } from "./response-facts.ts";
import type { LedgerMark, LedgerTracker } from "./ledger-tracker.ts";
import type { OperationContract } from "./openapi.ts";
import type { RequirementCatalog } from "./requirements.ts";
import { failingStatus, type CheckResult, type Failure } from "./results.ts";
import { formatFailure } from "./failure-message.ts";

export const OBSERVED = {
  statusInSet: "7.1/status-in-endpoint-set",
  errorObject: "2.6/error-object",
  errorCodeKnown: "7.2/error-code-known",
  requiredHeaders: "2.7/required-headers-on-success",
  headerForms: "2.7/header-integer-forms",
  headerConsistency: "2.7/header-consistency",
  chainId: "2.7/chain-id-matches",
  monotonic: "2.7/ledger-state-monotonic",
  noCursorOnError: "2.7/no-cursor-on-error",
  cursorLastPage: "2.7/cursor-absent-on-last-page",
  mediaType: "4/media-type-declared",
  acceptSelects: "4/accept-selects-media-type",
} as const;

export interface ObservedContext {
  readonly catalog: RequirementCatalog;
  /** §7.2, from the contract. */
  readonly errorCodes: readonly string[];
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
}

export function observeResponse(ctx: ObservedContext, ex: ObservedExchange): CheckResult[] {
  const { response: res, operation: op } = ex;
  const results: CheckResult[] = [];
  const prefix = ctx.headerPrefix.toLowerCase();
  const header = (suffix: string) => headerValue(res, ctx.headerPrefix, suffix);
  const verdict = (requirement: string, problem: { expected: string; found?: string } | undefined) => {
    if (problem === undefined) {
      results.push({ requirement, status: "passed", failures: [] });
      return;
    }
    const failure: Failure = formatFailure({ requirement, ...problem, response: res, headerPrefix: ctx.headerPrefix });
    results.push({ requirement, status: failingStatus(ctx.catalog.get(requirement).level), failures: [failure] });
  };
  const isError = res.status >= 400;
  const isSuccess = res.status >= 200 && res.status < 300;

  // §7.1: the status is one the endpoint lists.
  verdict(
    OBSERVED.statusInSet,
    op.statuses.includes(res.status) ? undefined : { expected: `a status ${op.id} lists: ${op.statuses.join(", ")}`, found: `status ${res.status}` },
  );

  if (isError) {
    verdict(OBSERVED.errorObject, errorObjectProblem(res));
    const code = errorCodeOf(res);
    if (code !== undefined) {
      verdict(OBSERVED.errorCodeKnown, ctx.errorCodes.includes(code) ? undefined : { expected: `error_code one of §7.2 (${ctx.errorCodes.join(", ")})`, found: JSON.stringify(code) });
    }
    const cursor = header("CURSOR");
    verdict(OBSERVED.noCursorOnError, cursor === undefined ? undefined : { expected: `no ${ctx.headerPrefix}CURSOR on an error`, found: `${ctx.headerPrefix}CURSOR: ${cursor}` });
  }

  if (isSuccess) {
    const declared = op.response(res.status)?.headers.filter((h) => h.required).map((h) => h.name) ?? [];
    const builtIn = LEDGER_HEADERS.filter((h) => h.requiredOnSuccess).map((h) => `${prefix}${h.suffix.toLowerCase()}`);
    const missing = [...new Set([...builtIn, ...declared])].filter((name) => res.headers[name] === undefined);
    verdict(
      OBSERVED.requiredHeaders,
      missing.length === 0 ? undefined : { expected: `headers ${missing.join(", ")} on a ${res.status}`, found: `missing ${missing.join(", ")}${otherPrefixHint(res, ctx.headerPrefix)}` },
    );
    mediaTypeVerdicts(op, res, verdict);
    if (res.status === 200 && Array.isArray(res.json) && res.json.length === 0) {
      const cursor = header("CURSOR");
      verdict(OBSERVED.cursorLastPage, cursor === undefined ? undefined : { expected: `no ${ctx.headerPrefix}CURSOR on a page with no items (a last page)`, found: `${ctx.headerPrefix}CURSOR: ${cursor}` });
    }
  }

  // §2.7 on any status: the forms of whatever ledger headers are present, and what they say.
  const values = new Map<string, bigint>();
  const badForms: string[] = [];
  for (const h of LEDGER_HEADERS) {
    const raw = header(h.suffix);
    if (raw === undefined) continue;
    const value = boundedInteger(raw, h.max);
    if (value !== undefined) values.set(h.suffix, value);
    else badForms.push(`${ctx.headerPrefix}${h.suffix}: ${JSON.stringify(raw)} (${h.max === 255n ? "uint8" : "uint64"})`);
  }
  if (values.size + badForms.length > 0) {
    verdict(OBSERVED.headerForms, badForms.length === 0 ? undefined : { expected: "ledger headers as decimal integers of their type", found: badForms.join(", ") });
  }
  const pairs: [string, string][] = [
    ["LEDGER-OLDEST-VERSION", "LEDGER-VERSION"],
    ["OLDEST-BLOCK-HEIGHT", "BLOCK-HEIGHT"],
  ];
  const inverted: string[] = [];
  let compared = false;
  for (const [oldest, current] of pairs) {
    const o = values.get(oldest);
    const c = values.get(current);
    if (o === undefined || c === undefined) continue;
    compared = true;
    if (o > c) inverted.push(`${ctx.headerPrefix}${oldest} ${o} > ${ctx.headerPrefix}${current} ${c}`);
  }
  if (compared) verdict(OBSERVED.headerConsistency, inverted.length === 0 ? undefined : { expected: "oldest <= current", found: inverted.join(", ") });

  const chainId = values.get("CHAIN-ID");
  if (chainId !== undefined) {
    const first = ctx.tracker.chainId();
    const problems: string[] = [];
    if (ctx.fixturesChainId !== undefined && chainId !== BigInt(ctx.fixturesChainId)) problems.push(`fixtures chainId is ${ctx.fixturesChainId}`);
    if (first !== undefined && chainId !== BigInt(first.chainId)) problems.push(`an earlier response said ${first.chainId} (${first.curl})`);
    verdict(OBSERVED.chainId, problems.length === 0 ? undefined : { expected: "the same chain id on every response", found: `${ctx.headerPrefix}CHAIN-ID ${chainId}; ${problems.join("; ")}` });
  }

  const mark = ex.markBefore;
  const now = { ledgerVersion: values.get("LEDGER-VERSION"), blockHeight: values.get("BLOCK-HEIGHT"), timestampUsec: values.get("LEDGER-TIMESTAMPUSEC") };
  if (mark !== undefined && (now.ledgerVersion ?? now.blockHeight ?? now.timestampUsec) !== undefined) {
    const back: string[] = [];
    if (now.ledgerVersion !== undefined && now.ledgerVersion < mark.ledgerVersion) back.push(`LEDGER-VERSION ${now.ledgerVersion} < ${mark.ledgerVersion}`);
    if (now.blockHeight !== undefined && now.blockHeight < mark.blockHeight) back.push(`BLOCK-HEIGHT ${now.blockHeight} < ${mark.blockHeight}`);
    if (now.timestampUsec !== undefined && now.timestampUsec < mark.timestampUsec) back.push(`LEDGER-TIMESTAMPUSEC ${now.timestampUsec} < ${mark.timestampUsec}`);
    verdict(
      OBSERVED.monotonic,
      back.length === 0 ? undefined : { expected: "ledger state at least as far as a response received before this request was sent", found: `${back.join(", ")}; earlier response: ${mark.curl}` },
    );
  }
  ctx.tracker.observe({ ...now, ...(chainId !== undefined && chainId <= 255n ? { chainId: Number(chainId) } : {}) }, res.curl);
  return results;
}

function errorObjectProblem(res: HttpResponse): { expected: string; found?: string } | undefined {
  const expected = "the §2.6 error object as JSON: {message: string, error_code: string, vm_error_code?: unsigned integer or null}";
  if (res.contentType !== "application/json") return { expected, found: `Content-Type ${res.headers["content-type"] ?? "(none)"}` };
  const body = res.json as Record<string, unknown> | undefined;
  if (body === undefined || typeof body !== "object" || body === null || Array.isArray(body)) return { expected, found: "a body that is not a JSON object" };
  const problems: string[] = [];
  if (typeof body.message !== "string") problems.push("message is not a string");
  if (typeof body.error_code !== "string") problems.push("error_code is not a string");
  // Optional (§2.6): absent or null (design §5: null counts as absent; aptos-core always sends it, api/types/src/error.rs).
  if (body.vm_error_code !== undefined && body.vm_error_code !== null && !(Number.isInteger(body.vm_error_code) && (body.vm_error_code as number) >= 0)) {
    problems.push("vm_error_code is not an unsigned integer");
  }
  return problems.length === 0 ? undefined : { expected, found: problems.join("; ") };
}

function mediaTypeVerdicts(
  op: OperationContract,
  res: HttpResponse,
  verdict: (id: string, p: { expected: string; found?: string } | undefined) => void,
): void {
  const declared = op.response(res.status);
  if (declared === undefined || declared.mediaTypes.length === 0) return;
  // An empty body without a Content-Type (e.g. an accepted BCS submission) has no media type to judge.
  if (res.contentType === undefined && res.body.length === 0) return;
  const type = res.contentType ?? "(none)";
  verdict(OBSERVED.mediaType, declared.mediaTypes.includes(type) ? undefined : { expected: `Content-Type one of ${declared.mediaTypes.join(", ")}`, found: type });
  const offers = (m: string) => declared.mediaTypes.includes(m);
  if (res.status === 200 && offers("application/json") && offers("application/x-bcs")) {
    const accept = (res.request.headers.accept ?? res.request.headers.Accept ?? "").trim().toLowerCase();
    const wanted = accept === "application/x-bcs" ? "application/x-bcs" : "application/json";
    verdict(OBSERVED.acceptSelects, type === wanted ? undefined : { expected: `Content-Type ${wanted} for Accept ${JSON.stringify(accept || "(none)")}`, found: type });
  }
}

function otherPrefixHint(res: HttpResponse, prefix: string): string {
  const others = [...new Set(Object.keys(res.headers).filter((n) => /^x-[a-z]+-ledger-version$/.test(n)).map((n) => n.replace(/ledger-version$/, "").toUpperCase()))];
  const foreign = others.filter((p) => p !== prefix.toUpperCase());
  return foreign.length > 0 ? ` (the node sends ${foreign.join(", ")}* headers: try --profile or --header-prefix)` : "";
}
