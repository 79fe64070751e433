// `npm run node -- …` / `npx ledger-node …`: runs the reference node. Prints exactly
// `listening on URL` (URL = base including /v1) once it listens; stops cleanly on SIGINT and SIGTERM.
// Exit status 2 on bad usage.

import { writeFileSync } from "node:fs";
import type { RunningNode } from "../node/index.ts";
import { NodeUsageError, parseNodeArgs, type NodeCommandLine } from "./node-args.ts";
import { usageOf } from "./usage.ts";

const USAGE = usageOf("node");

async function main(): Promise<number> {
  let command: NodeCommandLine;
  try {
    command = parseNodeArgs(process.argv.slice(2));
  } catch (error) {
    // parseArgs throws TypeErrors with a code for unknown or malformed flags.
    if (error instanceof NodeUsageError || (error instanceof TypeError && "code" in error)) {
      process.stderr.write(`ledger-node: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  if (command === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // The node is loaded only now, so that --help costs a process start and no more.
  const { FAULT_NAMES, FAULTS, startNode } = await import("../node/index.ts");
  const { EngineConfigError } = await import("../node/ledger/index.ts");
  if (command === "list-faults") {
    for (const fault of FAULTS) process.stdout.write(`${fault.name}  ${fault.description}\n`);
    return 0;
  }

  const unknownFault = command.options.faults?.find((fault) => !FAULT_NAMES.includes(fault));
  if (unknownFault !== undefined) {
    process.stderr.write(`ledger-node: unknown fault '${unknownFault}' (see --list-faults)\n${USAGE}\n`);
    return 2;
  }

  const fixturesOut = command.fixturesOut;
  let node: RunningNode;
  try {
    node = await startNode({
      ...command.options,
      // The fixtures file is written before the node listens, so a reader never sees a node without it.
      beforeListen: (fixtures) => {
        if (fixturesOut !== undefined) writeFileSync(fixturesOut, `${JSON.stringify(fixtures, null, 2)}\n`);
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`ledger-node: ${message}\n`);
    // A configuration the engine refuses is a usage error; anything else (port taken, unwritable file) is not.
    return error instanceof EngineConfigError ? 2 : 1;
  }
  process.stdout.write(`listening on ${node.url}\n`);

  // `on`, not `once`: a second signal (a wrapper relaying to the process group) must not kill the
  // node halfway through closing.
  await new Promise<void>((resolve) => {
    process.on("SIGINT", () => resolve());
    process.on("SIGTERM", () => resolve());
  });
  await node.close();
  return 0;
}

process.exitCode = await main();
