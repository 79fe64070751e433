// The committed gate: ledger-conformance.config.json in the working directory (or --config FILE)
// holds the flags a team runs with. It is validated against schemas/ledger-conformance.config.schema.json;
// relative paths resolve against the file's directory; header values name environment variables
// ("${NODE_TOKEN}" or "Bearer ${NODE_TOKEN}"), so that the committed file never holds a secret. The
// command's flags override what the file says.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { packagePath } from "../package-root.ts";
import { CONFIG_FILE_NAME } from "./flags.ts";
import { checkedHeader, expandEnv } from "./request-headers.ts";

export { CONFIG_FILE_NAME };
// Through packagePath: from the compiled package (dist/src/cli/) the schema is not two folders up.
const SCHEMA_PATH = packagePath("schemas", "ledger-conformance.config.schema.json");

export class ConfigFileError extends ConfigurationError {
  override readonly name = "ConfigFileError";
}

/** What the file says, as the flags it stands for (the names parseArgs gives them), and its headers. */
export interface ConfigFileSettings {
  readonly file: string;
  readonly flags: Readonly<Record<string, string | boolean | string[]>>;
  readonly headers: readonly { readonly name: string; readonly value: string }[];
}

/** The file named with --config, else the default name in `cwd` when it exists, else none. */
export function configFilePath(explicit: string | undefined, cwd: string): string | undefined {
  if (explicit !== undefined) return resolve(cwd, explicit);
  const found = join(cwd, CONFIG_FILE_NAME);
  return existsSync(found) ? found : undefined;
}

let validate: ReturnType<Ajv["compile"]> | undefined;

export function loadConfigFile(file: string, env: NodeJS.ProcessEnv): ConfigFileSettings {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ConfigFileError(`cannot read config file ${file}: ${(e as Error).message}`);
  }
  validate ??= new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(SCHEMA_PATH, "utf8")));
  if (!validate(value)) {
    // A oneOf reports each branch's own error too; its own message says it better.
    const problems = [...new Set((validate.errors ?? []).filter((e) => !e.schemaPath.includes("/oneOf/")).map(describeError))];
    throw new ConfigFileError(`config file ${file} is not valid:\n  ${problems.join("\n  ")}`);
  }
  const c = value as ConfigFileShape;
  const dir = dirname(file);
  const path = (p: string) => resolve(dir, p);
  const list = (p: string | string[]) => (typeof p === "string" ? [p] : p);
  const flags: Record<string, string | boolean | string[]> = {};
  if (c.target !== undefined) flags.target = c.target;
  if (c.fixtures !== undefined) flags.fixtures = path(c.fixtures);
  if (c.reportDir !== undefined) flags["report-dir"] = path(c.reportDir);
  if (c.profile !== undefined) flags.profile = c.profile;
  if (c.headerPrefix !== undefined) flags["header-prefix"] = c.headerPrefix;
  if (c.allowSubmit !== undefined) flags["allow-submit"] = c.allowSubmit;
  if (c.only !== undefined) flags.only = list(c.only);
  if (c.skip !== undefined) flags.skip = list(c.skip);
  if (c.level !== undefined) flags.level = c.level;
  if (c.baseline !== undefined) flags.baseline = path(c.baseline);
  if (c.timeout !== undefined) flags.timeout = String(c.timeout);
  if (c.maxDuration !== undefined) flags["max-duration"] = String(c.maxDuration);
  if (c.depth !== undefined) flags.depth = String(c.depth);
  if (c.rateLimit !== undefined) flags["rate-limit"] = String(c.rateLimit);
  if (c.load !== undefined) flags.load = String(c.load);
  if (c.loadDuration !== undefined) flags["load-duration"] = String(c.loadDuration);
  if (c.clockTolerance !== undefined) flags["clock-tolerance"] = String(c.clockTolerance);
  if (c.concurrency !== undefined) flags.concurrency = String(c.concurrency);
  if (c.format !== undefined) flags.format = c.format;
  if (c.junitPerCheck !== undefined) flags["junit-per-check"] = c.junitPerCheck;
  if (c.writeBaseline !== undefined) flags["write-baseline"] = path(c.writeBaseline);
  if (c.compareTo !== undefined) flags["compare-to"] = c.compareTo;
  if (c.compareFixtures !== undefined) flags["compare-fixtures"] = path(c.compareFixtures);
  if (c.failOnDiff !== undefined) flags["fail-on-diff"] = c.failOnDiff;
  if (c.record !== undefined) flags.record = c.record;
  // A list of URLs is --target repeated; a string is a targets file, --targets.
  if (typeof c.targets === "string") flags.targets = path(c.targets);
  else if (c.targets !== undefined) flags.target = c.targets;
  const headers = Object.entries(c.headers ?? {}).map(([name, template]) => {
    try {
      return checkedHeader(name, expandEnv(template, env, `${file}: headers.${name}`));
    } catch (e) {
      throw new ConfigFileError((e as Error).message.startsWith(file) ? (e as Error).message : `${file}: ${(e as Error).message}`);
    }
  });
  return { file, flags, headers };
}

interface ConfigFileShape {
  target?: string;
  fixtures?: string;
  reportDir?: string;
  profile?: string;
  headerPrefix?: string;
  allowSubmit?: boolean;
  only?: string | string[];
  skip?: string | string[];
  level?: string;
  baseline?: string;
  timeout?: number;
  maxDuration?: number;
  depth?: number;
  rateLimit?: number;
  load?: number;
  loadDuration?: number;
  clockTolerance?: number;
  concurrency?: number;
  format?: string;
  junitPerCheck?: boolean;
  writeBaseline?: string;
  compareTo?: string;
  compareFixtures?: string;
  failOnDiff?: boolean;
  record?: boolean;
  targets?: string | string[];
  headers?: Record<string, string>;
}

/** One schema violation in words; a header value that is not a ${VAR} reference is said so, without quoting it (it may be the secret). */
function describeError(e: ErrorObject): string {
  const where = e.instancePath === "" ? "(the top level)" : e.instancePath.slice(1).replace(/\//g, ".");
  if (e.instancePath.startsWith("/headers/") && e.keyword === "pattern") {
    const name = e.instancePath.slice("/headers/".length);
    return `headers.${name} must name an environment variable, as "\${NODE_TOKEN}" or "Bearer \${NODE_TOKEN}": the config file is committed, so it never holds the secret itself (pass a literal value with --header instead)`;
  }
  if (e.keyword === "additionalProperties")
    return `${where}: unknown member ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}`;
  if (e.keyword === "enum")
    return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  if (e.keyword === "oneOf")
    return e.instancePath === "/targets"
      ? "targets must be a targets file or a list of URLs"
      : `${where} must be a pattern or a list of patterns`;
  if (e.keyword === "not" && e.instancePath === "") return "target and targets: give one (target is one node, targets a fleet)";
  return `${where} ${e.message ?? "is not valid"}`;
}
