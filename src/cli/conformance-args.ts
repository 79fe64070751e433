// The flags of `ledger-conformance` (design §3 and issue 3), parsed with node:util parseArgs. Any
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

export const USAGE = `usage: ledger-conformance [options]
  --target URL          base URL of the node, including /v1 (default: start the reference node in-process)
  --fixtures FILE       fixtures JSON (design §3); LEDGER_CONFORMANCE_ACCOUNTS may hold the accounts instead
  --report-dir DIR      where summary.json, junit.xml and html/ go (default reports)
  --profile NAME        node (X-NODE-, application/x.node.signed_transaction+bcs; default) or aptos
  --header-prefix P     ledger-state header prefix, overriding the profile's (e.g. X-NODE-)
  --allow-submit        let checks submit transactions to a target that is not on loopback
  --only PATTERN        run only suite files whose path contains PATTERN, else checks whose name does
  --baseline FILE       expected failures (requirement ids); a listed id that passes fails the run
  --timeout MS          per-request timeout: connect, headers, body and the whole exchange (default ${DEFAULT_TIMEOUT_MS})
  --max-duration MS     cap on the whole run (default 300000, 5 minutes, times --depth); when it ends the
                        run, the reports are written and the checks that did not run are skipped
  --seed N              fast-check seed for properties
  --path P              fast-check replay path (with --seed and --only ID) of one failing case
  --depth N             multiplies property runs (default 1)
  --rate-limit RPS      at most RPS requests per second (runs one worker)
  --concurrency N       at most N requests in flight to the target at once (default ${DEFAULT_CONCURRENCY});
                        independent checks and property cases run concurrently up to it
  ${CLOCK_TOLERANCE_FLAG} MS  how far the node's clock may be from this machine's when health thresholds
                        are judged (default: ${LOOPBACK_CLOCK_TOLERANCE_MS} on loopback, ${REMOTE_CLOCK_TOLERANCE_MS} otherwise; or ${CLOCK_TOLERANCE_ENV})
  --quiet               no progress lines, only the final table
  --help                print this text
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
  readonly target?: string;
  readonly fixtures?: string;
  readonly reportDir: string;
  readonly profile: ProfileName;
  readonly headerPrefix?: string;
  readonly allowSubmit: boolean;
  readonly only?: string;
  readonly baseline?: string;
  readonly timeoutMs: number;
  readonly maxDurationMs: number;
  readonly seed?: number;
  readonly replayPath?: string;
  readonly depth: number;
  readonly rateLimit?: number;
  /** --concurrency: requests in flight to the target at once, over the whole run. */
  readonly concurrency: number;
  /** --clock-tolerance, else the environment variable; undefined: the default for the target. */
  readonly clockToleranceMs?: number;
  readonly quiet: boolean;
}

export function parseConformanceArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ConformanceArgs | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        target: { type: "string" },
        fixtures: { type: "string" },
        "report-dir": { type: "string" },
        profile: { type: "string" },
        "header-prefix": { type: "string" },
        "allow-submit": { type: "boolean" },
        only: { type: "string" },
        baseline: { type: "string" },
        timeout: { type: "string" },
        "max-duration": { type: "string" },
        seed: { type: "string" },
        path: { type: "string" },
        depth: { type: "string" },
        "rate-limit": { type: "string" },
        concurrency: { type: "string" },
        "clock-tolerance": { type: "string" },
        quiet: { type: "boolean" },
        help: { type: "boolean" },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help) return "help";
  const profile = values.profile ?? "node";
  if (!isProfileName(profile)) throw new UsageError(`--profile must be node or aptos, got '${profile}'`);
  if (values.target !== undefined) {
    let url: URL;
    try {
      url = new URL(values.target);
    } catch {
      throw new UsageError(`--target must be a URL such as http://127.0.0.1:8080/v1, got '${values.target}'`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--target must be http or https, got '${url.protocol}'`);
  }
  if (values["header-prefix"] !== undefined && !/^[A-Za-z0-9-]+$/.test(values["header-prefix"])) {
    throw new UsageError(`--header-prefix must be letters, digits and dashes, got '${values["header-prefix"]}'`);
  }
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
    ...(values.target === undefined ? {} : { target: values.target }),
    ...(values.fixtures === undefined ? {} : { fixtures: values.fixtures }),
    reportDir: values["report-dir"] ?? "reports",
    profile,
    ...(values["header-prefix"] === undefined ? {} : { headerPrefix: values["header-prefix"] }),
    allowSubmit: values["allow-submit"] === true,
    ...(values.only === undefined ? {} : { only: values.only }),
    ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
    timeoutMs: positiveInteger("timeout", values.timeout) ?? DEFAULT_TIMEOUT_MS,
    maxDurationMs: positiveInteger("max-duration", values["max-duration"]) ?? Math.round(DEFAULT_MAX_DURATION_MS * Math.max(1, depth)),
    ...(values.seed === undefined ? {} : { seed: integer("seed", values.seed) }),
    ...(values.path === undefined ? {} : { replayPath: values.path }),
    depth,
    ...(values["rate-limit"] === undefined ? {} : { rateLimit: positiveNumber("rate-limit", values["rate-limit"]) as number }),
    concurrency: positiveInteger("concurrency", values.concurrency) ?? DEFAULT_CONCURRENCY,
    ...(clockToleranceMs === undefined ? {} : { clockToleranceMs }),
    quiet: values.quiet === true,
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
