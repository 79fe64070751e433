// The flags of a `ledger-conformance` run (the flag table's "run" rows, flags.ts): node:util parseArgs splits the
// command line, the config file's flags go under it, each value is read by its row's kind (run-flag-values.ts),
// then --header and the rules between flags have their own steps. Any problem is a UsageError: the command prints
// it with the usage text and exits 2.

import { parseArgs } from "node:util";
import { UsageError } from "../harness/usage-error.ts";
import { CLOCK_TOLERANCE_ENV } from "../harness/config.ts";
import type { ReportFormat } from "../../reporters/report-format.ts";
import type { ProfileName } from "../harness/config.ts";
import type { RunOptions } from "../run/run-plan.ts";
import { configFilePath, loadConfigFile } from "./config-file.ts";
import { parseOptionsOf } from "./flags.ts";
import { HeaderError, mergeHeaders, parseHeaderFlag } from "./request-headers.ts";
import { milliseconds, readRunFlags, type RunFlagInput, runDefault } from "./run-flag-values.ts";
import { usageOf } from "./usage.ts";

/** The flags of a run, as given: src/cli/run-plan-of.ts makes the run's plan of them. */
export interface ConformanceArgs extends RunOptions {
  /** The one --target, or the first of several. */
  readonly target?: string;
  /** --target given more than once: every URL, in order (a fleet). */
  readonly fleet?: readonly string[];
  /** --targets FILE: a fleet described by a file (src/fleet/targets.ts). */
  readonly targetsFile?: string;
  readonly fixtures?: string;
  readonly reportDir: string;
  readonly profile: ProfileName;
  /** The config file the flags were read from, if any. */
  readonly configFile?: string;
  readonly quiet: boolean;
  /** --write-baseline: where to write the failed MUST ids as a baseline. */
  readonly writeBaseline?: string;
  /** What stdout gets at the end: the console table (when absent), or the markdown summary. */
  readonly format?: ReportFormat;
  /** junit.xml with one case per check rather than per requirement. */
  readonly junitPerCheck?: true;
}

/** The run tests the embedded node when it names no target: no --target, no fleet. */
export function testsEmbeddedNode(args: Pick<ConformanceArgs, "target" | "fleet" | "targetsFile">): boolean {
  return args.target === undefined && args.fleet === undefined && args.targetsFile === undefined;
}

/** The run's --help (the flag table's "run" rows). */
export const USAGE = usageOf("run");

const RUN_OPTIONS = parseOptionsOf("run");

export function parseConformanceArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): ConformanceArgs | "help" | "version" {
  try {
    return parseWithConfigFile(argv, env, cwd);
  } catch (e) {
    // A bad --header is a usage problem like a bad flag (a bad config file is a ConfigFileError: its message, exit 2).
    if (e instanceof HeaderError) throw new UsageError(e.message);
    throw e;
  }
}

function parseWithConfigFile(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): ConformanceArgs | "help" | "version" {
  let flags: RunFlagInput;
  try {
    ({ values: flags } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: RUN_OPTIONS }) as {
      values: RunFlagInput;
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (flags.help) return "help";
  if (flags.version) return "version";
  const configFile = configFilePath(flags.config, cwd);
  const fromFile = configFile === undefined ? undefined : loadConfigFile(configFile, env);
  // A flag given overrides the file's value (a list flag replaces the file's list); --target or --targets
  // given replaces whichever of the two the file names (so a fleet's node runs, given --target, are one node).
  const fileFlags = { ...fromFile?.flags };
  if (flags.target !== undefined || flags.targets !== undefined) {
    delete fileFlags.target;
    delete fileFlags.targets;
  }
  const values = readRunFlags({ ...fileFlags, ...flags });
  // --header's own step: its values are secrets, with ${VAR} read from the environment, merged with the file's headers.
  const secretHeaders = mergeHeaders(
    fromFile?.headers ?? [],
    (values.header ?? []).map((h) => parseHeaderFlag(h, env)),
  );
  // Rules between flags.
  if (flags.targets !== undefined && flags.target !== undefined)
    throw new UsageError("--targets FILE names every target: give it or --target, not both");
  const [target, ...moreTargets] = values.target ?? [];
  if ((moreTargets.length > 0 || values.targets !== undefined) && values["write-baseline"] !== undefined) {
    throw new UsageError("--write-baseline writes one node's failures: give one --target");
  }
  if (values["compare-to"] === undefined && (values["compare-fixtures"] !== undefined || values["fail-on-diff"] === true)) {
    throw new UsageError("--compare-fixtures and --fail-on-diff need --compare-to");
  }
  if (values.path !== undefined && values.seed === undefined) throw new UsageError("--path needs --seed");
  const depth = values.depth ?? runDefault("depth");
  // --clock-tolerance, else its environment variable.
  const envTolerance = env[CLOCK_TOLERANCE_ENV]?.trim();
  const clockToleranceMs =
    values["clock-tolerance"] ??
    (envTolerance === undefined || envTolerance === "" ? undefined : milliseconds(CLOCK_TOLERANCE_ENV, envTolerance));
  return {
    ...(target === undefined ? {} : { target }),
    ...(moreTargets.length === 0 ? {} : { fleet: [target as string, ...moreTargets] }),
    ...(values.targets === undefined ? {} : { targetsFile: values.targets }),
    ...(values.fixtures === undefined ? {} : { fixtures: values.fixtures }),
    reportDir: values["report-dir"] ?? runDefault("report-dir"),
    profile: values.profile ?? runDefault("profile"),
    ...(values["header-prefix"] === undefined ? {} : { headerPrefix: values["header-prefix"] }),
    allowSubmit: values["allow-submit"] === true,
    only: values.only ?? [],
    skip: values.skip ?? [],
    level: values.level ?? runDefault("level"),
    secretHeaders,
    ...(configFile === undefined ? {} : { configFile }),
    ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
    timeoutMs: values.timeout ?? runDefault("timeout"),
    // Its default grows with --depth.
    maxDurationMs: values["max-duration"] ?? Math.round(runDefault("max-duration") * Math.max(1, depth)),
    ...(values.seed === undefined ? {} : { seed: values.seed }),
    ...(values.path === undefined ? {} : { replayPath: values.path }),
    depth,
    ...(values["rate-limit"] === undefined ? {} : { rateLimit: values["rate-limit"] }),
    ...(values.load === undefined
      ? {}
      : { load: { clients: values.load, durationMs: (values["load-duration"] ?? runDefault("load-duration")) * 1000 } }),
    concurrency: values.concurrency ?? runDefault("concurrency"),
    ...(values.concurrency === undefined ? {} : { concurrencyGiven: true }),
    ...(values.workers === undefined ? {} : { workers: values.workers }),
    ...(clockToleranceMs === undefined ? {} : { clockToleranceMs }),
    quiet: values.quiet === true,
    ...(values["write-baseline"] === undefined ? {} : { writeBaseline: values["write-baseline"] }),
    ...(values.format === undefined ? {} : { format: values.format }),
    ...(values["junit-per-check"] === true ? { junitPerCheck: true as const } : {}),
    ...(values["compare-to"] === undefined ? {} : { compareTo: values["compare-to"] }),
    ...(values["compare-fixtures"] === undefined ? {} : { compareFixtures: values["compare-fixtures"] }),
    ...(values["fail-on-diff"] === true ? { failOnDiff: true as const } : {}),
    ...(values.record === true ? { record: true as const } : {}),
  };
}
