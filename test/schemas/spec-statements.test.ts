// The coverage map: every normative statement of the spec is enforced by a requirement or says why it
// cannot be, every requirement enforces a statement, and every statement's words are still the spec's.

import { describe, expect, it } from "vitest";
import { ApiContract } from "../../src/harness/openapi.ts";
import { loadRequirements } from "../../src/harness/requirements.ts";
import {
  coverageOf,
  loadStatements,
  parseStatements,
  readSpecText,
  specSections,
  statementProblems,
} from "../../src/harness/spec-statements.ts";

const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));

describe("spec statements", () => {
  it("normalizes the spec by section: table rows as cells joined by ' | ', the preamble as section 0", () => {
    const sections = specSections(readSpecText());
    expect(sections.get("0")).toContain("begins with the prefix /v1.");
    expect(sections.get("4.7")).toContain("Query duration_secs | Threshold in seconds by which the node may lag; optional.");
    expect(sections.get("2.8")).not.toContain("entry_function_payload");
  });

  it("finds a statement's words in its section, and refuses words the spec no longer has", () => {
    const spec = "# T\n\nIntro.\n\n## 1. One\n\n- A node answers.\n";
    const one = loadRequirements(ApiContract.load().operations.map((o) => o.id));
    const ok = parseStatements(JSON.stringify([{ id: "1#1", words: "A node answers.", untestable: "x" }]));
    expect(statementProblems(ok, spec, one).filter((p) => p.startsWith("1#"))).toEqual([]);
    const changed = parseStatements(JSON.stringify([{ id: "1#1", words: "A node replies.", untestable: "x" }]));
    expect(statementProblems(changed, spec, one).join("\n")).toMatch(/1#1: the words are not in §1/);
  });

  it("names a statement that nothing enforces, a requirement that enforces none, and ordinals out of turn", () => {
    const spec = "## 1. One\n\n- A node answers.\n- It answers twice.\n";
    const map = parseStatements(
      JSON.stringify([
        { id: "1#1", words: "A node answers.", requirements: ["7.1/listed-status"] },
        { id: "1#3", words: "It answers twice." },
      ]),
    );
    const problems = statementProblems(map, spec, catalog).join("\n");
    expect(problems).toMatch(/1#3: ordinal 3 where 2 comes next/);
    expect(problems).toMatch(/1#3: no requirement enforces it/);
    expect(problems).toMatch(/2\.6\/error-object: the requirement names no statement/);
    expect(coverageOf({ id: "1#1", words: "x", requirements: ["a"], partial: "b" })).toBe("partial");
  });

  it("maps the whole spec: no problem in schemas/spec-statements.yaml", () => {
    expect(statementProblems(loadStatements(), readSpecText(), catalog)).toEqual([]);
  });
});
