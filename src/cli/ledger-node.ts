// `npm run node -- …` / `npx ledger-node …`: runs the reference node. Prints exactly
// `listening on URL` (URL = base including /v1) once it listens; stops cleanly on SIGINT and SIGTERM.
// Exit status 2 on bad usage.

import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { isProfileName } from "../codec/wire-profiles.ts";
import type { RunningNode, StartNodeOptions } from "../node/index.ts";
import { defaultOf, parseOptionsOf } from "./flags.ts";
import { usageOf } from "./usage.ts";

const USAGE = usageOf("node");

class UsageError extends Error {}

function nonNegativeInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${flag} needs a non-negative integer, got '${value}'`);
  }
  return Number(value);
}

/** What parseArgs gives for the node's flags. */
interface NodeFlagValues {
  port?: string;
  host?: string;
  "fixtures-out"?: string;
  fault?: string[];
  "list-faults"?: boolean;
  seed?: string;
  "prune-window"?: string;
  "block-interval"?: string;
  "mempool-capacity"?: string;
  "genesis-versions"?: string;
  "body-limit"?: string;
  "no-submit"?: boolean;
  "header-prefix"?: string;
  profile?: string;
  help?: boolean;
}

function parseCommandLine(args: string[]): { options: StartNodeOptions; fixturesOut?: string } | "help" | "list-faults" {
  const { values } = parseArgs({ args, strict: true, allowPositionals: false, options: parseOptionsOf("node") }) as { values: NodeFlagValues };
  if (values.help) return "help";
  if (values["list-faults"]) return "list-faults";

  const profile = values.profile ?? defaultOf("node", "profile");
  if (!isProfileName(profile)) throw new UsageError(`--profile must be node or aptos, got '${profile}'`);
  const port = nonNegativeInteger("port", values.port ?? defaultOf("node", "port")) as number;
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const bodyLimit = nonNegativeInteger("body-limit", values["body-limit"]);
  if (bodyLimit === 0) throw new UsageError("--body-limit must be positive");

  const options: StartNodeOptions = {
    port,
    host: values.host ?? defaultOf("node", "host"),
    profile,
    headerPrefix: values["header-prefix"],
    bodyLimit,
    submit: !values["no-submit"],
    seed: values.seed,
    pruneWindow: nonNegativeInteger("prune-window", values["prune-window"]),
    blockIntervalMs: nonNegativeInteger("block-interval", values["block-interval"]),
    mempoolCapacity: nonNegativeInteger("mempool-capacity", values["mempool-capacity"]),
    genesisVersions: nonNegativeInteger("genesis-versions", values["genesis-versions"]),
    faults: values.fault ?? [],
  };
  return { options, fixturesOut: values["fixtures-out"] };
}

async function main(): Promise<number> {
  let command: ReturnType<typeof parseCommandLine>;
  try {
    command = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    // parseArgs throws TypeErrors with a code for unknown or malformed flags.
    if (error instanceof UsageError || (error instanceof TypeError && "code" in error)) {
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
