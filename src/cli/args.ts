// The flags of `ledger-conformance` (the README lists them), parsed with node:util parseArgs. Any
// problem is a UsageError: the command prints it with the usage text and exits 2.

import { parseArgs } from "node:util";
import { ConfigurationError } from "../harness/configuration-error.ts";
import {
  CLOCK_TOLERANCE_ENV,
  CLOCK_TOLERANCE_FLAG,
  DEFAULT_CONCURRENCY,
  DEFAULT_TIMEOUT_MS,
  isProfileName,
  LOOPBACK_CLOCK_TOLERANCE_MS,
  REMOTE_CLOCK_TOLERANCE_MS,
  type ProfileName,
} from "../harness/config.ts";
import type { SecretHeaders } from "../harness/secrets.ts";
import { CONFIG_FILE_NAME, configFilePath, loadConfigFile } from "./config-file.ts";
import { HeaderError, mergeHeaders, parseHeaderFlag } from "./request-headers.ts";

export const USAGE = `usage: ledger-conformance [options]
       ledger-conformance merge [--report-dir OUT] DIR...   one matrix report from runs made elsewhere
  --target URL          base URL of the node, including /v1 (default: start the reference node in-process);
                        repeat it to check a fleet of nodes at once, with one requirement-by-node matrix
  --targets FILE        a fleet as JSON: {"targets": [{"name", "url", "fixtures"?, "profile"?}, ...]}
  --fixtures FILE       fixtures JSON (see the README); LEDGER_CONFORMANCE_ACCOUNTS may hold the accounts instead
  --report-dir DIR      where summary.json, junit.xml and html/ go (default reports)
  --profile NAME        node (X-NODE-, application/x.node.signed_transaction+bcs; default) or aptos
  --header-prefix P     ledger-state header prefix, overriding the profile's (e.g. X-NODE-)
  --header "N: V"       sent on every request (repeatable), e.g. a gateway's token; every value is a
                        secret, *** in every report; \${VAR} in it (single-quoted) is read from the
                        environment, keeping the token off the command line
  --allow-submit        let checks submit transactions to a target that is not on loopback
  --only PATTERN        run only suite files whose path contains PATTERN, else checks whose name does
                        (repeatable: the union)
  --skip PATTERN        leave out what PATTERN matches, by the same rule (repeatable); reported not selected
  --level must|all      must: run MUST requirements only, SHOULD ones reported not run (default all)
  --baseline FILE       expected failures (requirement ids); a listed id that passes fails the run
  --write-baseline FILE write the MUST ids that failed, each under its first message, in --baseline's form
  --format FORMAT       console (default) or markdown: the verdict and the requirement table as markdown
                        on stdout, for a CI job summary (progress goes to stderr); every run also writes
                        summary.md in the report directory
  --junit-per-check     junit.xml with one test case per check instead of one per requirement
  --timeout MS          per-request timeout: connect, headers, body and the whole exchange (default ${DEFAULT_TIMEOUT_MS})
  --max-duration MS     cap on the whole run (default 300000, 5 minutes, times --depth); when it ends the
                        run, the reports are written and the checks that did not run are skipped
  --seed N              fast-check seed for properties
  --path P              fast-check replay path (with --seed and --only ID) of one failing case
  --depth N             multiplies property runs (default 1)
  --rate-limit RPS      at most RPS requests per second (runs one worker)
  --concurrency N       at most N requests in flight to the target at once (default ${DEFAULT_CONCURRENCY});
                        independent checks and property cases run concurrently up to it
  --workers N           worker threads running the suite files (default: one on loopback, where the
                        run is bound by CPU; four when it waits on the network; never more than
                        --concurrency, one under --rate-limit)
  ${CLOCK_TOLERANCE_FLAG} MS  how far the node's clock may be from this machine's when health thresholds
                        are judged (default: ${LOOPBACK_CLOCK_TOLERANCE_MS} on loopback, ${REMOTE_CLOCK_TOLERANCE_MS} otherwise; or ${CLOCK_TOLERANCE_ENV})
  --compare-to URL      after the suite, read the same data from this node too, at one ledger version
                        both retain, and report where the answers differ (summary.json differences[])
  --compare-fixtures FILE  fixtures of the --compare-to node; its accounts, module and table are read too
  --fail-on-diff        a difference found by --compare-to fails the run (exit 1)
  --record              keep every exchange of the run in DIR/exchanges.jsonl (for ledger-conformance diff)
  --config FILE         read flags from FILE (default ./${CONFIG_FILE_NAME} when it exists);
                        the flags given here override it
  --quiet               no progress lines, only the final table
  --help                print this text
  --version             print the package version
subcommands: ledger-conformance diff RUN_A RUN_B (two recorded runs); ledger-conformance proxy --upstream
URL --port P (judges live traffic); each with --help
examples:
  ledger-conformance                                           (the reference node, in-process)
  ledger-conformance --target http://127.0.0.1:8080/v1 --fixtures fixtures.json
  ledger-conformance --target https://node.example/v1 --header 'Authorization: Bearer \${NODE_TOKEN}'
  ledger-conformance --only get-table-item --only healthy      (two suite files)
  ledger-conformance --skip properties/ --level must           (a fast MUST-only gate)
  ledger-conformance --baseline known-failures.txt             (listed failures do not fail the gate)
  ${CONFIG_FILE_NAME}: {"target": "https://node.example/v1", "fixtures": "fixtures.json",
    "headers": {"Authorization": "Bearer \${NODE_TOKEN}"}, "baseline": "known-failures.txt"}
exit status: 0 every MUST holds; 1 some MUST failed (or a baseline entry passed, or the run was cut
short by --max-duration); 2 usage or configuration error, or the target cannot be tested at all
(unreachable, not HTTP, or it requires authentication); 130/143 stopped by SIGINT/SIGTERM (the reports
are written first)`;

/** The default cap on a run at --depth 1: the whole suite takes about 16 s against a node on loopback. */
export const DEFAULT_MAX_DURATION_MS = 300_000;

export class UsageError extends ConfigurationError {
  override readonly name = "UsageError";
}

export interface ConformanceArgs {
  /** The one --target, or the first of several. */
  readonly target?: string;
  /** --target given more than once: every URL, in order (a fleet run, src/fleet/run.ts). */
  readonly fleet?: readonly string[];
  /** --targets FILE: a fleet described by a file (src/fleet/targets.ts). */
  readonly targetsFile?: string;
  readonly fixtures?: string;
  readonly reportDir: string;
  readonly profile: ProfileName;
  readonly headerPrefix?: string;
  readonly allowSubmit: boolean;
  /** --only patterns (their union); empty: every check. */
  readonly only: readonly string[];
  /** --skip patterns. */
  readonly skip: readonly string[];
  readonly level: "all" | "must";
  /** --header (and the config file's headers): names lower case, values secret. */
  readonly secretHeaders: SecretHeaders;
  /** The config file the flags were read from, if any. */
  readonly configFile?: string;
  readonly baseline?: string;
  readonly timeoutMs: number;
  readonly maxDurationMs: number;
  readonly seed?: number;
  readonly replayPath?: string;
  readonly depth: number;
  readonly rateLimit?: number;
  /** --concurrency: requests in flight to the target at once, over the whole run. */
  readonly concurrency: number;
  /** --workers: worker threads for the suite files; undefined: the run chooses (src/run/workers.ts). */
  readonly workers?: number;
  /** --clock-tolerance, else the environment variable; undefined: the default for the target. */
  readonly clockToleranceMs?: number;
  readonly quiet: boolean;
  /** --write-baseline: where to write the failed MUST ids as a baseline. */
  readonly writeBaseline?: string;
  /** What stdout gets at the end: the console table (when absent), or the markdown summary. */
  readonly format?: ReportFormat;
  /** junit.xml with one case per check rather than per requirement. */
  readonly junitPerCheck?: true;
  /** --compare-to: the node the differential mode reads from besides the target. */
  readonly compareTo?: string;
  readonly compareFixtures?: string;
  /** Present (true) only when given, like the other members of the differential and record modes. */
  readonly failOnDiff?: true;
  /** --record: every exchange kept in the report directory. */
  readonly record?: true;
}

export const REPORT_FORMATS = ["console", "markdown"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function parseConformanceArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ConformanceArgs | "help" | "version" {
  try {
    return parseWithConfigFile(argv, env, cwd);
  } catch (e) {
    // A bad --header is a usage problem like a bad flag (a bad config file is a ConfigFileError: its message, exit 2).
    if (e instanceof HeaderError) throw new UsageError(e.message);
    throw e;
  }
}

function parseWithConfigFile(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): ConformanceArgs | "help" | "version" {
  let flags;
  try {
    ({ values: flags } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        target: { type: "string", multiple: true },
        targets: { type: "string" },
        fixtures: { type: "string" },
        "report-dir": { type: "string" },
        profile: { type: "string" },
        "header-prefix": { type: "string" },
        header: { type: "string", multiple: true },
        "allow-submit": { type: "boolean" },
        only: { type: "string", multiple: true },
        skip: { type: "string", multiple: true },
        level: { type: "string" },
        config: { type: "string" },
        baseline: { type: "string" },
        timeout: { type: "string" },
        "max-duration": { type: "string" },
        seed: { type: "string" },
        path: { type: "string" },
        depth: { type: "string" },
        "rate-limit": { type: "string" },
        concurrency: { type: "string" },
        workers: { type: "string" },
        "clock-tolerance": { type: "string" },
        quiet: { type: "boolean" },
        "write-baseline": { type: "string" },
        format: { type: "string" },
        "junit-per-check": { type: "boolean" },
        "compare-to": { type: "string" },
        "compare-fixtures": { type: "string" },
        "fail-on-diff": { type: "boolean" },
        record: { type: "boolean" },
        help: { type: "boolean" },
        version: { type: "boolean" },
      },
    }));
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
  const secretHeaders = mergeHeaders(fromFile?.headers ?? [], (flags.header ?? []).map((h) => parseHeaderFlag(h, env)));
  const level = values.level ?? "all";
  if (level !== "all" && level !== "must") throw new UsageError(`--level must be must or all, got '${level}'`);
  for (const flag of ["only", "skip"] as const) {
    if (values[flag]?.some((p) => p === "")) throw new UsageError(`--${flag} needs a non-empty pattern`);
  }
  const profile = values.profile ?? "node";
  if (!isProfileName(profile)) throw new UsageError(`--profile must be node or aptos, got '${profile}'`);
  // --target on the command line is a list (repeated: a fleet); a config file's target is one URL.
  const targetUrls = ([] as string[]).concat(values.target ?? []);
  for (const url of targetUrls) checkTargetUrl("--target", url);
  if (flags.targets !== undefined && flags.target !== undefined) throw new UsageError("--targets FILE names every target: give it or --target, not both");
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
  if (format !== undefined && !(REPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be ${REPORT_FORMATS.join(" or ")}, got '${format}'`);
  if (values.path !== undefined && values.seed === undefined) throw new UsageError("--path needs --seed");
  const depth = positiveNumber("depth", values.depth) ?? 1;
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
    reportDir: values["report-dir"] ?? "reports",
    profile,
    ...(values["header-prefix"] === undefined ? {} : { headerPrefix: values["header-prefix"] }),
    allowSubmit: values["allow-submit"] === true,
    only: values.only ?? [],
    skip: values.skip ?? [],
    level,
    secretHeaders,
    ...(configFile === undefined ? {} : { configFile }),
    ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
    timeoutMs: positiveInteger("timeout", values.timeout) ?? DEFAULT_TIMEOUT_MS,
    maxDurationMs: positiveInteger("max-duration", values["max-duration"]) ?? Math.round(DEFAULT_MAX_DURATION_MS * Math.max(1, depth)),
    ...(values.seed === undefined ? {} : { seed: integer("seed", values.seed) }),
    ...(values.path === undefined ? {} : { replayPath: values.path }),
    depth,
    ...(values["rate-limit"] === undefined ? {} : { rateLimit: positiveNumber("rate-limit", values["rate-limit"]) as number }),
    concurrency: positiveInteger("concurrency", values.concurrency) ?? DEFAULT_CONCURRENCY,
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

/** An http or https URL, or a UsageError naming where it came from. */
export function checkTargetUrl(source: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source} must be a URL such as http://127.0.0.1:8080/v1, got '${value}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${source} must be http or https, got '${url.protocol}'`);
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
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`${name} needs a whole number of milliseconds, got '${value}'`);
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
