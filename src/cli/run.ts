// `ledger-conformance [options]`: a run of the suites against a node (src/run/one-node-run.ts), or
// against a fleet of them (src/fleet/run.ts). This is the command's side only: the flags, where the
// lines go, and how a problem ends the command. Exit status: 0 every MUST holds; 1 some MUST failed
// (or a baseline entry passed, or the run had errors); 2 usage or configuration error, or the target
// cannot be tested at all; 128 + the signal's number when a signal stopped it.

import { escapeControls } from "../../reporters/escape-controls.ts";
import { colourAllowed } from "../../reporters/terminal.ts";
import { runFleet } from "../fleet/run.ts";
import { readTargetsFile, targetsFromUrls, type FleetTarget } from "../fleet/targets.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { packageVersion } from "../package-root.ts";
import type { EmbeddedNode } from "../run/embedded-node.ts";
import { runOneNode } from "../run/one-node-run.ts";
import { PhaseClock } from "../run/phases.ts";
import { prepareRun } from "../run/run-inputs.ts";
import { parseConformanceArgs, USAGE, type ConformanceArgs } from "./args.ts";
import { UsageError } from "../harness/usage-error.ts";
import { ProgressLine } from "./progress-line.ts";

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
    const inputs = prepareRun(args, say);
    // A fleet: every node's checks in one vitest instance, then the requirement-by-node matrix.
    const fleet = fleetOf(args);
    if (fleet !== undefined) return await runFleet({ targets: fleet, args, ...inputs, interrupt, say });
    // On a terminal: a line of progress while files run, and colour (unless NO_COLOR).
    const progress = new ProgressLine(out, { enabled: !args.quiet && out.isTTY === true, colour: colourAllowed(out) });
    handedOver = true;
    return await runOneNode({
      args,
      inputs,
      ...(started === undefined ? {} : { started }),
      interrupt,
      say,
      progress,
      startedAt,
      t0,
      phases,
    });
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

/** The fleet the flags name (--targets FILE, or --target repeated); undefined for one node. */
function fleetOf(args: ConformanceArgs): FleetTarget[] | undefined {
  if (args.targetsFile !== undefined) return readTargetsFile(args.targetsFile);
  return args.fleet === undefined ? undefined : targetsFromUrls(args.fleet);
}
