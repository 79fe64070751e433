// `npm test`'s wall time beside its goal (at most 90 s on 2 cores): the project's own test
// run (vitest with vitest.config.ts, every file of test/) as a child process, timed from spawn to exit.
// Its outcome is printed too: a fast run that fails is no figure.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { formatNumber, printHeading } from "./format.ts";
import type { BenchOptions } from "./options.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const VITEST = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));
const GOAL_SECONDS = 90;
/** A hung test run must not hang the bench. */
const LIMIT_MS = 30 * 60_000;

export async function runTestWall(_options: BenchOptions): Promise<void> {
  printHeading("npm test: every file of test/, as `npm test` runs them");
  const started = performance.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    // vitest directly (npm and npx leave the run behind when killed).
    const child = spawn(process.execPath, [VITEST, "run"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", CI: "1" },
    });
    let text = "";
    const keep = (chunk: Buffer) => (text = (text + chunk.toString("utf8")).slice(-20_000));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => child.kill("SIGKILL"), LIMIT_MS);
    child.once("error", reject);
    child.once("close", (exit) => {
      clearTimeout(timer);
      resolve({ code: exit, output: text });
    });
  });
  const seconds = (performance.now() - started) / 1000;
  const counts = ["Test Files", "Tests"].map((label) => new RegExp(`^\\s*${label}\\s+(.*)$`, "m").exec(output)?.[1]?.trim() ?? "?");
  process.stdout.write(
    [
      "",
      `files: ${counts[0]}; tests: ${counts[1]}; exit ${code}`,
      `npm test wall: ${formatNumber(seconds, 1)} s (goal ≤ ${GOAL_SECONDS} s on 2 cores: ${seconds <= GOAL_SECONDS ? "met" : "NOT met"})`,
      "",
    ].join("\n"),
  );
}
