// junit.xml: one test case per check, for CI systems, written by the command from what the
// requirement reporter saw (not by vitest's JUnit reporter, which counts a check that never ran as
// passed). Failed MUST checks are <failure>; skipped, not applicable and never-run checks are <skipped>
// with the reason; a warned SHOULD passes with its warning in <system-out>; run errors are <error>.
// Text from the target is escaped, control characters included (XML 1.0 cannot hold them raw).

import type { ResultStatus } from "../src/harness/results.ts";

export interface JunitCase {
  readonly file: string;
  readonly name: string;
  readonly status: ResultStatus | "error";
  readonly durationMs: number;
  /** The failure or warning text, or why the check was skipped. */
  readonly detail?: string;
}

export function renderJunit(cases: readonly JunitCase[], run: { name: string; durationMs: number }): string {
  const byFile = new Map<string, JunitCase[]>();
  for (const c of cases) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  const count = (list: readonly JunitCase[]) => ({
    tests: list.length,
    failures: list.filter((c) => c.status === "failed").length,
    errors: list.filter((c) => c.status === "error").length,
    skipped: list.filter((c) => c.status === "skipped" || c.status === "not_applicable").length,
  });
  const total = count(cases);
  const suites = [...byFile.entries()].map(([file, list]) => {
    const n = count(list);
    const time = seconds(list.reduce((sum, c) => sum + c.durationMs, 0));
    return `  <testsuite name="${xml(file)}" tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}" time="${time}">
${list.map(renderCase).join("\n")}
  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="${xml(run.name)}" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" skipped="${total.skipped}" time="${seconds(run.durationMs)}">
${suites.join("\n")}
</testsuites>
`;
}

function renderCase(c: JunitCase): string {
  const open = `    <testcase classname="${xml(c.file)}" name="${xml(c.name)}" time="${seconds(c.durationMs)}"`;
  const detail = c.detail ?? "";
  const firstLine = detail.split("\n")[0] ?? "";
  switch (c.status) {
    case "passed":
      return `${open}/>`;
    case "warned":
      return `${open}>\n      <system-out>${xml(`warned (SHOULD, does not fail the run): ${detail}`)}</system-out>\n    </testcase>`;
    case "failed":
      return `${open}>\n      <failure message="${xml(firstLine)}" type="RequirementNotMet">${xml(detail)}</failure>\n    </testcase>`;
    case "error":
      return `${open}>\n      <error message="${xml(firstLine)}">${xml(detail)}</error>\n    </testcase>`;
    case "skipped":
    case "not_applicable":
      return `${open}>\n      <skipped message="${xml(`${c.status === "not_applicable" ? "not applicable" : "skipped"}: ${detail}`)}"/>\n    </testcase>`;
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Escapes for XML text and attributes; characters XML 1.0 cannot hold become visible escapes. */
export function xml(s: string): string {
  return s
    .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] as string)
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
