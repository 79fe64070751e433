// `ledger-conformance diff RUN_A RUN_B [--report-dir DIR]`: compares two runs' report directories
// offline (recording-diff.ts). Exit status: 1 when a requirement went from passed to failed, 0 otherwise;
// 2 on a usage error or a run directory that cannot be read.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { renderDiffConsole, renderDiffHtml } from "../../reporters/diff-report.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { diffRuns, readRecordedRun, UnreadableRun } from "../harness/recording-diff.ts";
import { loadRequirementAliases } from "../harness/requirement-aliases.ts";
import { defaultOf, parseOptionsOf } from "./flags.ts";
import { usageOf } from "./usage.ts";

export const DIFF_USAGE = usageOf("diff");

export async function diffCommand(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: parseOptionsOf("diff") });
  } catch (e) {
    process.stderr.write(escapeControls(`ledger-conformance diff: ${(e as Error).message}\n${DIFF_USAGE}\n`));
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(`${DIFF_USAGE}\n`);
    return 0;
  }
  if (parsed.positionals.length !== 2) {
    process.stderr.write(`ledger-conformance diff: needs two run directories, got ${parsed.positionals.length}\n${DIFF_USAGE}\n`);
    return 2;
  }
  const [dirA, dirB] = parsed.positionals as [string, string];
  let diff;
  try {
    const aliases = loadRequirementAliases();
    diff = diffRuns(readRecordedRun(dirA, aliases), readRecordedRun(dirB, aliases));
  } catch (e) {
    if (!(e instanceof UnreadableRun)) throw e;
    process.stderr.write(escapeControls(`ledger-conformance diff: cannot read a run: ${e.message}\n`));
    return 2;
  }
  const reportDir = (parsed.values["report-dir"] as string | undefined) ?? defaultOf("diff", "report-dir");
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(join(reportDir, "diff.json"), `${JSON.stringify(diff, null, 2)}\n`);
  writeFileSync(join(reportDir, "diff.html"), renderDiffHtml(diff));
  process.stdout.write(renderDiffConsole(diff, reportDir));
  return diff.regressions > 0 ? 1 : 0;
}
