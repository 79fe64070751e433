// Reads a run's summary.json for the fleet matrix: the children of a fleet run wrote them, and `merge`
// reads ones made on other machines (a CI job matrix's artifacts), so the file is untrusted input:
// bounded in size before it is parsed, and checked against schemas/run-summary.schema.json before any
// member is used. Everything a summary holds still goes through escaping on its way to a page or a
// terminal (reporters/matrix-html.ts, matrix-console.ts).

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { packagePath } from "../package-root.ts";
import type { Summary } from "../../reporters/summary.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";

/** A whole-suite summary is about 100 KB; a fleet's holds one per node. */
export const MAX_SUMMARY_BYTES = 32 * 1024 * 1024;

const SCHEMA_PATH = packagePath("schemas", "run-summary.schema.json");

let validate: ReturnType<Ajv["compile"]> | undefined;

function validator(): ReturnType<Ajv["compile"]> {
  validate ??= new Ajv({ allErrors: false, strict: false }).compile(JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as object);
  return validate;
}

export class UnreadableSummaryError extends ConfigurationError {
  override readonly name = "UnreadableSummaryError";
}

/** A summary, and for a fleet's its nodes' (targets[], each with its name). */
export type ReadSummary = Summary & { readonly targets?: readonly (Summary & { readonly name: string })[] };

/** DIR/summary.json, checked; an UnreadableSummaryError (exit 2) names the file and what is wrong. */
export function readRunSummary(dir: string): ReadSummary {
  const file = join(dir, "summary.json");
  let size: number;
  try {
    size = statSync(file).size;
  } catch (e) {
    throw new UnreadableSummaryError(`${file}: cannot read it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (size > MAX_SUMMARY_BYTES)
    throw new UnreadableSummaryError(`${file}: ${size} bytes, more than the ${MAX_SUMMARY_BYTES} a summary may have`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new UnreadableSummaryError(`${file}: not JSON: ${(e as Error).message}`);
  }
  const check = validator();
  if (!check(json)) {
    const e = check.errors?.[0];
    throw new UnreadableSummaryError(
      `${file}: not a ledger-conformance summary: ${e?.instancePath || "(root)"} ${e?.message ?? "is invalid"}`,
    );
  }
  return json as ReadSummary;
}
