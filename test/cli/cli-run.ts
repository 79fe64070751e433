// The conformance command as a child process, for the command's own tests (test/support's spawner),
// and the reports it wrote.

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Summary } from "../../reporters/summary.ts";

export {
  conformanceCommand as cli,
  ROOT,
  type CommandOptions as CliOptions,
  type CommandRun as CliRun,
} from "../support/conformance-command.ts";

const made: string[] = [];

/** A fresh report directory, removed by removeReportDirs. */
export function reportDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "conformance-reports-"));
  made.push(dir);
  return dir;
}

export function removeReportDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface Reports {
  readonly summary: Summary;
  readonly junit: string;
  readonly html: string;
}

/** The three reports of a run; fails the test when one is missing. */
export function readReports(dir: string): Reports {
  for (const file of ["summary.json", "junit.xml", join("html", "index.html")]) {
    if (!existsSync(join(dir, file))) throw new Error(`the run wrote no ${file} in ${dir}`);
  }
  return {
    summary: JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary,
    junit: readFileSync(join(dir, "junit.xml"), "utf8"),
    html: readFileSync(join(dir, "html", "index.html"), "utf8"),
  };
}
