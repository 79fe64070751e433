// Every flag of every command, in one table: each command's parser takes its options from it, each
// command's --help is generated from it (usage.ts), and so is the README's flag reference
// (scripts/flags-doc.ts writes it between the README's flags markers; a test fails when they differ).
// A run's rows also say how their value is read (kind) and which config file member sets them: the
// run's parse (run-flag-values.ts), its values' types and the config file's schema (config-schema.ts)
// derive from them. A flag whose meaning differs between commands (--report-dir, --profile,
// --timeout…) has a row per meaning, each naming the commands it belongs to.

import { REPORT_FORMATS } from "../../reporters/report-format.ts";
import {
  CLOCK_TOLERANCE_ENV,
  CLOCK_TOLERANCE_FLAG,
  DEFAULT_CONCURRENCY,
  DEFAULT_TIMEOUT_MS,
  LOOPBACK_CLOCK_TOLERANCE_MS,
  REMOTE_CLOCK_TOLERANCE_MS,
} from "../harness/config.ts";

/** The config file a run reads from its working directory when it exists (config-file.ts). */
export const CONFIG_FILE_NAME = "ledger-conformance.config.json";

/** The commands: ledger-conformance's run (no subcommand) and its subcommands, and ledger-node. */
export const COMMANDS = ["run", "diff", "merge", "proxy", "node"] as const;
export type Command = (typeof COMMANDS)[number];

/**
 * How a run reads a flag's value (run-flag-values.ts), and what JSON its config file member takes (config-schema.ts).
 * switch: given or not; text: any non-empty string (of `form` when given); path: a file or folder (in the config
 * file, relative to the file's directory); url: an http(s) URL; urls, patterns (non-empty), texts: repeatable, every
 * value counts; positive-integer, positive-number, integer32 (a signed 32-bit integer), milliseconds (a whole number,
 * 0 allowed); choice: one of `choices`.
 */
export type FlagKind =
  | "switch"
  | "text"
  | "path"
  | "url"
  | "urls"
  | "patterns"
  | "texts"
  | "positive-integer"
  | "positive-number"
  | "integer32"
  | "milliseconds"
  | "choice";

export interface Flag {
  /** Without the leading dashes. */
  readonly name: string;
  /** What the value stands for in the usage (URL, FILE, MS…); absent: a switch, given or not. */
  readonly value?: string;
  readonly commands: readonly Command[];
  /** Given more than once, every value counts. */
  readonly repeatable?: true;
  /** The value when the flag is not given, as the parser takes it; `{default}` in the description stands for it. */
  readonly default?: string;
  /** The usage's text, a line each (the usage breaks it there; the README joins the lines). */
  readonly description: readonly string[];
  /** The README's longer text (markdown), when the usage's says too little for a reference. */
  readonly readme?: string;
  /** How the value is read; every run flag has one (the other commands parse their own). */
  readonly kind?: FlagKind;
  /** A choice's values, in the order its error message names them. */
  readonly choices?: readonly string[];
  /** A text's form: the pattern it matches and how its error message says that. */
  readonly form?: { readonly pattern: string; readonly says: string };
  /** The config file member that sets the flag (its name in camelCase); absent: the file cannot set it. */
  readonly configMember?: string;
}

/** A flag's name from the dashed form other modules hold (`--clock-tolerance`), its literal type kept. */
function withoutDashes<N extends string>(flag: `--${N}`): N {
  return flag.slice(2) as N;
}

/** The default of the whole run's cap at --depth 1: the whole suite takes a few seconds against a node on loopback. */
export const DEFAULT_MAX_DURATION_MS = 300_000;

// `as const`: the run's values' types and its config file's members are derived from the rows (run-flag-values.ts).
const FLAG_ROWS = [
  {
    name: "target",
    value: "URL",
    commands: ["run"],
    kind: "urls",
    repeatable: true,
    description: [
      "base URL of the node, including /v1 (default: start the reference node in-process);",
      "repeat it to check a fleet of nodes at once, with one requirement-by-node matrix",
    ],
    readme:
      "base URL of the node, including `/v1`. Without it the suite starts the reference node in-process (on a thread of its own, blocks every 100 ms) on a free loopback port, with its own fixtures, and stops it at the end. Repeated, a fleet of nodes checked at once, with one requirement-by-node matrix.",
  },
  {
    name: "targets",
    value: "FILE",
    commands: ["run"],
    kind: "path",
    description: ['a fleet as JSON: {"targets": [{"name", "url", "fixtures"?, "profile"?}, ...]}'],
  },
  {
    name: "fixtures",
    value: "FILE",
    commands: ["run"],
    kind: "path",
    configMember: "fixtures",
    description: ["fixtures JSON (see the README); LEDGER_CONFORMANCE_ACCOUNTS may hold the accounts instead"],
    readme:
      "what the suite may use on your chain (below). Checks whose fixture is missing are reported `not_applicable` with the member they needed, never passed. `LEDGER_CONFORMANCE_ACCOUNTS` may hold the accounts instead.",
  },
  {
    name: "report-dir",
    value: "DIR",
    commands: ["run"],
    kind: "path",
    configMember: "reportDir",
    default: "reports",
    description: ["where summary.json, junit.xml and html/ go (default {default})"],
    readme: "where `summary.json`, `junit.xml` and `html/index.html` go (default `reports/`).",
  },
  {
    name: "profile",
    value: "NAME",
    commands: ["run"],
    kind: "choice",
    choices: ["node", "aptos"],
    configMember: "profile",
    default: "node",
    description: ["node (X-NODE-, application/x.node.signed_transaction+bcs; default) or aptos"],
    readme:
      "`node` (default): `X-NODE-` headers and `application/x.node.signed_transaction+bcs`; `aptos`: `X-APTOS-` and `application/x.aptos.signed_transaction+bcs`.",
  },
  {
    name: "header-prefix",
    value: "P",
    commands: ["run"],
    kind: "text",
    form: { pattern: "^[A-Za-z0-9-]+$", says: "letters, digits and dashes" },
    configMember: "headerPrefix",
    description: ["ledger-state header prefix, overriding the profile's (e.g. X-NODE-)"],
    readme: "overrides the profile's header prefix.",
  },
  {
    name: "header",
    value: '"N: V"',
    commands: ["run"],
    kind: "texts",
    repeatable: true,
    description: [
      "sent on every request (repeatable), e.g. a gateway's token; every value is a",
      "secret, *** in every report; ${VAR} in it (single-quoted) is read from the",
      "environment, keeping the token off the command line",
    ],
    readme:
      "sent on every request (repeatable), for a node behind a gateway that wants credentials. `${VAR}` in the value, single-quoted so that the shell leaves it, is read from the environment (`--header 'Authorization: Bearer ${NODE_TOKEN}'`), which keeps the token out of the command line and the process list. Every value is a secret: `***` in every curl line, failure message, report and console line. Headers the suite sets itself (`Host`, `Content-Length`, `Transfer-Encoding`, `Connection`, `Accept`, `Content-Type`, …) are refused (exit 2).",
  },
  {
    name: "allow-submit",
    commands: ["run"],
    kind: "switch",
    configMember: "allowSubmit",
    description: ["let checks submit transactions to a target that is not on loopback"],
    readme:
      "lets checks submit transactions that could be accepted to a target that is not on loopback. Without it the suite is read-only against remote nodes.",
  },
  {
    name: "only",
    value: "PATTERN",
    commands: ["run"],
    kind: "patterns",
    configMember: "only",
    repeatable: true,
    description: ["run only suite files whose path contains PATTERN, else checks whose name does", "(repeatable: the union)"],
    readme: "only suite files whose path contains PATTERN, else checks whose name does. Repeated, the union.",
  },
  {
    name: "skip",
    value: "PATTERN",
    commands: ["run"],
    kind: "patterns",
    configMember: "skip",
    repeatable: true,
    description: ["leave out what PATTERN matches, by the same rule (repeatable); reported not selected"],
    readme: "leaves out what PATTERN matches, by the same rule (repeatable); reported `skipped`, not selected.",
  },
  {
    name: "level",
    value: "must|all",
    commands: ["run"],
    kind: "choice",
    choices: ["must", "all"],
    configMember: "level",
    default: "all",
    description: ["must: run MUST requirements only, SHOULD ones reported not run (default {default})"],
    readme: 'must: runs the MUST requirements only; SHOULD ones are reported `skipped`, "not run: --level must" (default `all`).',
  },
  {
    name: "baseline",
    value: "FILE",
    commands: ["run"],
    kind: "path",
    configMember: "baseline",
    description: ["expected failures (requirement ids); a listed id that passes fails the run"],
    readme:
      "expected failures (requirement ids, one a line or a JSON array): they do not fail the gate, and a listed id that starts passing does. An id renamed or merged since keeps working: `schemas/requirement-aliases.yaml` maps it to the id that holds its requirement now.",
  },
  {
    name: "write-baseline",
    value: "FILE",
    commands: ["run"],
    kind: "path",
    configMember: "writeBaseline",
    description: ["write the MUST ids that failed, each under its first message, in --baseline's form"],
    readme:
      "writes the MUST ids that failed, each under a comment with its first failure message, in the form `--baseline` reads: the start of a baseline for a node with known deviations. A run that did not run to its end writes none.",
  },
  {
    name: "format",
    value: "FORMAT",
    commands: ["run"],
    kind: "choice",
    choices: REPORT_FORMATS,
    configMember: "format",
    default: "console",
    description: [
      "console (default) or markdown: the verdict and the requirement table as markdown",
      "on stdout, for a CI job summary (progress goes to stderr); every run also writes",
      "summary.md in the report directory",
    ],
    readme:
      "what stdout gets at the end: the console table (`console`, default), or the markdown of `summary.md` (the verdict and the requirement table) for a CI job summary (`markdown`); progress then goes to stderr. Every run writes `summary.md` in the report directory.",
  },
  {
    name: "junit-per-check",
    commands: ["run"],
    kind: "switch",
    configMember: "junitPerCheck",
    description: ["junit.xml with one test case per check instead of one per requirement"],
  },
  {
    name: "timeout",
    value: "MS",
    commands: ["run"],
    kind: "positive-integer",
    configMember: "timeout",
    default: String(DEFAULT_TIMEOUT_MS),
    description: ["per-request timeout: connect, headers, body and the whole exchange (default {default})"],
  },
  {
    name: "max-duration",
    value: "MS",
    commands: ["run"],
    kind: "positive-integer",
    configMember: "maxDuration",
    default: String(DEFAULT_MAX_DURATION_MS),
    description: [
      "cap on the whole run (default {default}, 5 minutes, times --depth); when it ends the",
      "run, the reports are written and the checks that did not run are skipped",
    ],
    readme:
      "bound the whole run (default 300000, 5 minutes, times `--depth`). When it ends a run, the reports are still written and every check that did not run is `skipped` with reason `max duration reached`; the run exits 1.",
  },
  { name: "seed", value: "N", commands: ["run"], kind: "integer32", description: ["fast-check seed for properties"] },
  {
    name: "path",
    value: "P",
    commands: ["run"],
    kind: "text",
    description: ["fast-check replay path (with --seed and --only ID) of one failing case"],
  },
  {
    name: "depth",
    value: "N",
    commands: ["run"],
    kind: "positive-number",
    configMember: "depth",
    default: "1",
    description: ["multiplies property runs (default {default})"],
  },
  {
    name: "rate-limit",
    value: "RPS",
    commands: ["run"],
    kind: "positive-number",
    configMember: "rateLimit",
    description: ["at most RPS requests per second, over all the workers"],
  },
  {
    name: "load",
    value: "N",
    commands: ["run"],
    kind: "positive-integer",
    configMember: "load",
    description: [
      "check the laws under load: N concurrent clients read, each on connections of its own,",
      "while writers submit (where submissions are allowed)",
    ],
    readme:
      "check the laws under load (`properties/under-load.test.ts`): N concurrent clients read, each on connections of its own, for `--load-duration` seconds, while writers submit transfers and publish small modules at their own accounts where submissions are allowed (the embedded node, a loopback target, or `--allow-submit`). Every answer is checked against the contract as usual, and the run reports its load profile. Without it the laws under load are not applicable.",
  },
  {
    name: "load-duration",
    value: "SECONDS",
    commands: ["run"],
    kind: "positive-integer",
    configMember: "loadDuration",
    default: "10",
    description: ["how long the load of --load lasts (default {default})"],
  },
  {
    name: "concurrency",
    value: "N",
    commands: ["run"],
    kind: "positive-integer",
    configMember: "concurrency",
    default: String(DEFAULT_CONCURRENCY),
    description: [
      "at most N requests in flight to the target at once (default {default}, 48 when",
      "the run waits on the network); independent checks and property cases run",
      "concurrently up to it",
    ],
    readme:
      "at most N requests in flight at once (default 16, 48 when the run waits on the network; independent checks and property cases run concurrently up to it), over all the workers: each has one slot of its own and shares the rest with the others, so that a worker whose checks go one request at a time never waits behind another's many.",
  },
  {
    name: "workers",
    value: "N",
    commands: ["run"],
    kind: "positive-integer",
    description: [
      "worker threads running the suite files (default: two on loopback, where the",
      "run is bound by CPU, or a core less than the machine has; six when it waits",
      "on the network; never more than --concurrency)",
    ],
    readme:
      "worker threads running the suite files (default on loopback, where a run is bound by CPU, a core less than the machine has and at least two: one runs the reads while another's submissions wait on blocks; six when it waits on the network; never more than `--concurrency`). Under `--rate-limit` the workers keep to the one rate together. A loopback target whose answers to `GET /-/healthy` are slow (a proxy, a tunnel) counts as waiting on the network.",
  },
  {
    name: withoutDashes(CLOCK_TOLERANCE_FLAG),
    value: "MS",
    commands: ["run"],
    kind: "milliseconds",
    configMember: "clockTolerance",
    description: [
      "how far the node's clock may be from this machine's when health thresholds",
      `are judged (default: ${LOOPBACK_CLOCK_TOLERANCE_MS} on loopback, ${REMOTE_CLOCK_TOLERANCE_MS} otherwise; or ${CLOCK_TOLERANCE_ENV})`,
    ],
    readme: `how far your node's clock may be from the machine running the suite when §4.7 health thresholds are judged (default ${LOOPBACK_CLOCK_TOLERANCE_MS} on loopback, ${REMOTE_CLOCK_TOLERANCE_MS} otherwise; or \`${CLOCK_TOLERANCE_ENV}\`). An answer that depends on clocks within the tolerance is asserted neither way.`,
  },
  {
    name: "compare-to",
    value: "URL",
    commands: ["run"],
    kind: "url",
    configMember: "compareTo",
    description: [
      "after the suite, read the same data from this node too, at one ledger version",
      "both retain, and report where the answers differ (summary.json differences[])",
    ],
  },
  {
    name: "compare-fixtures",
    value: "FILE",
    commands: ["run"],
    kind: "path",
    configMember: "compareFixtures",
    description: ["fixtures of the --compare-to node; its accounts, module and table are read too"],
  },
  {
    name: "fail-on-diff",
    commands: ["run"],
    kind: "switch",
    configMember: "failOnDiff",
    description: ["a difference found by --compare-to fails the run (exit 1)"],
  },
  {
    name: "record",
    commands: ["run"],
    kind: "switch",
    configMember: "record",
    description: ["keep every exchange of the run in DIR/exchanges.jsonl (for ledger-conformance diff)"],
  },
  {
    name: "config",
    value: "FILE",
    commands: ["run"],
    kind: "path",
    description: [`read flags from FILE (default ./${CONFIG_FILE_NAME} when it exists);`, "the flags given here override it"],
    readme: `reads the flags from FILE instead of \`./${CONFIG_FILE_NAME}\` (below); the flags given on the command line override it.`,
  },
  { name: "quiet", commands: ["run"], kind: "switch", description: ["no progress lines, only the final table"] },

  {
    name: "report-dir",
    value: "DIR",
    commands: ["diff"],
    default: "reports-diff",
    description: ["where diff.json and diff.html go (default {default})"],
  },
  {
    name: "report-dir",
    value: "OUT",
    commands: ["merge"],
    default: "reports",
    description: ["where the matrix's summary.json and html/ go (default {default})"],
  },

  {
    name: "upstream",
    value: "URL",
    commands: ["proxy"],
    description: ["the node's base URL including /v1; requests are forwarded to it unchanged"],
  },
  {
    name: "port",
    value: "P",
    commands: ["proxy"],
    default: "0",
    description: ["port to listen on, on 127.0.0.1 (default {default}: a free port, printed)"],
  },
  {
    name: "report-dir",
    value: "DIR",
    commands: ["proxy"],
    default: "reports-proxy",
    description: ["where summary.json, junit.xml and html/ go (default {default})"],
  },
  {
    name: "write-every",
    value: "S",
    commands: ["proxy"],
    default: "60",
    description: ["also write the reports every S seconds (default {default}; 0: only when stopped)"],
  },
  {
    name: "profile",
    value: "NAME",
    commands: ["proxy"],
    default: "node",
    description: ["node (default) or aptos: the header prefix the answers are judged with"],
  },
  { name: "header-prefix", value: "P", commands: ["proxy"], description: ["ledger-state header prefix, overriding the profile's"] },
  { name: "baseline", value: "FILE", commands: ["proxy"], description: ["expected failures (requirement ids), as for a run"] },
  {
    name: "timeout",
    value: "MS",
    commands: ["proxy"],
    default: String(DEFAULT_TIMEOUT_MS),
    description: ["per upstream exchange (default {default})"],
  },

  {
    name: "port",
    value: "N",
    commands: ["node"],
    default: "8080",
    description: ["port to listen on (default {default}; 0 picks a free port)"],
  },
  { name: "host", value: "H", commands: ["node"], default: "127.0.0.1", description: ["address to bind (default {default})"] },
  { name: "fixtures-out", value: "FILE", commands: ["node"], description: ["write the fixtures JSON to FILE before listening"] },
  { name: "fault", value: "NAME", commands: ["node"], repeatable: true, description: ["switch on a named fault (repeatable)"] },
  { name: "list-faults", commands: ["node"], description: ["print the faults, one a line (name, two spaces, description), and exit"] },
  { name: "seed", value: "TEXT", commands: ["node"], description: ["genesis seed (any non-empty string)"] },
  { name: "prune-window", value: "N", commands: ["node"], description: ["versions the pruner keeps"] },
  { name: "block-interval", value: "MS", commands: ["node"], description: ["block producer interval in milliseconds"] },
  { name: "mempool-capacity", value: "N", commands: ["node"], description: ["mempool capacity in transactions"] },
  { name: "genesis-versions", value: "N", commands: ["node"], description: ["number of genesis versions"] },
  { name: "body-limit", value: "BYTES", commands: ["node"], description: ["request body limit (default 8 MiB)"] },
  { name: "no-submit", commands: ["node"], description: ["refuse submissions (403 api_disabled)"] },
  {
    name: "header-prefix",
    value: "P",
    commands: ["node"],
    description: ["ledger-state header prefix (default per profile: X-NODE- or X-APTOS-)"],
  },
  { name: "profile", value: "NAME", commands: ["node"], default: "node", description: ["node (default) or aptos"] },

  { name: "help", commands: ["run", "diff", "merge", "proxy", "node"], kind: "switch", description: ["print this text"] },
  { name: "version", commands: ["run"], kind: "switch", description: ["print the package version"] },
] as const satisfies readonly Flag[];

export const FLAGS: readonly Flag[] = FLAG_ROWS;

/** The rows of a command's flags, as types: what its values' types are derived from. */
export type FlagRowOf<C extends Command> = RowsNaming<(typeof FLAG_ROWS)[number], C>;
type RowsNaming<R, C extends Command> = R extends { readonly commands: readonly (infer K)[] } ? (C extends K ? R : never) : never;

/** A command's flags, in the table's order. */
export function flagsOf(command: Command): Flag[] {
  return FLAGS.filter((f) => f.commands.includes(command));
}

/** A command's flag by name; throws for a flag the command does not have (a bug of the caller). */
export function flagOf(command: Command, name: string): Flag {
  const flag = FLAGS.find((f) => f.name === name && f.commands.includes(command));
  if (flag === undefined) throw new Error(`${command} has no flag --${name}`);
  return flag;
}

/** A command's default for a flag, as the parser takes it; throws when the table gives it none. */
export function defaultOf(command: Command, name: string): string {
  const value = flagOf(command, name).default;
  if (value === undefined) throw new Error(`--${name} of ${command} has no default`);
  return value;
}

/** node:util parseArgs options of a command's flags. */
export function parseOptionsOf(command: Command): Record<string, { type: "string" | "boolean"; multiple?: boolean }> {
  return Object.fromEntries(
    flagsOf(command).map((f) => [
      f.name,
      { type: f.value === undefined ? "boolean" : "string", ...(f.repeatable ? { multiple: true } : {}) },
    ]),
  );
}

/** The flag's description as the usage shows it, a line each, its default filled in. */
export function descriptionOf(flag: Flag): string[] {
  return flag.description.map((line) => line.replaceAll("{default}", flag.default ?? ""));
}
