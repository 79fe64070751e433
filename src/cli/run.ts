// `ledger-conformance [options]`: a run of the suites against a node, or against a fleet of them. This
// is the command's side only: the flags, the plan made of them (run-plan-of.ts), where the lines go, and
// how a problem ends the command; the engine (src/run/engine.ts) runs the plan. Exit status: 0 every MUST holds; 1 some MUST failed
// (or a baseline entry passed, or the run had errors); 2 usage or configuration error, or the target
// cannot be tested at all; 128 + the signal's number when a signal stopped it.

import { escapeControls } from "../../reporters/escape-controls.ts";
import { colourAllowed } from "../../reporters/terminal.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { packageVersion } from "../package-root.ts";
import type { EmbeddedNode } from "../run/embedded-node.ts";
import { runPlan } from "../run/engine.ts";
import { PhaseClock } from "../run/phases.ts";
import { parseConformanceArgs, USAGE, type ConformanceArgs } from "./args.ts";
import { UsageError } from "../harness/usage-error.ts";
import { ProgressLine } from "./progress-line.ts";
import { runPlanOf } from "./run-plan-of.ts";

/** Runs the suites as the flags say; the exit status. */
export async function runConformance(
  argv: readonly string[],
  started: Promise<EmbeddedNode> | undefined,
  interrupt: AbortSignal,
): Promise<number> {
  const args = parsedArgs(argv);
  if (typeof args === "number") return args;
  // With --format markdown stdout holds only the markdown summary: progress goes to stderr.
  const out = args.format === "markdown" ? process.stderr : process.stdout;
  const say = (line: string) => {
    if (!args.quiet) out.write(`${escapeControls(line)}\n`);
  };
  let handedOver = false;
  try {
    const startedAt = new Date();
    const t0 = performance.now();
    const phases = new PhaseClock();
    phases.end("processStart", t0);
    if (args.configFile !== undefined) say(`config file ${args.configFile}`);
    const plan = runPlanOf(args);
    // On a terminal, a one-node run shows a line of progress while files run, and colour (unless NO_COLOR).
    const alone = "one" in plan.targets;
    const progress = new ProgressLine(out, { enabled: alone && !args.quiet && out.isTTY === true, colour: colourAllowed(out) });
    handedOver = true;
    return (await runPlan(plan, { say, progress, interrupt, ...(started === undefined ? {} : { started }), startedAt, t0, phases }))
      .exitCode;
  } catch (e) {
    // A configuration error (fixtures, catalog, baseline, a node that cannot start, --only): its message.
    const text = e instanceof ConfigurationError ? e.message : ((e as Error).stack ?? String(e));
    process.stderr.write(escapeControls(`ledger-conformance: ${text}\n`));
    return 2;
  } finally {
    // The embedded node the entry started, when the run never got to close it.
    if (!handedOver) await (await started?.catch(() => undefined))?.close().catch(() => undefined);
  }
}

/** The flags, or the exit status when they are all the command does (--help, --version) or wrong. */
function parsedArgs(argv: readonly string[]): ConformanceArgs | number {
  try {
    const parsed = parseConformanceArgs(argv);
    if (parsed === "help") process.stdout.write(`${USAGE}\n`);
    if (parsed === "version") process.stdout.write(`${packageVersion()}\n`);
    return parsed === "help" || parsed === "version" ? 0 : parsed;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(escapeControls(`ledger-conformance: ${e.message}\n${USAGE}\n`));
      return 2;
    }
    // The config file: its problems, without the usage text.
    if (e instanceof ConfigurationError) {
      process.stderr.write(escapeControls(`ledger-conformance: ${e.message}\n`));
      return 2;
    }
    throw e;
  }
}
