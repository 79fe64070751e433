// `law`: a fast-check property under a requirement id, like the harness's checkProperty, with three
// additions the properties need: a setup step that runs once before the runs (it may read fixtures,
// probe the target and end the check not_applicable or skipped, which a run cannot); runs that can
// decide nothing about the requirement (the window held one summary, the generated version was no
// longer below the oldest) say so, and a law none of whose runs decided anything ends not_applicable
// instead of passing without evidence; and the run's seed installed and printed (run-seed.ts).
// Everything else (seed, shrunk path, counterexample, requests with curl lines, replay command,
// --depth, --path) is the harness's runProperty.

import type fc from "fast-check";
import { check, CheckFailure, CheckNotApplicable, runProperty, type CheckContext } from "../../src/harness/index.ts";
import { runConfig } from "../../src/harness/config.ts";
import { useRunSeed } from "./run-seed.ts";

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
 * Registers a property of requirement `id`: `setup(t)` once, then `predicate(t, value, setup)` for the
 * values of `arbitrary(setup)`. The predicate asserts with `t.expect…`; a failed assertion is the
 * counterexample fast-check shrinks. When every run returned `undecided(…)`, the check ends
 * not_applicable with the last reason: the law held, but nothing showed it.
 */
export function law<S, T>(
  id: string,
  options: LawOptions,
  setup: (t: CheckContext) => Promise<S>,
  arbitrary: (setup: S) => fc.Arbitrary<T>,
  predicate: LawPredicate<S, T>,
): void {
  const { depth, rateLimit } = runSettings();
  const slowdown = rateLimit === undefined ? 1 : Math.max(1, FULL_SPEED_RPS / rateLimit);
  const budgetMs = Math.round((options.budgetMs ?? 30_000) * Math.max(1, depth) * slowdown);
  check(id, { variant: "property", timeoutMs: budgetMs + 60_000 }, async (t) => {
    useRunSeed();
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

function runSettings(): { depth: number; rateLimit: number | undefined } {
  // Collection can happen outside a run (a unit test importing the file): depth 1, no limit then.
  try {
    const config = runConfig();
    return { depth: config.depth, rateLimit: config.rateLimit };
  } catch {
    return { depth: 1, rateLimit: undefined };
  }
}
