// Properties (fast-check) under the same requirement ids and report as `check`: `law` is the API the
// property files use; runProperty runs one. A failing property reports its seed, its shrunk path, the
// counterexample, the requests of the failing (shrunk) case with their curl lines, and the command
// that replays exactly that case.
//
// The cases of a law are independent (each reads what it needs; none leaves state another case
// depends on), so they run concurrently, up to the worker's share of --concurrency: the generated
// values are fast-check's own for the seed (fc.sample gives the values fc.check tries first). Only
// when a case fails does fast-check run them one by one, to find the failure again and shrink it.

import fc from "fast-check";
import { check } from "./check.ts";
import { type CheckContext, CheckFailure, CheckNotApplicable, CheckSkipped, NoHttpAnswer, traceOf } from "./check-context.ts";
import { configAtCollection } from "./harness.ts";
import { useRunSeed } from "./run-seed.ts";
import { shellQuote } from "./curl.ts";
import type { Failure, RequestRecord } from "./results.ts";

/** Requests a second at which the default budgets leave ample room (a property sends a few hundred at most). */
const FULL_SPEED_RPS = 40;

export interface LawOptions<S = unknown, T = unknown> {
  /** Runs at --depth 1; --depth N multiplies them. */
  readonly numRuns: number;
  /**
   * Time budget of the property at --depth 1 and full speed, shrinking included (default 30 s); --depth N
   * multiplies it, and so does a --rate-limit below 40 requests a second (by 40 / limit), so that a
   * gentle rate slows the runs down rather than cutting them short.
   */
  readonly budgetMs?: number;
  /** The cases depend on one another's order: they run one by one. */
  readonly inOrder?: boolean;
  /**
   * Cases run before the generated ones whatever the seed (fast-check's examples): those without which
   * the law would show nothing, such as a value the fixtures say is present.
   */
  readonly examples?: (setup: S) => readonly T[];
}

/** What a run returns when its case could decide nothing about the requirement, and why. */
export interface Undecided {
  readonly undecided: string;
}

export const undecided = (reason: string): Undecided => ({ undecided: reason });

/** Asserts with `t.expect…`; returns nothing when the run decided the requirement, `undecided(why)` when it could not. */
export type LawPredicate<S, T> = (t: CheckContext, value: T, setup: S) => Promise<void | Undecided>;

/**
 * Registers a property of requirement `id` (a check with variant "property"): `setup(t)` once (it may
 * read fixtures, probe the target and end the check not_applicable or skipped, which a run cannot),
 * then `predicate(t, value, setup)` for the values of `arbitrary(setup)`. The predicate asserts with
 * `t.expect…`; a failed assertion is the counterexample fast-check shrinks. When every run returned
 * `undecided(…)`, the check ends not_applicable with the last reason: the law held, but nothing showed it.
 */
export function law<S, T>(
  id: string,
  options: LawOptions<S, T>,
  setup: (t: CheckContext) => Promise<S>,
  arbitrary: (setup: S) => fc.Arbitrary<T>,
  predicate: LawPredicate<S, T>,
): void {
  // Collection can happen outside a run (a unit test importing the file): depth 1, no limit then.
  const config = configAtCollection();
  const depth = config?.depth ?? 1;
  const rateLimit = config?.rateLimit;
  const slowdown = rateLimit === undefined ? 1 : Math.max(1, FULL_SPEED_RPS / rateLimit);
  const budgetMs = Math.round((options.budgetMs ?? 30_000) * Math.max(1, depth) * slowdown);
  check(id, { variant: "property", timeoutMs: budgetMs + 60_000 }, async (t) => {
    useRunSeed(t.config);
    const prepared = await setup(t);
    let decided = 0;
    let reason = "no run";
    const failure = await runProperty(
      t,
      arbitrary(prepared),
      async (ctx, value: T) => {
        const outcome = await predicate(ctx, value, prepared);
        if (outcome === undefined) decided += 1;
        else reason = outcome.undecided;
      },
      {
        numRuns: options.numRuns,
        budgetMs,
        concurrency: options.inOrder ? 1 : (t.config.concurrency ?? 1),
        examples: options.examples?.(prepared) ?? [],
      },
    );
    if (failure) throw new CheckFailure(failure);
    if (decided === 0) throw new CheckNotApplicable(`no generated case could decide the law; the last one: ${reason}`);
    t.expect(true, "the property to hold on every run");
  });
}

export type PropertyFn<T> = (t: CheckContext, value: T) => Promise<void | boolean> | void | boolean;

/** Runs the property with the run's seed, depth and replay path; returns the failure to report, if any. */
export async function runProperty<T>(
  t: CheckContext,
  arbitrary: fc.Arbitrary<T>,
  predicate: PropertyFn<T>,
  options: { numRuns: number; budgetMs?: number; concurrency?: number; examples?: readonly T[] },
): Promise<Failure | undefined> {
  const config = t.config;
  const numRuns = Math.max(1, Math.round(options.numRuns * config.depth));
  const budgetMs = options.budgetMs ?? 120_000;
  const replayPath = config.only === t.requirement.id ? config.replayPath : undefined;
  // One seed for both passes, so that the one-by-one pass tries the cases the concurrent one did.
  const seed = useRunSeed(config);
  const examples = options.examples ?? [];
  let unconfirmed: ConcurrentFailure | undefined;
  if ((options.concurrency ?? 1) > 1 && replayPath === undefined) {
    const outcome = await runCasesConcurrently(
      t,
      [...examples, ...fc.sample(arbitrary, { seed, numRuns })],
      predicate,
      options.concurrency as number,
      budgetMs,
    );
    if (outcome === undefined) return undefined;
    if (outcome.error instanceof CheckSkipped) throw outcome.error;
    unconfirmed = outcome;
  }
  let lastFailingRequests: readonly RequestRecord[] = [];
  let noAnswer: NoHttpAnswer | undefined;
  let skipped: CheckSkipped | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    // Once the target stopped answering, every further run (shrinking) would only wait for timeouts.
    if (skipped) throw skipped;
    if (noAnswer) throw noAnswer;
    const start = traceOf(t).requests.length;
    try {
      const verdict = await predicate(t, value);
      if (verdict === false) throw new Error("the predicate returned false");
    } catch (e) {
      lastFailingRequests = traceOf(t).requests.slice(start);
      if (e instanceof CheckSkipped) skipped = e;
      if (e instanceof NoHttpAnswer) noAnswer = e;
      throw e;
    }
  });
  const details = await fc.check(property, {
    numRuns,
    seed,
    ...(examples.length === 0 ? {} : { examples: examples.map((value): [T] => [value]) }),
    ...(replayPath === undefined ? {} : { path: replayPath }),
    interruptAfterTimeLimit: budgetMs,
    markInterruptAsFailure: false,
  });
  // The property could not run to its end (the client stopped sending to a hung target): not a verdict.
  if (skipped) throw skipped;
  if (!details.failed) return unconfirmed === undefined ? undefined : unconfirmedFailure(t, unconfirmed, seed);
  const error = details.errorInstance;
  const cause =
    error instanceof CheckFailure ? error.failure.message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const replay = [
    "npx ledger-conformance",
    config.replayArgs ?? "",
    `--only ${shellQuote(t.requirement.id)}`,
    `--seed=${details.seed}`,
    details.counterexamplePath === null ? "" : `--path ${shellQuote(details.counterexamplePath)}`,
  ]
    .filter((s) => s !== "")
    .join(" ");
  const requests = lastFailingRequests.map((r) => `    ${r.status ?? "no answer"} ← ${r.curl}`);
  const lines = [
    `[${t.requirement.id}] property failed after ${details.numRuns} run(s) and ${details.numShrinks} shrink(s)`,
    `  seed:     ${details.seed}`,
    `  path:     ${details.counterexamplePath ?? "(none)"}`,
    `  counterexample: ${details.counterexample === null ? "(none)" : fc.stringify(details.counterexample)}`,
    `  cause:    ${cause.split("\n").join("\n            ")}`,
    ...(requests.length > 0 ? ["  requests of the counterexample:", ...requests] : []),
    `  replay:   ${replay}`,
  ];
  return { message: lines.join("\n"), curl: lastFailingRequests[lastFailingRequests.length - 1]?.curl ?? null };
}

/** A case that failed while the cases ran concurrently. */
interface ConcurrentFailure {
  readonly value: unknown;
  readonly error: unknown;
}

/**
 * Runs the predicate on `values`, at most `concurrency` at once, starting none after `budgetMs`;
 * resolves with the first failure (no new case starts after one), or undefined when every case held.
 */
async function runCasesConcurrently<T>(
  t: CheckContext,
  values: readonly T[],
  predicate: PropertyFn<T>,
  concurrency: number,
  budgetMs: number,
): Promise<ConcurrentFailure | undefined> {
  const deadline = performance.now() + budgetMs;
  let next = 0;
  let failure: ConcurrentFailure | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < values.length && performance.now() < deadline) {
      const value = values[next++] as T;
      try {
        if ((await predicate(t, value)) === false) throw new Error("the predicate returned false");
      } catch (error) {
        failure ??= { value, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, values.length) }, lane));
  return failure;
}

/** A failure seen among the concurrent cases that the one-by-one pass did not meet again: reported as it was seen. */
function unconfirmedFailure(t: CheckContext, seen: ConcurrentFailure, seed: number): Failure {
  const { error } = seen;
  const cause =
    error instanceof CheckFailure ? error.failure.message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const lines = [
    `[${t.requirement.id}] property failed on a case run concurrently with others; run again one by one, the cases held (not shrunk)`,
    `  seed:     ${seed}`,
    `  counterexample: ${fc.stringify(seen.value)}`,
    `  cause:    ${cause.split("\n").join("\n            ")}`,
  ];
  return { message: lines.join("\n"), curl: error instanceof CheckFailure ? error.failure.curl : (traceOf(t).lastCurl ?? null) };
}
