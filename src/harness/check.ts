// `describeEndpoint` and `check`: how a suite file declares its checks. A check is one vitest test
// named `${id}: ${text}` after its requirement; what it found is stored in the test's meta
// (`task.meta.conformance`) for the requirement reporter.

import { describe, test, TestRunner } from "vitest";
import { CheckContext, CheckFailure, CheckNotApplicable, CheckSkipped, traceOf } from "./check-context.ts";
import { formatFailure } from "./failure-message.ts";
import { catalog, configAtCollection, contractForCollection, harness, type Harness } from "./harness.ts";
import type { Requirement } from "./requirements.ts";
import { checkTimeoutMs, DEFAULT_TIMEOUT_MS, workersSharingSlots } from "./config.ts";
import { failingStatus, type CheckResult, type ConformanceMeta } from "./results.ts";
import { redactDeep, secretTexts } from "./secrets.ts";
import { whyNotSelected } from "./selection.ts";

export type CheckFn = (t: CheckContext) => Promise<void> | void;

export interface CheckOptions {
  /** A short label told apart from other checks of the same requirement ("with Accept: application/x-bcs"). */
  readonly variant?: string;
  /** The vitest timeout of this check; default from --timeout (six requests' worth). */
  readonly timeoutMs?: number;
}

export type VitestOutcome =
  | { readonly kind: "pass" }
  | { readonly kind: "fail"; readonly message: string }
  | { readonly kind: "skip"; readonly note: string };

export interface CheckOutcome {
  readonly meta: ConformanceMeta;
  readonly own: CheckResult;
  readonly vitest: VitestOutcome;
}

/** What a failed check throws to vitest; named so that JUnit and Allure count it a failure, not a crash. */
export class RequirementNotMet extends Error {
  override readonly name = "AssertionError";
}

let currentEndpoint: string | undefined;

/**
 * Aborted once the run is cancelled (--max-duration, a signal to the command): the worker's client then
 * abandons every request. vitest aborts a check's own signal also when that check times out; with the
 * checks of a file running concurrently, that must not abandon the other checks' requests.
 */
const runStopped = new AbortController();

export interface EndpointOptions {
  /**
   * The checks depend on their order (they share a sender's sequence numbers): they run one by one.
   * Otherwise the checks of a file run concurrently, up to the worker's share of --concurrency.
   */
  readonly inOrder?: boolean;
}

/** Groups the checks of one endpoint (an operationId of schemas/openapi.yaml). */
export function describeEndpoint(operationId: string, body: () => void): void;
export function describeEndpoint(operationId: string, options: EndpointOptions, body: () => void): void;
export function describeEndpoint(operationId: string, a: EndpointOptions | (() => void), b?: () => void): void {
  const body = typeof a === "function" ? a : b;
  const options: EndpointOptions = typeof a === "function" ? {} : a;
  if (body === undefined) throw new Error(`describeEndpoint(${operationId}): no body`);
  if (!contractForCollection().hasOperation(operationId)) {
    throw new Error(`describeEndpoint: unknown operationId ${JSON.stringify(operationId)}`);
  }
  (options.inOrder ? describe.sequential : describe)(operationId, () => {
    const outer = currentEndpoint;
    currentEndpoint = operationId;
    try {
      body();
    } finally {
      currentEndpoint = outer;
    }
  });
}

/** The test name of a check: the requirement id, then its sentence. The reporter reads the id back from it. */
export function checkName(requirement: Requirement, variant?: string): string {
  return `${requirement.id}: ${requirement.text}${variant ? ` [${variant}]` : ""}`;
}

/**
 * Registers a check of requirement `id`. Unknown ids, and ids of another endpoint's requirement inside
 * describeEndpoint, throw at collection (the file then fails to load, which the report shows).
 */
export function check(id: string, fn: CheckFn): void;
export function check(id: string, options: CheckOptions, fn: CheckFn): void;
export function check(id: string, a: CheckFn | CheckOptions, b?: CheckFn): void {
  const fn = typeof a === "function" ? a : b;
  const options: CheckOptions = typeof a === "function" ? {} : a;
  if (fn === undefined) throw new Error(`check(${id}): no function`);
  const requirement = catalog().get(id);
  if (currentEndpoint !== undefined && requirement.endpoint !== "*" && requirement.endpoint !== currentEndpoint) {
    throw new Error(`check(${id}): the requirement is about ${requirement.endpoint}, not ${currentEndpoint}`);
  }
  const config = configAtCollection();
  const timeout = options.timeoutMs ?? checkTimeoutMs(config?.timeoutMs ?? DEFAULT_TIMEOUT_MS, workersSharingSlots(config));
  const name = checkName(requirement, options.variant);
  // Left out by --only, --skip or --level: registered skipped, with the reason for the report.
  const notSelected =
    config?.selection === undefined
      ? undefined
      : whyNotSelected(config.selection, { file: TestRunner.getCurrentSuite().file?.name ?? "", name, level: requirement.level });
  const taskMeta = { requirement: requirement.id, ...(notSelected === undefined ? {} : { notSelected }) };
  test(name, { timeout, meta: taskMeta, ...(notSelected === undefined ? {} : { skip: true }) }, async (ctx) => {
    const h = harness(ctx.task.file.filepath);
    const meta: ConformanceMeta = { results: [], requests: [] };
    ctx.task.meta.conformance = meta;
    // When the run is cancelled (--max-duration, a signal) vitest aborts every running check's signal
    // with a TestRunAbortError: the requests are abandoned at once, and the checks end skipped instead
    // of holding the run up.
    h.client.cancelOn(runStopped.signal);
    ctx.signal.addEventListener(
      "abort",
      () => {
        if ((ctx.signal.reason as Error | undefined)?.name === "TestRunAbortError") runStopped.abort(ctx.signal.reason);
      },
      { once: true },
    );
    const outcome = await runCheck(h, requirement, fn);
    ctx.task.meta.conformance = outcome.meta;
    if (outcome.vitest.kind === "fail") throw new RequirementNotMet(outcome.vitest.message);
    if (outcome.vitest.kind === "skip") ctx.skip(outcome.vitest.note);
  });
}

/** Runs one check function and decides its outcome; used by `check` and directly by the harness's own tests. */
export async function runCheck(h: Harness, requirement: Requirement, fn: CheckFn): Promise<CheckOutcome> {
  // What the check recorded may quote what a gateway echoed of a --header value: hidden before it leaves.
  return redactDeep(await decide(h, requirement, fn), secretTexts(h.config.secretHeaders ?? {}));
}

async function decide(h: Harness, requirement: Requirement, fn: CheckFn): Promise<CheckOutcome> {
  const t = new CheckContext(h, requirement);
  const own = await ownResult(t, requirement, fn);
  const trace = traceOf(t);
  const results = [own, ...trace.observed];
  const unknownMembers = trace.unknownMembers.seen();
  const foreignHeaderPrefixes = trace.foreignPrefixes.seen();
  const contentCodings = trace.contentCodings.seen();
  const meta: ConformanceMeta = {
    results,
    requests: [...trace.requests],
    ...(unknownMembers.members.length + unknownMembers.leftOut === 0 ? {} : { unknownMembers }),
    ...(foreignHeaderPrefixes === undefined ? {} : { foreignHeaderPrefixes }),
    ...(contentCodings === undefined ? {} : { contentCodings }),
    ...(trace.loadProfile === undefined ? {} : { loadProfile: trace.loadProfile }),
  };
  const failed = results.filter((r) => r.status === "failed");
  if (failed.length > 0) {
    const message = failed.flatMap((r) => r.failures.map((f) => f.message)).join("\n\n");
    return { meta, own, vitest: { kind: "fail", message } };
  }
  if (own.status === "skipped" || own.status === "not_applicable") {
    return { meta, own, vitest: { kind: "skip", note: `${own.status}: ${own.reason ?? ""}` } };
  }
  return { meta, own, vitest: { kind: "pass" } };
}

async function ownResult(t: CheckContext, requirement: Requirement, fn: CheckFn): Promise<CheckResult> {
  const failedOrWarned = failingStatus(requirement.level);
  try {
    await fn(t);
  } catch (e) {
    if (e instanceof CheckNotApplicable) return { requirement: requirement.id, status: "not_applicable", failures: [], reason: e.reason };
    if (e instanceof CheckSkipped) return { requirement: requirement.id, status: "skipped", failures: [], reason: e.reason };
    if (e instanceof CheckFailure) return { requirement: requirement.id, status: failedOrWarned, failures: [e.failure] };
    const err = e as Error;
    const where = (err.stack ?? "")
      .split("\n")
      .slice(1, 4)
      .map((l) => l.trim())
      .join(" ← ");
    return {
      requirement: requirement.id,
      status: failedOrWarned,
      failures: [
        formatFailure({
          requirement: requirement.id,
          expected: "the check to run to its end",
          found: `${err.name ?? "Error"}: ${err.message ?? String(e)}${where ? ` (at ${where})` : ""}`,
          ...(traceOf(t).lastCurl === undefined ? {} : { curl: traceOf(t).lastCurl as string }),
        }),
      ],
    };
  }
  if (traceOf(t).assertions === 0) {
    // A check that asserts nothing cannot fail: a defect of the suite, reported loudly.
    return {
      requirement: requirement.id,
      status: "failed",
      failures: [formatFailure({ requirement: requirement.id, expected: "the check to assert something", found: "it made no assertion" })],
    };
  }
  return { requirement: requirement.id, status: "passed", failures: [] };
}
