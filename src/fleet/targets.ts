// The nodes of a fleet run: `--target URL` repeated (each named after its host and port, sharing
// --fixtures and --profile), or `--targets FILE`, JSON checked against schemas/fleet-targets.schema.json
// naming each node's URL, fixtures and profile. A node's name is its column in the matrix and its report
// directory (targets/NAME/). Any problem is a UsageError: exit 2 with the message.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Ajv } from "ajv";
import { packagePath } from "../package-root.ts";
import type { ProfileName } from "../harness/config.ts";
import { checkTargetUrl, UsageError } from "../harness/usage-error.ts";

export interface FleetTarget {
  readonly name: string;
  readonly url: string;
  /** A fixtures file for this node alone (else --fixtures, if given). */
  readonly fixtures?: string;
  /** This node's profile (else --profile). */
  readonly profile?: ProfileName;
}

/** A targets file is a short list; this bounds reading a wrong file by mistake. */
const MAX_TARGETS_FILE_BYTES = 1024 * 1024;

const SCHEMA_PATH = packagePath("schemas", "fleet-targets.schema.json");

export function readTargetsFile(file: string): FleetTarget[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`--targets: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (Buffer.byteLength(text) > MAX_TARGETS_FILE_BYTES)
    throw new UsageError(`--targets: ${file} is larger than ${MAX_TARGETS_FILE_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--targets: ${file} is not JSON: ${(e as Error).message}`);
  }
  const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as object);
  if (!validate(json)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`).join("; ");
    throw new UsageError(
      `--targets: ${file}: ${problems} (expected {"targets": [{"name": "a", "url": "http://…/v1", "fixtures"?: "f.json", "profile"?: "node"|"aptos"}, …]}, names of letters, digits, '.', '_' and '-')`,
    );
  }
  const targets = (json as { targets: FleetTarget[] }).targets.map((t, i) => {
    checkTargetUrl(`--targets: ${file}: /targets/${i}/url`, t.url);
    return t.fixtures === undefined ? t : { ...t, fixtures: resolve(dirname(file), t.fixtures) };
  });
  const seen = new Set<string>();
  for (const t of targets) {
    if (seen.has(t.name))
      throw new UsageError(`--targets: ${file}: the name '${t.name}' is given to two targets (each names a column and a report directory)`);
    seen.add(t.name);
  }
  return targets;
}

/** Repeated --target URLs, each named host-port (host-port-2, … when two share them). */
export function targetsFromUrls(urls: readonly string[]): FleetTarget[] {
  const used = new Map<string, number>();
  return urls.map((url) => {
    const u = new URL(url);
    const port = u.port || (u.protocol === "https:" ? "443" : "80");
    const base = `${u.hostname.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[^A-Za-z0-9]+/, "")}-${port}`.slice(0, 34);
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return { name: n === 1 ? base : `${base}-${n}`, url };
  });
}
