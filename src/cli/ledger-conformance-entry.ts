// What the `ledger-conformance` command runs: --help and --version are answered from the argument
// parser alone, so they cost a process start and little more; anything else (a run, a subcommand, a
// usage error) imports the whole command, whose suite runner, reporters and vitest take most of a
// second to load.

import { packageVersion } from "../package-root.ts";
import { parseConformanceArgs, USAGE } from "./conformance-args.ts";

let parsed: ReturnType<typeof parseConformanceArgs> | undefined;
try {
  parsed = parseConformanceArgs(process.argv.slice(2));
} catch {
  parsed = undefined; // the command reports it, with the usage text
}
if (parsed === "help") process.stdout.write(`${USAGE}\n`);
else if (parsed === "version") process.stdout.write(`${packageVersion()}\n`);
else await import("./ledger-conformance.ts");
