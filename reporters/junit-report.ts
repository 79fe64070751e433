// junit.xml, for CI systems, written by the command from what the requirement reporter saw (not by
// vitest's JUnit reporter, which counts a check that never ran as passed). Its unit is the verdict's:
// one test case per requirement (renderJunitSuite, one node's <testsuite>), named by id and text, its
// classname the endpoint, its file the check's file. A MUST that fails the gate is a <failure> holding
// every failing check's message and curl line; a warned SHOULD, a baselined failure ("expected failure,
// baseline FILE"), a skipped or not-applicable requirement is <skipped> with the reason; a baselined
// requirement that now passes is a <failure>; run errors are <error>. So a CI JUnit step turns red exactly
// when the gate fails. Every <testsuite> carries the verdict in its <properties>, and the spec coverage
// figure (reporters/spec-coverage.ts: what a pass covers).
// With --junit-per-check the cases are the checks instead (renderJunitPerCheck), under the same rules.
// Text from the target is escaped, control characters included (XML 1.0 cannot hold them raw).

import type { ResultStatus } from "../src/harness/results.ts";
import { coverageFigure, packageCoverage } from "./spec-coverage.ts";
import type { RequirementOutcome, RunOutcome } from "../src/outcome/run-outcome.ts";
import type { Verdict } from "../src/outcome/verdict.ts";

/** One check, for --junit-per-check. */
export interface JunitCase {
  readonly file: string;
  readonly name: string;
  /** The requirement the check tests, when it is one of the catalog's. */
  readonly requirement?: string;
  readonly status: ResultStatus | "error";
  readonly durationMs: number;
  /** The failure or warning text, or why the check was skipped. */
  readonly detail?: string;
}

/** What one <testcase> says. */
type CaseOutcome =
  | { readonly kind: "passed" }
  | { readonly kind: "failure"; readonly message: string; readonly body: string }
  | { readonly kind: "error"; readonly message: string; readonly body: string }
  | { readonly kind: "skipped"; readonly message: string; readonly body?: string };

interface Case {
  readonly classname: string;
  readonly name: string;
  readonly file?: string;
  readonly durationMs?: number;
  readonly outcome: CaseOutcome;
}

/** One <testsuite> and its counts, which the <testsuites> element sums. */
export interface JunitSuite {
  readonly xml: string;
  readonly tests: number;
  readonly failures: number;
  readonly errors: number;
  readonly skipped: number;
}

export interface JunitNode {
  readonly outcome: RunOutcome;
  readonly verdict: Verdict;
  readonly target: string;
  readonly durationMs: number;
}

export function renderJunit(nodes: readonly JunitNode[], run: { name: string; durationMs: number }): string {
  return document(nodes.map(renderJunitSuite), run);
}

/** One node's <testsuite>: one case per requirement, or the one error that says why nothing ran. */
export function renderJunitSuite(node: JunitNode): JunitSuite {
  const { outcome } = node;
  const cases: Case[] =
    outcome.interruption?.kind === "not_started"
      ? [
          {
            classname: "(target probe)",
            name: "the target can be tested",
            outcome: { kind: "error", message: outcome.interruption.reason, body: outcome.interruption.reason },
          },
        ]
      : [...outcome.requirements.map((r) => requirementCase(r, outcome)), ...runErrorCases(outcome)];
  return suite(`ledger-conformance: ${node.target}`, cases, node.durationMs, node.verdict);
}

function requirementCase(r: RequirementOutcome, outcome: RunOutcome): Case {
  const req = r.requirement;
  const evidenceFile = (r.evidence.find((e) => e.result.status === r.status) ?? r.evidence[0])?.file;
  const base = {
    classname: endpointClass(req.endpoint),
    name: `${req.id}: ${req.text}`,
    ...(evidenceFile === undefined ? {} : { file: evidenceFile }),
  };
  const messages = r.failures.map((f) => f.message).join("\n\n");
  const recorded = r.evidence.reduce((n, e) => n + e.result.failures.length, 0);
  const body =
    recorded > r.failures.length
      ? `${messages}\n\n(the first ${r.failures.length} of ${recorded} failures; the rest in summary.json's evidence)`
      : messages;
  const first = firstLine(r.failures[0]?.message ?? "");
  if (r.expectedFailure)
    return {
      ...base,
      outcome: { kind: "skipped", message: `expected failure, baseline ${outcome.baseline?.file ?? "file"}: ${first}`, body },
    };
  switch (r.status) {
    case "passed":
      return { ...base, outcome: { kind: "passed" } };
    case "failed":
      return { ...base, outcome: { kind: "failure", message: first, body } };
    case "warned":
      return { ...base, outcome: { kind: "skipped", message: `warned (SHOULD, does not fail the gate): ${first}`, body } };
    case "skipped":
      return { ...base, outcome: { kind: "skipped", message: `skipped: ${r.reason ?? "not run"}` } };
    case "not_applicable":
      return { ...base, outcome: { kind: "skipped", message: `not applicable: ${r.reason ?? ""}` } };
  }
}

function runErrorCases(outcome: RunOutcome): Case[] {
  return outcome.errors.map((e) => ({
    classname: "(run)",
    name: e.file === undefined ? "run error" : `run error in ${e.file}`,
    outcome: { kind: "error", message: firstLine(e.message), body: e.message },
  }));
}

/** --junit-per-check: one case per check, grouped by file, with the baseline and warnings treated as per requirement. */
export function renderJunitPerCheck(checks: readonly JunitCase[], node: JunitNode, run: { name: string; durationMs: number }): string {
  const { outcome } = node;
  const byId = new Map(outcome.requirements.map((r) => [r.requirement.id, r]));
  const byFile = new Map<string, Case[]>();
  const add = (file: string, c: Case) => byFile.set(file, [...(byFile.get(file) ?? []), c]);
  for (const c of checks) {
    const r = c.requirement === undefined ? undefined : byId.get(c.requirement);
    add(c.file, {
      classname: c.file,
      name: c.name,
      ...(c.file.startsWith("(") ? {} : { file: c.file }),
      durationMs: c.durationMs,
      outcome: checkOutcome(c, r, outcome),
    });
  }
  for (const r of outcome.requirements.filter((x) => x.unexpectedPass)) {
    add("(baseline)", {
      classname: "(baseline)",
      name: `${r.requirement.id}: ${r.requirement.text}`,
      outcome: { kind: "failure", message: firstLine(r.failures[0]?.message ?? ""), body: r.failures[0]?.message ?? "" },
    });
  }
  const { verdict } = node;
  return document(
    [...byFile.entries()].map(([file, cases]) =>
      suite(
        file,
        cases,
        cases.reduce((n, c) => n + (c.durationMs ?? 0), 0),
        verdict,
      ),
    ),
    run,
  );
}

function checkOutcome(c: JunitCase, r: RequirementOutcome | undefined, outcome: RunOutcome): CaseOutcome {
  const detail = c.detail ?? "";
  if (r?.expectedFailure && (c.status === "failed" || c.status === "warned"))
    return {
      kind: "skipped",
      message: `expected failure, baseline ${outcome.baseline?.file ?? "file"}: ${firstLine(detail)}`,
      body: detail,
    };
  switch (c.status) {
    case "passed":
      return { kind: "passed" };
    case "failed":
      return { kind: "failure", message: firstLine(detail), body: detail };
    case "error":
      return { kind: "error", message: firstLine(detail), body: detail };
    case "warned":
      return { kind: "skipped", message: `warned (SHOULD, does not fail the gate): ${firstLine(detail)}`, body: detail };
    case "skipped":
      return { kind: "skipped", message: `skipped: ${detail}` };
    case "not_applicable":
      return { kind: "skipped", message: `not applicable: ${detail}` };
  }
}

function document(suites: readonly JunitSuite[], run: { name: string; durationMs: number }): string {
  const sum = (key: "tests" | "failures" | "errors" | "skipped") => suites.reduce((n, s) => n + s[key], 0);
  return `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="${xml(run.name)}" tests="${sum("tests")}" failures="${sum("failures")}" errors="${sum("errors")}" skipped="${sum("skipped")}" time="${seconds(run.durationMs)}">
${suites.map((s) => s.xml).join("\n")}
</testsuites>
`;
}

function suite(name: string, cases: readonly Case[], durationMs: number, verdict: Verdict): JunitSuite {
  const n = (kind: CaseOutcome["kind"]) => cases.filter((c) => c.outcome.kind === kind).length;
  const counts = { tests: cases.length, failures: n("failure"), errors: n("error"), skipped: n("skipped") };
  return {
    ...counts,
    xml: `  <testsuite name="${xml(name)}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${seconds(durationMs)}">
    <properties>
      <property name="verdict" value="${xml(verdict.kind)}"/>
      <property name="verdict.text" value="${xml(verdict.headline)}"/>
      <property name="spec.coverage" value="${xml(coverageFigure(packageCoverage()))}"/>
    </properties>
${cases.map(renderCase).join("\n")}
  </testsuite>`,
  };
}

function renderCase(c: Case): string {
  const open = `    <testcase classname="${xml(c.classname)}" name="${xml(c.name)}"${c.file === undefined ? "" : ` file="${xml(c.file)}"`}${c.durationMs === undefined ? "" : ` time="${seconds(c.durationMs)}"`}`;
  const o = c.outcome;
  switch (o.kind) {
    case "passed":
      return `${open}/>`;
    case "failure":
      return `${open}>\n      <failure message="${xml(o.message)}" type="RequirementNotMet">${xml(o.body)}</failure>\n    </testcase>`;
    case "error":
      return `${open}>\n      <error message="${xml(o.message)}">${xml(o.body)}</error>\n    </testcase>`;
    case "skipped":
      return `${open}>\n      <skipped message="${xml(o.message)}"/>${o.body === undefined || o.body === "" ? "" : `\n      <system-out>${xml(o.body)}</system-out>`}\n    </testcase>`;
  }
}

/** The endpoint as a JUnit classname ("*" is every endpoint: the cross-cutting rules). */
function endpointClass(endpoint: string): string {
  return endpoint === "*" ? "cross-cutting" : endpoint;
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? "";
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Escapes for XML text and attributes; characters XML 1.0 cannot hold become visible escapes. */
export function xml(s: string): string {
  return s
    .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] as string)
    .replace(
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/g,
      (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
    );
}
