// A self-check's runs in a child process of their own: the plan written to a file, a command (a .mjs
// entry that loads vitest's Node API first and runs its .ts behind tsx) run over it, its outcomes read
// back from the file it wrote. A vitest instance made by the runs is then not nested in the worker of
// the test that asks for them, and a process per share keeps a core busy: fault-runs.ts and
// variation-runs.ts (test/self-check/) deal their runs this way.

import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { ROOT } from "./conformance-command.ts";

export interface ChildRun<Plan> {
  /** The command, relative to the root: `node COMMAND PLAN RESULTS`. */
  readonly command: string;
  readonly plan: Plan;
  /** A path prefix for the plan and results files. */
  readonly prefix: string;
  /** Names the runs in the error thrown when the child fails ("the fault runs of …"). */
  readonly label: string;
  /** Killed after this long. */
  readonly maxMs: number;
}

/** The outcomes the child wrote; throws, with the end of its stderr, when it did not exit 0. */
export async function runInChild<Plan, Outcome>({ command, plan, prefix, label, maxMs }: ChildRun<Plan>): Promise<Outcome> {
  const planFile = `${prefix}-plan.json`;
  const resultsFile = `${prefix}-results.json`;
  writeFileSync(planFile, JSON.stringify(plan));
  const child = spawn(process.execPath, [command, planFile, resultsFile], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-8000)));
  const timer = setTimeout(() => child.kill("SIGKILL"), maxMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${label} exited ${code}\n${stderr}`);
  return JSON.parse(readFileSync(resultsFile, "utf8")) as Outcome;
}
