// The property self-tests' runs of one law against a law-breaking proxy, made in batches: the runs a
// test file starts together go into one vitest instance in this process (test/support/suite-runs.ts),
// each with the flags the command would get (--only ID, and any others), its outcome made as the
// command makes it. As a command process each, every run paid the command's start-up (node, vitest,
// a worker loading the harness: about 2 CPU-s) for a law that takes about one. The command itself is
// what the replays (pagination.test.ts), the health property's clean run and clean.test.ts start. A
// run holds only the files that name its id (suite-files.ts filesNaming): under --only ID no other
// file has a check to run.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Fixtures } from "../../../src/harness/fixtures.ts";
import { filesNaming } from "../../self-check/suite-files.ts";
import { runSuitesAtOnce } from "../../support/suite-runs.ts";
import type { ConformanceRun } from "./conformance-run.ts";

/** How long a batch waits for more runs after its first: the tests of a file start within milliseconds. */
const BATCH_WINDOW_MS = 200;
/** Cap on one batch; each test's own timeout is 120 s. */
const BATCH_MAX_MS = 110_000;

interface Pending {
  readonly name: string;
  readonly target: string;
  readonly fixtures: Fixtures;
  readonly only: string;
  readonly extraArgs: readonly string[];
  readonly resolve: (run: ConformanceRun) => void;
  readonly reject: (error: unknown) => void;
}

let waiting: Pending[] = [];
// biome-ignore lint/correctness/noUnusedVariables: read by `??=`, which starts one timer per batch.
let timer: NodeJS.Timeout | undefined;
/** One batch at a time: a vitest instance is not made to share its process with another. */
let previous: Promise<void> = Promise.resolve();
let counter = 0;

/** The conformance run of the law `only` (an id) against `target` (…/v1), with `extraArgs` as flags. */
export function lawRun(
  target: { readonly url: string; readonly fixtures: Fixtures },
  only: string,
  extraArgs: readonly string[] = [],
): Promise<ConformanceRun> {
  return new Promise((resolve, reject) => {
    counter += 1;
    waiting.push({ name: `${only} #${counter}`, target: target.url, fixtures: target.fixtures, only, extraArgs, resolve, reject });
    timer ??= setTimeout(() => {
      timer = undefined;
      const batch = waiting;
      waiting = [];
      previous = previous.then(() => runBatch(batch));
    }, BATCH_WINDOW_MS);
  });
}

async function runBatch(batch: readonly Pending[]): Promise<void> {
  const started = Date.now();
  // Fresh for every batch: a run's seed, unless --seed is given, comes from its state directory's name.
  const scratch = mkdtempSync(join(tmpdir(), "law-runs-"));
  try {
    const results = await runSuitesAtOnce(
      batch.map((p) => ({
        name: p.name,
        target: p.target,
        fixtures: p.fixtures,
        profile: "node" as const,
        files: filesNaming([p.only]),
        extraArgs: ["--only", p.only, ...p.extraArgs],
      })),
      { scratch, maxDurationMs: BATCH_MAX_MS },
    );
    for (const p of batch) {
      const result = results.get(p.name);
      if (result === undefined) {
        p.reject(new Error(`no outcome for ${p.name}`));
        continue;
      }
      const failures = result.summary.requirements.flatMap((r) => r.failures.map((f) => `${r.id}: ${f.message}`));
      p.resolve({
        code: result.exitCode,
        // What the command would print at most: its failures (expectCaught shows them when it fails).
        stdout: failures.join("\n\n"),
        stderr: "",
        summary: result.summary,
        ms: Date.now() - started,
        args: ["--target", p.target, "--only", p.only, ...p.extraArgs],
      });
    }
  } catch (e) {
    for (const p of batch) p.reject(e);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
