// The committed gate: ledger-conformance.config.json in the working directory (or --config FILE)
// holds the flags a team runs with, each under its row's configMember in the flag table (flags.ts). It is
// validated against the schema the table gives (config-schema.ts, committed as
// schemas/ledger-conformance.config.schema.json); relative paths resolve against the file's directory;
// header values name environment variables ("${NODE_TOKEN}" or "Bearer ${NODE_TOKEN}"), so that the
// committed file never holds a secret. The command's flags override what the file says.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { configFileSchema, configMemberFlags } from "./config-schema.ts";
import { CONFIG_FILE_NAME, type Flag } from "./flags.ts";
import { checkedHeader, expandEnv } from "./request-headers.ts";
import type { RunFlagInput } from "./run-flag-values.ts";

export { CONFIG_FILE_NAME };

export class ConfigFileError extends ConfigurationError {
  override readonly name = "ConfigFileError";
}

/** What the file says, as the flags it stands for (the names parseArgs gives them), and its headers. */
export interface ConfigFileSettings {
  readonly file: string;
  readonly flags: Readonly<RunFlagInput>;
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
  validate ??= new Ajv({ allErrors: true }).compile(configFileSchema());
  if (!validate(value)) {
    // A oneOf reports each branch's own error too; its own message says it better.
    const problems = [...new Set((validate.errors ?? []).filter((e) => !e.schemaPath.includes("/oneOf/")).map(describeError))];
    throw new ConfigFileError(`config file ${file} is not valid:\n  ${problems.join("\n  ")}`);
  }
  const c = value as ConfigFileMembers;
  const dir = dirname(file);
  const flags: RunFlagInput & Record<string, string | boolean | string[]> = {};
  for (const flag of configMemberFlags()) {
    const member = c[flag.configMember];
    if (member !== undefined) flags[flag.name] = flagInputOf(flag, member, dir);
  }
  // The fleet's members: target is one URL; a list of URLs in targets is --target repeated, a string a targets file, --targets.
  if (c.target !== undefined) flags.target = [c.target];
  if (typeof c.targets === "string") flags.targets = resolve(dir, c.targets);
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

/** The file's members, as the schema has checked them: those of flags (by the flag's kind), and the fleet's and the headers. */
interface ConfigFileMembers {
  readonly [flagMember: string]: unknown;
  readonly target?: string;
  readonly targets?: string | string[];
  readonly headers?: Record<string, string>;
}

/** A member's value as the flag would be given on the command line: a path resolved against the file's directory, a number as its text, a pattern as a list. */
function flagInputOf(flag: Flag, member: unknown, dir: string): string | boolean | string[] {
  switch (flag.kind) {
    case "path":
      return resolve(dir, member as string);
    case "patterns":
      return typeof member === "string" ? [member] : (member as string[]);
    case "positive-integer":
    case "positive-number":
    case "milliseconds":
      return String(member);
    default:
      return member as string | boolean;
  }
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
