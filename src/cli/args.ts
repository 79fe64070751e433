// The flags of a `ledger-conformance` run (the flag table's "run" rows, flags.ts), parsed with node:util parseArgs. Any
// problem is a UsageError: the command prints it with the usage text and exits 2.

import { parseArgs } from "node:util";
import { checkTargetUrl, UsageError } from "../harness/usage-error.ts";
import { REPORT_FORMATS, type ReportFormat } from "../../reporters/report-format.ts";
import { CLOCK_TOLERANCE_ENV, CLOCK_TOLERANCE_FLAG, isProfileName } from "../harness/config.ts";
import type { ConformanceArgs } from "../run/run-options.ts";
import { configFilePath, loadConfigFile } from "./config-file.ts";
import { defaultOf, parseOptionsOf } from "./flags.ts";
import { HeaderError, mergeHeaders, parseHeaderFlag } from "./request-headers.ts";
import { usageOf } from "./usage.ts";

export type { ConformanceArgs };

/** The run's --help (the flag table's "run" rows). */
export const USAGE = usageOf("run");

const RUN_OPTIONS = parseOptionsOf("run");

/** What parseArgs gives for the run's flags (RUN_OPTIONS): a repeatable flag's values as a list, a switch as true. */
interface RunFlagValues {
  target?: string[];
  targets?: string;
  fixtures?: string;
  "report-dir"?: string;
  profile?: string;
  "header-prefix"?: string;
  header?: string[];
  "allow-submit"?: boolean;
  only?: string[];
  skip?: string[];
  level?: string;
  config?: string;
  baseline?: string;
  timeout?: string;
  "max-duration"?: string;
  seed?: string;
  path?: string;
  depth?: string;
  "rate-limit"?: string;
  load?: string;
  "load-duration"?: string;
  concurrency?: string;
  workers?: string;
  "clock-tolerance"?: string;
  quiet?: boolean;
  "write-baseline"?: string;
  format?: string;
  "junit-per-check"?: boolean;
  "compare-to"?: string;
  "compare-fixtures"?: string;
  "fail-on-diff"?: boolean;
  record?: boolean;
  help?: boolean;
  version?: boolean;
}

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
  let flags: RunFlagValues;
  try {
    ({ values: flags } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: RUN_OPTIONS }) as {
      values: RunFlagValues;
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
  const fileFlags = { ...(fromFile?.flags as Partial<typeof flags> | undefined) };
  if (flags.target !== undefined || flags.targets !== undefined) {
    delete fileFlags.target;
    delete fileFlags.targets;
  }
  const values = { ...fileFlags, ...flags };
  const secretHeaders = mergeHeaders(
    fromFile?.headers ?? [],
    (flags.header ?? []).map((h) => parseHeaderFlag(h, env)),
  );
  const level = values.level ?? defaultOf("run", "level");
  if (level !== "all" && level !== "must") throw new UsageError(`--level must be must or all, got '${level}'`);
  for (const flag of ["only", "skip"] as const) {
    if (values[flag]?.some((p) => p === "")) throw new UsageError(`--${flag} needs a non-empty pattern`);
  }
  const profile = values.profile ?? defaultOf("run", "profile");
  if (!isProfileName(profile)) throw new UsageError(`--profile must be node or aptos, got '${profile}'`);
  // --target on the command line is a list (repeated: a fleet); a config file's target is one URL.
  const targetUrls = ([] as string[]).concat(values.target ?? []);
  for (const url of targetUrls) checkTargetUrl("--target", url);
  if (flags.targets !== undefined && flags.target !== undefined)
    throw new UsageError("--targets FILE names every target: give it or --target, not both");
  const [target, ...moreTargets] = targetUrls;
  if ((moreTargets.length > 0 || values.targets !== undefined) && values["write-baseline"] !== undefined) {
    throw new UsageError("--write-baseline writes one node's failures: give one --target");
  }
  if (values["compare-to"] !== undefined) checkTargetUrl("--compare-to", values["compare-to"]);
  if (values["compare-to"] === undefined && (values["compare-fixtures"] !== undefined || values["fail-on-diff"] === true)) {
    throw new UsageError("--compare-fixtures and --fail-on-diff need --compare-to");
  }
  if (values["header-prefix"] !== undefined && !/^[A-Za-z0-9-]+$/.test(values["header-prefix"])) {
    throw new UsageError(`--header-prefix must be letters, digits and dashes, got '${values["header-prefix"]}'`);
  }
  const format = values.format;
  if (format !== undefined && !(REPORT_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be ${REPORT_FORMATS.join(" or ")}, got '${format}'`);
  if (values.path !== undefined && values.seed === undefined) throw new UsageError("--path needs --seed");
  const depth = positiveNumber("depth", values.depth) ?? Number(defaultOf("run", "depth"));
  const envTolerance = env[CLOCK_TOLERANCE_ENV]?.trim();
  const clockToleranceMs =
    values["clock-tolerance"] !== undefined
      ? milliseconds(CLOCK_TOLERANCE_FLAG, values["clock-tolerance"])
      : envTolerance === undefined || envTolerance === ""
        ? undefined
        : milliseconds(CLOCK_TOLERANCE_ENV, envTolerance);
  return {
    ...(target === undefined ? {} : { target }),
    ...(moreTargets.length === 0 ? {} : { fleet: [target as string, ...moreTargets] }),
    ...(values.targets === undefined ? {} : { targetsFile: values.targets }),
    ...(values.fixtures === undefined ? {} : { fixtures: values.fixtures }),
    reportDir: values["report-dir"] ?? defaultOf("run", "report-dir"),
    profile,
    ...(values["header-prefix"] === undefined ? {} : { headerPrefix: values["header-prefix"] }),
    allowSubmit: values["allow-submit"] === true,
    only: values.only ?? [],
    skip: values.skip ?? [],
    level,
    secretHeaders,
    ...(configFile === undefined ? {} : { configFile }),
    ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
    timeoutMs: positiveInteger("timeout", values.timeout) ?? Number(defaultOf("run", "timeout")),
    maxDurationMs:
      positiveInteger("max-duration", values["max-duration"]) ?? Math.round(Number(defaultOf("run", "max-duration")) * Math.max(1, depth)),
    ...(values.seed === undefined ? {} : { seed: integer("seed", values.seed) }),
    ...(values.path === undefined ? {} : { replayPath: values.path }),
    depth,
    ...(values["rate-limit"] === undefined ? {} : { rateLimit: positiveNumber("rate-limit", values["rate-limit"]) as number }),
    ...(values.load === undefined
      ? {}
      : {
          load: {
            clients: positiveInteger("load", values.load) as number,
            durationMs: (positiveInteger("load-duration", values["load-duration"]) ?? Number(defaultOf("run", "load-duration"))) * 1000,
          },
        }),
    concurrency: positiveInteger("concurrency", values.concurrency) ?? Number(defaultOf("run", "concurrency")),
    ...(values.concurrency === undefined ? {} : { concurrencyGiven: true }),
    ...(values.workers === undefined ? {} : { workers: positiveInteger("workers", values.workers) as number }),
    ...(clockToleranceMs === undefined ? {} : { clockToleranceMs }),
    quiet: values.quiet === true,
    ...(values["write-baseline"] === undefined ? {} : { writeBaseline: values["write-baseline"] }),
    ...(format === undefined ? {} : { format: format as ReportFormat }),
    ...(values["junit-per-check"] === true ? { junitPerCheck: true as const } : {}),
    ...(values["compare-to"] === undefined ? {} : { compareTo: values["compare-to"] }),
    ...(values["compare-fixtures"] === undefined ? {} : { compareFixtures: values["compare-fixtures"] }),
    ...(values["fail-on-diff"] === true ? { failOnDiff: true as const } : {}),
    ...(values.record === true ? { record: true as const } : {}),
  };
}

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${flag} needs a positive integer, got '${value}'`);
  }
  return Number(value);
}

/** A whole number of milliseconds, 0 allowed; `name` is the flag or variable it came from. */
function milliseconds(name: string, value: string): number {
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`${name} needs a whole number of milliseconds, got '${value}'`);
  return Number(value);
}

function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^[0-9]*\.?[0-9]+$/.test(value) || !(n > 0)) throw new UsageError(`--${flag} needs a positive number, got '${value}'`);
  return n;
}

function integer(flag: string, value: string): number {
  if (!/^-?[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value)) || Math.abs(Number(value)) > 2 ** 31) {
    throw new UsageError(`--${flag} needs a 32-bit integer, got '${value}'`);
  }
  return Number(value);
}
