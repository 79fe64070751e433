// A node's run configuration, assembled in one place from its options (run-plan.ts NodeOptions): where
// the run goes (its target, or the reference node started in-process with its own fixtures), the
// fixtures (file, embedded node, LEDGER_CONFORMANCE_ACCOUNTS), and the RunConfig every worker reads.

import { shellQuote } from "../harness/curl.ts";
import {
  defaultClockToleranceMs,
  DEFAULT_MAX_RESPONSE_BYTES,
  normalizeHeaderPrefix,
  normalizeTarget,
  WIRE_PROFILES,
  type RunConfig,
  type RunConfigWithoutTarget,
  type TargetFacts,
} from "../harness/config.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { REDACTED } from "../harness/secrets.ts";
import type { CheckSelection } from "../harness/selection.ts";
import { accountsFromEnvironment, loadFixturesFile, type Fixtures } from "../harness/fixtures.ts";
import type { NodeOptions } from "./run-plan.ts";
import { startEmbeddedNodeFor, type EmbeddedNode } from "./embedded-node.ts";

export interface ResolvedTarget {
  /** Base URL including /v1, without a trailing slash. */
  readonly target: string;
  readonly fixtures: Fixtures;
  /** The embedded reference node, when the node names no target; the caller closes it. */
  readonly node?: EmbeddedNode;
}

/**
 * The target and its fixtures. Without a target, the reference node: `embedded` when the caller
 * started it already (the command's entry, so that it starts while the command loads), else started here.
 */
export async function resolveTarget(
  args: NodeOptions,
  say: (line: string) => void,
  embedded?: Promise<EmbeddedNode>,
): Promise<ResolvedTarget> {
  const fixturesFromFile = args.fixtures === undefined ? {} : loadFixturesFile(args.fixtures);
  const envAccounts = accountsFromEnvironment(process.env.LEDGER_CONFORMANCE_ACCOUNTS);
  const withAccounts = (fixtures: Fixtures): Fixtures => (envAccounts === undefined ? fixtures : { ...fixtures, accounts: envAccounts });
  if (args.target !== undefined) {
    const target = normalizeTarget(args.target);
    if (!/\/v1$/.test(new URL(target).pathname)) say(`note: the target URL is the base including /v1; ${target} does not end in /v1`);
    return { target, fixtures: withAccounts(fixturesFromFile) };
  }
  say("starting the reference node in-process…");
  let node: EmbeddedNode;
  try {
    node = await (embedded ?? startEmbeddedNodeFor(args));
  } catch (e) {
    throw new ConfigurationError(`cannot start the reference node: ${(e as Error).message}`);
  }
  return { target: normalizeTarget(node.url), fixtures: withAccounts({ ...node.fixtures, ...fixturesFromFile }), node };
}

/** The configuration every worker reads, from the node's options, its resolved target and the run's directories. */
export function runConfigOf(
  args: NodeOptions,
  resolved: Pick<ResolvedTarget, "target" | "fixtures">,
  dirs: { readonly stateDir: string; readonly bodiesDir: string },
  selection: CheckSelection,
): RunConfig {
  return { ...runConfigWithoutTarget(args, dirs, selection), ...targetFactsOf(args, resolved) };
}

/** What the workers learn of the target: its URL, its fixtures, and the clock tolerance (--clock-tolerance, else its address's). */
export function targetFactsOf(args: NodeOptions, resolved: Pick<ResolvedTarget, "target" | "fixtures">): TargetFacts {
  return {
    target: resolved.target,
    fixtures: resolved.fixtures,
    clockToleranceMs: args.clockToleranceMs ?? defaultClockToleranceMs(resolved.target),
  };
}

/** The configuration but the target's facts: the node's options and the run's directories. */
export function runConfigWithoutTarget(
  args: NodeOptions,
  dirs: { readonly stateDir: string; readonly bodiesDir: string },
  selection: CheckSelection,
): RunConfigWithoutTarget {
  return {
    profile: {
      ...WIRE_PROFILES[args.profile],
      ...(args.headerPrefix === undefined ? {} : { headerPrefix: normalizeHeaderPrefix(args.headerPrefix) }),
    },
    allowSubmit: args.allowSubmit,
    timeoutMs: args.timeoutMs,
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
    ...(args.rateLimit === undefined ? {} : { rateLimit: args.rateLimit }),
    ...(args.load === undefined ? {} : { load: args.load }),
    ...(args.seed === undefined ? {} : { seed: args.seed }),
    ...(args.replayPath === undefined ? {} : { replayPath: args.replayPath }),
    depth: args.depth,
    stateDir: dirs.stateDir,
    bodiesDir: dirs.bodiesDir,
    replayArgs: replayArgs(args),
    // The one pattern as selected (an old requirement id mapped to its current one).
    ...(selection.only.length === 1 && selection.only[0] !== undefined ? { only: selection.only[0].text } : {}),
    selection,
    ...(Object.keys(args.secretHeaders).length === 0 ? {} : { secretHeaders: args.secretHeaders }),
    ...(args.format === "markdown" ? { infoFd: 2 as const } : {}),
  };
}

/** The flags that reach the same target again, for property replay commands. */
function replayArgs(args: NodeOptions): string {
  const parts: string[] = [];
  if (args.target !== undefined) parts.push(`--target ${shellQuote(args.target)}`);
  if (args.profile !== "node") parts.push(`--profile ${args.profile}`);
  if (args.headerPrefix !== undefined) parts.push(`--header-prefix ${shellQuote(args.headerPrefix)}`);
  if (args.fixtures !== undefined) parts.push(`--fixtures ${shellQuote(args.fixtures)}`);
  if (args.allowSubmit) parts.push("--allow-submit");
  if (args.clockToleranceMs !== undefined) parts.push(`--clock-tolerance ${args.clockToleranceMs}`);
  // The secret stays out: the reader puts it back where *** stands.
  for (const name of Object.keys(args.secretHeaders)) parts.push(`--header ${shellQuote(`${name}: ${REDACTED}`)}`);
  return parts.join(" ");
}
