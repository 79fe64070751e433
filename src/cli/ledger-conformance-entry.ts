// What the `ledger-conformance` command runs: --help and --version are answered from the argument
// parser alone, so they cost a process start and little more; anything else (a run, a subcommand, a
// usage error) imports the whole command, whose suite runner, reporters and vitest take most of a
// second to load. A run without a target starts its reference node first, so that the node's loading
// and genesis, on a thread of their own, overlap with that.

import { packageVersion } from "../package-root.ts";
import { parseConformanceArgs, testsEmbeddedNode, USAGE } from "./args.ts";
import { startEmbeddedNodeFor } from "../run/embedded-node.ts";

const argv = process.argv.slice(2);
let parsed: ReturnType<typeof parseConformanceArgs> | undefined;
try {
  parsed = parseConformanceArgs(argv);
} catch {
  parsed = undefined; // the command reports it, with the usage text
}
if (parsed === "help") process.stdout.write(`${USAGE}\n`);
else if (parsed === "version") process.stdout.write(`${packageVersion()}\n`);
else {
  const embedded = parsed !== undefined && testsEmbeddedNode(parsed) ? startEmbeddedNodeFor(parsed) : undefined;
  embedded?.catch(() => undefined); // a failed start is reported by the command, where it awaits the node
  const { runCommand } = await import("./ledger-conformance.ts");
  await runCommand(argv, embedded);
}
