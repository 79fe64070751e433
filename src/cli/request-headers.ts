// The headers a run sends on every request (--header "Name: value", or "headers" in the config file),
// for a node behind a gateway that wants credentials. A value may name environment variables as
// ${VAR}, expanded here, so that a token stays out of the command line, the process list and a
// committed config file. Every value is a secret (src/harness/secrets.ts). Names that would change how
// a request is framed or what the checks test are refused: the suite sets those itself.

import { HOP_BY_HOP } from "../harness/proxy/hop-by-hop.ts";
import type { SecretHeaders } from "../harness/secrets.ts";

/** Framing and hop-by-hop headers, and the negotiation headers the checks set on purpose. */
export const REFUSED_HEADER_NAMES: ReadonlySet<string> = new Set([
  "host",
  "content-length",
  ...HOP_BY_HOP,
  "expect",
  "content-type",
  "content-encoding",
  "accept",
  "accept-encoding",
]);

/** An RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export class HeaderError extends Error {
  override readonly name = "HeaderError";
}

/** `Name: value` as given to --header; the value's ${VAR} references expanded from `env`. */
export function parseHeaderFlag(text: string, env: NodeJS.ProcessEnv): { name: string; value: string } {
  const colon = text.indexOf(":");
  if (colon <= 0) throw new HeaderError(`--header needs "Name: value", got '${text.slice(0, 40)}'`);
  return checkedHeader(
    text.slice(0, colon).trim(),
    expandEnv(text.slice(colon + 1).trim(), env, `--header ${text.slice(0, colon).trim()}`),
  );
}

/** The header's name and value, refused when the name is not a token or is one the suite sets. */
export function checkedHeader(name: string, value: string): { name: string; value: string } {
  if (!HEADER_NAME.test(name)) throw new HeaderError(`header name '${name}' is not an HTTP token`);
  if (REFUSED_HEADER_NAMES.has(name.toLowerCase())) {
    throw new HeaderError(
      `header ${name} cannot be set: the suite sets it on each request itself (refused: ${[...REFUSED_HEADER_NAMES].join(", ")})`,
    );
  }
  // Printable ASCII (and tabs) only: HTTP clients refuse anything else in a header.
  if (/[^\t\u0020-\u007e]/.test(value)) throw new HeaderError(`the value of header ${name} holds a character other than printable ASCII`);
  return { name, value };
}

/** Replaces each ${VAR} with the variable's value; an unset or empty variable is an error. */
export function expandEnv(template: string, env: NodeJS.ProcessEnv, where: string): string {
  return template.replace(ENV_REFERENCE, (_, variable: string) => {
    const value = env[variable];
    if (value === undefined || value === "") throw new HeaderError(`${where}: environment variable ${variable} is not set`);
    return value;
  });
}

/** The environment variables a template names. */
export function envReferences(template: string): string[] {
  return [...template.matchAll(ENV_REFERENCE)].map((m) => m[1] as string);
}

/** Later entries override earlier ones of the same name (case-insensitive); names lower case. */
export function mergeHeaders(...lists: readonly (readonly { name: string; value: string }[])[]): SecretHeaders {
  const out: Record<string, string> = {};
  for (const list of lists) {
    const seen = new Set<string>();
    for (const { name, value } of list) {
      const key = name.toLowerCase();
      if (seen.has(key)) throw new HeaderError(`header ${name} is given twice`);
      seen.add(key);
      out[key] = value;
    }
  }
  return out;
}
