// `ledger-conformance merge [--report-dir OUT] DIR...`: one fleet matrix report from runs made
// elsewhere (src/fleet/merge.ts): OUT/summary.json with targets[], OUT/html/index.html. Exit status:
// the worst node's, as its own run gave it (0, 1, or 2 for a node that could not be tested at all); 2
// for a usage error or a DIR whose summary cannot be read.

import { parseArgs } from "node:util";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { ReportLayout } from "../../reporters/report-layout.ts";
import { mergeRuns } from "../fleet/merge.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { defaultOf, parseOptionsOf } from "./flags.ts";
import { usageOf } from "./usage.ts";

export const MERGE_USAGE = usageOf("merge");

export async function mergeCommand(argv: readonly string[]): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: parseOptionsOf("merge") });
    } catch (e) {
      throw new ConfigurationError(`${(e as Error).message}\n${MERGE_USAGE}`);
    }
    if (parsed.values.help) {
      process.stdout.write(`${MERGE_USAGE}\n`);
      return 0;
    }
    const dirs = parsed.positionals;
    if (dirs.length === 0) throw new ConfigurationError(`merge needs at least one report directory\n${MERGE_USAGE}`);
    return mergeRuns(dirs, new ReportLayout((parsed.values["report-dir"] as string | undefined) ?? defaultOf("merge", "report-dir")));
  } catch (e) {
    if (!(e instanceof ConfigurationError)) throw e;
    process.stderr.write(escapeControls(`ledger-conformance merge: ${e.message}\n`));
    return 2;
  }
}
