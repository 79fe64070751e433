// Property checks (fast-check) under the same requirement ids and report as `check`. A failing
// property reports its seed, its shrunk path, the counterexample, the requests of the failing
// (shrunk) case with their curl lines, and the command that replays exactly that case.

import fc from "fast-check";
import { check, type CheckOptions } from "./check.ts";
import { CheckContext, CheckFailure, CheckSkipped, NoHttpAnswer } from "./check-context.ts";
import { shellQuote } from "./curl.ts";
import type { Failure, RequestRecord } from "./results.ts";

export interface PropertyOptions extends CheckOptions {
  /** Runs at --depth 1 (default 25); --depth N multiplies it. */
  readonly numRuns?: number;
  /** Time budget of the whole property, shrinking included (default 120 s). */
  readonly budgetMs?: number;
}

/** The arbitrary, or a function of `t` that builds it (and may call t.needsFixture first). */
export type ArbitrarySource<T> = fc.Arbitrary<T> | ((t: CheckContext) => fc.Arbitrary<T>);

export type PropertyFn<T> = (t: CheckContext, value: T) => Promise<void | boolean> | void | boolean;

export function checkProperty<T>(id: string, source: ArbitrarySource<T>, predicate: PropertyFn<T>, options: PropertyOptions = {}): void {
  const budgetMs = options.budgetMs ?? 120_000;
  const checkOptions: CheckOptions = {
    ...(options.variant === undefined ? {} : { variant: options.variant }),
    timeoutMs: options.timeoutMs ?? budgetMs + 60_000,
  };
  check(id, checkOptions, async (t) => {
    const arbitrary = typeof source === "function" ? source(t) : source;
    const failure = await runProperty(t, arbitrary, predicate, { numRuns: options.numRuns ?? 25, budgetMs });
    if (failure) throw new CheckFailure(failure);
    t.expect(true, "the property to hold on every run");
  });
}

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
    const start = t.requests.length;
    try {
      const verdict = await predicate(t, value);
      if (verdict === false) throw new Error("the predicate returned false");
    } catch (e) {
      lastFailingRequests = t.requests.slice(start);
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
