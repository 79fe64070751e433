/**
 * The conformance harness: what suites (suites/*.test.ts) and properties (properties/*.test.ts) use.
 *
 * Writing a check
 * ---------------
 *   import { describeEndpoint, check } from "../src/harness/index.ts";
 *   describeEndpoint("estimate_gas_price", () => {
 *     check("4.6/gas-estimate-object", async (t) => {
 *       const res = await t.request({ path: "/estimate_gas_price" });
 *       t.expectStatus(res, 200);
 *       const body = t.expectBodyMatchesSchema(res);
 *       t.expect(body.deprioritized_gas_estimate <= body.gas_estimate, "deprioritized <= gas_estimate", res);
 *     });
 *   });
 *
 * - `describeEndpoint(operationId, fn)` groups checks of one operation of schemas/openapi.yaml. The
 *   checks of a file run concurrently (up to the worker's share of --concurrency, which also bounds
 *   the requests in flight): a check must not depend on another having run. Checks that do (they share
 *   a sender's sequence numbers) go in `describeEndpoint(operationId, { inOrder: true }, fn)`.
 * - `check(id, fn)` / `check(id, { variant, timeoutMs }, fn)`: `id` is a requirement of
 *   schemas/requirements/ (unknown ids, or another endpoint's id, throw when the file loads). The
 *   vitest test is named `${id}: ${text}`.
 * - `t.request({ method?, path, query?, accept?: "json"|"bcs"|"none"|value, headers?, json?, bcs?, body?,
 *   contentType?, operation? })` → the response (`status`, `headers` lower-case, `contentType`, `body`
 *   bytes, `text`, `json`, `curl`). Any HTTP answer resolves. A connection fault (reset, refused,
 *   timeout before a whole answer) is retried by the client (a submission only when it cannot have
 *   arrived); if no answer comes, the check ends skipped with the reason, never failed or passed (in
 *   a property too). Bytes that are not HTTP, or an answer over the size cap, fail it.
 *   `t.tryRequest` returns `{ok:false, failure}` instead. `t.requestRaw({ path, body, contentLength,
 *   ending: "half-close"|"keep-open"|"abort", bytes? })` speaks bytes over a bare socket.
 * - Assertions end the check with a failure that names the requirement, the expectation, the status,
 *   the ledger headers, the body (cut to 500 characters, BCS as hex) and a replayable curl line:
 *   `t.expectStatus(res, ...statuses)`, `t.expectClientError(res)` (any 4xx: a refusal whose exact
 *   status the spec leaves to the family), `t.expectError(res, status, ...codes)`,
 *   `t.expectBodyMatchesSchema(res)` (returns the JSON), `t.expectErrorObject(res)` (the §2.6 rule
 *   every error body is judged by), `t.expectMediaType(res, type)`,
 *   `t.expect(cond, "what must hold", res?, found?)`, `t.expectEqual(actual, expected, what, res?)`,
 *   `t.fail(what, res?)`, `t.decodeBcs(res, bcsSchema)` (must decode to exactly the body).
 *   A check that asserts nothing is a failure.
 * - Preconditions: `t.needsFixture("table")` returns the member or ends the check not_applicable naming
 *   it; `t.requireSubmitAllowed()` ends it skipped unless the target is on loopback or --allow-submit.
 * - Context: `t.fixtures`, `t.profile` (headerPrefix, bcsSubmissionType), `t.headerName("CURSOR")`,
 *   `t.header(res, "LEDGER-VERSION")`, `t.contract` (the compiled OpenAPI), `t.config`.
 *
 * Writing a property (properties/*.test.ts)
 * -----------------------------------------
 *   law("4.3/ascending-order", { numRuns: 20 }, setup, (s) => arbitrary, async (t, value, s) => {
 *     ...t.expect…;                        // a failed assertion is the counterexample fast-check shrinks
 *     return undecided("the window held one summary");  // when this case can decide nothing
 *   });
 * - `law(id, { numRuns, budgetMs?, inOrder?, examples? }, setup, arbitrary, predicate)`: `setup(t)` runs once (it may
 *   call t.needsFixture or end the check skipped); then the predicate runs on `examples(setup)` (cases the
 *   law cannot show anything without, whatever the seed) and the values of `arbitrary(setup)`,
 *   concurrently unless `inOrder` (a case must not depend on another's having run).
 *   Registered as a check of `id` with variant "property", under the same rules.
 *   --depth multiplies runs and budget, --seed fixes the seed (else one seed per run, printed), and a
 *   failure reports seed, shrunk path, counterexample, its requests' curl lines and a replay command.
 *   A law none of whose runs decided anything ends not_applicable, never passed without evidence.
 *
 * Results
 * -------
 * Each check records a list of `{requirement, status: passed|failed|warned|skipped|not_applicable,
 * failures: [{message, curl}], reason?}` in the vitest test's `task.meta.conformance`, with the records of
 * the requests it made. A failed assertion of a MUST requirement records `failed` and fails the vitest
 * test; of a SHOULD requirement records `warned` and the test passes. n/a and skipped checks are
 * vitest-skipped with the reason as note. Every response received through `t.request`/`t.requestRaw`
 * is also checked against the observed-status contract (observed-contract.ts): status in the
 * operation's set, the error object with a §7.2 code on errors, the required ledger headers with
 * integer forms, no cursor on errors or on an empty page, the declared media type, a consistent and
 * non-decreasing ledger state. Those results are recorded under their own cross-cutting ids, and a
 * MUST deviation fails the test that received the response.
 *
 * How the configuration reaches the workers
 * -----------------------------------------
 * The command's run engine resolves flags, fixtures (file, embedded node, and
 * LEDGER_CONFORMANCE_ACCOUNTS for keys) into one RunConfig (config.ts) and hands it to vitest as
 * provided context ("runConfig"); `harness(file)` reads it with vitest's `inject` on first use. Files
 * run without per-file isolation, so each worker builds one HTTP client, compiled contract and catalog
 * for all the files it runs; the ledger-state mark is memory the run's workers share
 * (ledger-tracker.ts). (A fleet and the fault self-check run many runs in one vitest instance instead:
 * each under a folder of its own, "runsByFolder", with a harness per run.)
 * Private keys travel only in that configuration: never printed, never written to a report.
 *
 * Safety: against a target that is not on loopback, `t.requireSubmitAllowed()` skips every check that
 * could send an acceptable transaction unless --allow-submit was given.
 */

export { describeEndpoint, check, checkName, runCheck, type CheckFn, type CheckOptions, type CheckOutcome } from "./check.ts";
export { law, undecided, runProperty, type LawOptions, type LawPredicate, type Undecided, type PropertyFn } from "./property.ts";
export {
  CheckContext,
  CheckFailure,
  CheckNotApplicable,
  CheckSkipped,
  type RequestSpec,
  type RawRequestSpec,
  type RawResult,
  type TryResult,
} from "./check-context.ts";
export type { HttpResponse, HttpRequest } from "./http-client.ts";
export { RequestFailure } from "./http-client.ts";
export { SequenceBook } from "./sequence-book.ts";
export { runMemoryKey, type RunMemoryKey } from "./run-memory.ts";
export { withBareReplayProtectorsTagged } from "./proxy/body-requirements.ts";
export type { Fixtures, FixtureAccount, HistoryFixture, TableFixture, FixtureName } from "./fixtures.ts";
export type { Profile, ProfileName, RunConfig } from "./config.ts";
export { CLOCK_TOLERANCE_FLAG } from "./config.ts";
export type { Requirement, Level } from "./requirements.ts";
export type { CheckResult, ResultStatus, Failure, RequestRecord, ConformanceMeta } from "./results.ts";
export { OBSERVED } from "./observed-contract.ts";
export { useRunSeed } from "./run-seed.ts";
export { seededRandom, type Random } from "./seeded-random.ts";
export { configAtCollection } from "./harness.ts";
export { LoadTraffic, LoadClient, type LoadAnswer } from "./load/load-traffic.ts";
export type { LoadExchange } from "./load/load-exchange.ts";
export { LawTally, judgeTally, type Anomaly } from "./load/law-tally.ts";
export { monotonicUnderLoad } from "./load/monotonic-law.ts";
export { answeredUnderLoad } from "./load/answered-law.ts";
export { loadProfileOf } from "./load/load-profile-of.ts";
export type { LoadProfile } from "./load-profile.ts";
export type { LoadSettings } from "./config.ts";
export {
  LEDGER_HEADERS,
  U64_MAX,
  errorCodeOf,
  vmErrorCodeOf,
  headerValue,
  boundedInteger,
  ledgerState,
  versionAt,
  type LedgerState,
  type LedgerWindow,
} from "./response-facts.ts";
