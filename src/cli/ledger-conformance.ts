// `npm run conformance -- …` / `npx ledger-conformance …`: the command's subcommands, dispatched. A run
// (no subcommand, src/cli/run.ts) checks a node against the suites and writes summary.json, junit.xml
// and html/; without --target it tests the reference node, started in-process on a free loopback port
// (by the entry, ledger-conformance-entry.ts, before this loads). `diff`, `merge` and `proxy` are
// src/cli/diff.ts, merge.ts and proxy.ts. Every command's flags: src/cli/flags.ts.

import type { EmbeddedNode } from "../run/embedded-node.ts";
import { mergeCommand } from "./merge.ts";
import { runConformance } from "./run.ts";

/**
 * SIGTERM or SIGINT (an outer time limit, Ctrl-C) stops the run like --max-duration does: the checks
 * that did not run are skipped, the reports are written, and the command exits 128 + the signal's
 * number. A second signal leaves at once.
 */
const interrupt = new AbortController();
for (const [signal, number] of [
  ["SIGINT", 2],
  ["SIGTERM", 15],
] as const) {
  process.on(signal, () => {
    if (interrupt.signal.aborted) process.exit(128 + number);
    interrupt.abort(`interrupted by ${signal}`);
  });
}

/**
 * Runs the command with `argv` and sets the exit code. `started`: the reference node the entry started
 * for a run without a target, from the same flags (without it, the run starts one).
 */
export async function runCommand(argv: readonly string[], started?: Promise<EmbeddedNode>): Promise<void> {
  const code = await main(argv, started);
  process.exitCode = code;
  // vitest sets process.exitCode too (1 when a run had failures or errors), also while it closes after
  // the command is done: a run abandoned because its target never answered had its workers' waits
  // cancelled, and its close set 1 over the 2 the command returned. The command's status is its own.
  process.on("exit", () => {
    process.exitCode = code;
  });
  // Keep-alive sockets or a stuck worker must not keep the command alive once the reports are written.
  setTimeout(() => process.exit(code), 2_000).unref();
}

/** The subcommand's exit status; diff and proxy are loaded only when asked for. */
async function main(argv: readonly string[], started: Promise<EmbeddedNode> | undefined): Promise<number> {
  if (argv[0] === "diff") return (await import("./diff.ts")).diffCommand(argv.slice(1));
  if (argv[0] === "proxy") return (await import("./proxy.ts")).proxyCommand(argv.slice(1));
  if (argv[0] === "merge") return mergeCommand(argv.slice(1));
  return runConformance(argv, started, interrupt.signal);
}
