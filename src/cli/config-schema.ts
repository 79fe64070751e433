// The config file's JSON schema, derived from the flag table (flags.ts): a member for each run flag that names
// its configMember, typed by the flag's kind and described by its usage text, and the members with their own
// shape (target, targets, headers). The loader validates against it (config-file.ts); `npm run docs:flags`
// writes it to schemas/ledger-conformance.config.schema.json for editors, and a test keeps the two equal.

import { descriptionOf, type Flag, flagsOf } from "./flags.ts";

export const CONFIG_SCHEMA_FILE = "schemas/ledger-conformance.config.schema.json";

const NON_EMPTY_STRING = { type: "string", minLength: 1 } as const;

/** The JSON a flag's member takes, by the flag's kind. */
function memberSchema(flag: Flag): Record<string, unknown> {
  switch (flag.kind) {
    case "switch":
      return { type: "boolean" };
    case "text":
      return flag.form === undefined ? { ...NON_EMPTY_STRING } : { type: "string", pattern: flag.form.pattern };
    case "path":
    case "url":
      return { ...NON_EMPTY_STRING };
    case "patterns":
      return { $ref: "#/definitions/patterns" };
    case "positive-integer":
      return { type: "integer", minimum: 1 };
    case "positive-number":
      return { type: "number", exclusiveMinimum: 0 };
    case "milliseconds":
      return { type: "integer", minimum: 0 };
    case "choice":
      return { enum: flag.choices };
    default:
      throw new Error(`--${flag.name} (${flag.kind}) has no config file member form`);
  }
}

/** The flags the config file sets member for member, with their member names. */
export function configMemberFlags(): (Flag & { readonly configMember: string })[] {
  return flagsOf("run").filter((f): f is Flag & { readonly configMember: string } => f.configMember !== undefined);
}

export function configFileSchema(): Record<string, unknown> {
  const members = Object.fromEntries(
    configMemberFlags().map((flag) => [
      flag.configMember,
      { ...memberSchema(flag), description: `--${flag.name}: ${descriptionOf(flag).join(" ")}` },
    ]),
  );
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "ledger-conformance.config.schema.json",
    title: "ledger-conformance.config.json",
    description:
      "A committed conformance gate: what `ledger-conformance` reads from the working directory (or --config FILE). Flags given on the command line override it. Relative paths resolve against the file's directory. Header values name environment variables and never hold the secret itself.",
    type: "object",
    additionalProperties: false,
    not: { required: ["target", "targets"] },
    properties: {
      $schema: { type: "string" },
      target: { ...NON_EMPTY_STRING, description: "base URL of the node, including /v1 (--target)" },
      ...members,
      targets: {
        description: "a fleet: a list of base URLs (each named after its host and port), or a targets file (--targets)",
        oneOf: [NON_EMPTY_STRING, { type: "array", items: NON_EMPTY_STRING, minItems: 1 }],
      },
      headers: {
        type: "object",
        description: 'header name to "${VAR}" or "Scheme ${VAR}": the value comes from environment variable VAR (--header)',
        additionalProperties: { type: "string", pattern: "^(?:[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]* )?\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$" },
      },
    },
    definitions: {
      patterns: { oneOf: [NON_EMPTY_STRING, { type: "array", items: NON_EMPTY_STRING, minItems: 1 }] },
    },
  };
}
