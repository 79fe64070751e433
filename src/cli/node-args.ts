// The flags of `ledger-node` (the flag table's "node" rows, flags.ts), parsed with node:util parseArgs
// into the reference node's start options. A value the node cannot take is a NodeUsageError.

import { parseArgs } from "node:util";
import { isProfileName } from "../codec/wire-profiles.ts";
import type { StartNodeOptions } from "../node/index.ts";
import { defaultOf, parseOptionsOf } from "./flags.ts";

/** A flag the node cannot start with: the command prints it with the usage and exits 2. */
export class NodeUsageError extends Error {}

function nonNegativeInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new NodeUsageError(`--${flag} needs a non-negative integer, got '${value}'`);
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

/** The node's options and where its fixtures go, or what the command does instead of starting it. */
export type NodeCommandLine = { options: StartNodeOptions; fixturesOut?: string } | "help" | "list-faults";

export function parseNodeArgs(args: string[]): NodeCommandLine {
  const { values } = parseArgs({ args, strict: true, allowPositionals: false, options: parseOptionsOf("node") }) as {
    values: NodeFlagValues;
  };
  if (values.help) return "help";
  if (values["list-faults"]) return "list-faults";

  const profile = values.profile ?? defaultOf("node", "profile");
  if (!isProfileName(profile)) throw new NodeUsageError(`--profile must be node or aptos, got '${profile}'`);
  const port = nonNegativeInteger("port", values.port ?? defaultOf("node", "port")) as number;
  if (port > 65535) throw new NodeUsageError(`--port must be at most 65535, got ${port}`);
  const bodyLimit = nonNegativeInteger("body-limit", values["body-limit"]);
  if (bodyLimit === 0) throw new NodeUsageError("--body-limit must be positive");

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
