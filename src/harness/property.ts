// Properties (fast-check) under the same requirement ids and report as `check`: `law` is the API the
// property files use; runProperty runs one. A failing property reports its seed, its shrunk path, the
// counterexample, the requests of the failing (shrunk) case with their curl lines, and the command
// that replays exactly that case.

import fc from "fast-check";
import { check } from "./check.ts";
import { CheckContext, CheckFailure, CheckNotApplicable, CheckSkipped, NoHttpAnswer, traceOf } from "./check-context.ts";
import { configAtCollection } from "./harness.ts";
import { useRunSeed } from "./run-seed.ts";
import { shellQuote } from "./curl.ts";
import type { Failure, RequestRecord } from "./results.ts";

/** Requests a second at which the default budgets leave ample room (a property sends a few hundred at most). */
const FULL_SPEED_RPS = 40;

export interface LawOptions {
  /** Runs at --depth 1; --depth N multiplies them. */
  readonly numRuns: number;
  /**
   * Time budget of the property at --depth 1 and full speed, shrinking included (default 30 s); --depth N
   * multiplies it, and so does a --rate-limit below 40 requests a second (by 40 / limit), so that a
   * gentle rate slows the runs down rather than cutting them short.
   */
  readonly budgetMs?: number;
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
  options: LawOptions,
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
      { numRuns: options.numRuns, budgetMs },
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
  options: { numRuns: number; budgetMs?: number },
): Promise<Failure | undefined> {
  const config = t.config;
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
  const replayPath = config.only === t.requirement.id ? config.replayPath : undefined;
  const details = await fc.check(property, {
    numRuns: Math.max(1, Math.round(options.numRuns * config.depth)),
    ...(config.seed === undefined ? {} : { seed: config.seed }),
    ...(replayPath === undefined ? {} : { path: replayPath }),
    interruptAfterTimeLimit: options.budgetMs ?? 120_000,
    markInterruptAsFailure: false,
  });
  // The property could not run to its end (the client stopped sending to a hung target): not a verdict.
  if (skipped) throw skipped;
  if (!details.failed) return undefined;
  const error = details.errorInstance;
  const cause = error instanceof CheckFailure ? error.failure.message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
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
