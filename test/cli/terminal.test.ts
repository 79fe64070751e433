// Colour and the progress line: only on a terminal, never with NO_COLOR or piped output, and what a
// target sent is escaped before any colour is added.

import { describe, expect, it } from "vitest";
import type { TestCase, TestModule } from "vitest/node";
import { ProgressLine } from "../../src/cli/progress-line.ts";
import { colourAllowed, forTerminal, type TerminalStream } from "../../reporters/terminal.ts";

function stream(isTTY: boolean, columns?: number): TerminalStream & { text(): string } {
  const written: string[] = [];
  return {
    isTTY,
    ...(columns === undefined ? {} : { columns }),
    write: (t: string) => written.push(t) > 0,
    text: () => written.join(""),
  };
}

describe("colour", () => {
  it("only on a terminal, and not with NO_COLOR or TERM=dumb", () => {
    expect(colourAllowed(stream(false), {})).toBe(false);
    expect(colourAllowed(stream(true), {})).toBe(true);
    expect(colourAllowed(stream(true), { NO_COLOR: "1" })).toBe(false);
    expect(colourAllowed(stream(true), { NO_COLOR: "" })).toBe(true);
    expect(colourAllowed(stream(true), { TERM: "dumb" })).toBe(false);
  });

  it("escapes the target's escape codes first, then colours the report's own lines", () => {
    const report = "FAIL 4.6/x (MUST): found \u001b[2J\u001b[32mall good\nplain line\nCONFORMING: every MUST requirement holds\n";
    const coloured = forTerminal(report, stream(true), {});
    expect(coloured).toContain("\u001b[31mFAIL 4.6/x (MUST): found \\x1b[2J\\x1b[32mall good\u001b[0m");
    expect(coloured).toContain("\nplain line\n");
    expect(coloured).toContain("\u001b[1m\u001b[32mCONFORMING");
    // Piped or NO_COLOR: escaped, and not one escape character.
    for (const [s, env] of [
      [stream(false), {}],
      [stream(true), { NO_COLOR: "1" }],
    ] as const) {
      expect(forTerminal(report, s, env)).not.toContain("\u001b");
    }
  });
});

const fakeModule = (id: string, modes: string[]) =>
  ({ relativeModuleId: id, children: { allTests: () => modes.map((mode) => ({ options: { mode } })) } }) as unknown as TestModule;
const fakeCase = (id: string) => ({ module: { relativeModuleId: id } }) as unknown as TestCase;

describe("the progress line", () => {
  it("on a terminal: counts the checks that run, is taken away for printed lines and at the end", () => {
    const out = stream(true, 60);
    const p = new ProgressLine(out, { enabled: true, colour: false });
    p.onTestModuleCollected(fakeModule("suites/a.test.ts", ["run", "run", "skip"]));
    expect(p.line()).toBe("suites/a.test.ts 0/2 checks");
    p.onTestCaseResult(fakeCase("suites/a.test.ts"));
    expect(p.line()).toBe("suites/a.test.ts 1/2 checks");
    p.print("✓ suites/b.test.ts  3 checks\n");
    expect(out.text()).toContain("\r\u001b[K✓ suites/b.test.ts  3 checks\n\r\u001b[Ksuites/a.test.ts 1/2 checks");
    p.onTestModuleEnd(fakeModule("suites/a.test.ts", []));
    p.onTestRunEnd();
    expect(out.text().endsWith("\r\u001b[K")).toBe(true);
  });

  it("is cut to the terminal's width", () => {
    const p = new ProgressLine(stream(true, 30), { enabled: true, colour: false });
    p.onTestModuleCollected(fakeModule("suites/a-very-long-file-name.test.ts", ["run"]));
    expect(p.line()).toHaveLength(29);
    expect(p.line().endsWith("…")).toBe(true);
  });

  it("piped: printed lines pass through as they are, and nothing else is written", () => {
    const out = stream(false);
    const p = new ProgressLine(out, { enabled: false, colour: false });
    p.onTestModuleCollected(fakeModule("suites/a.test.ts", ["run"]));
    p.onTestCaseResult(fakeCase("suites/a.test.ts"));
    p.print("✓ suites/a.test.ts  1 check\n");
    p.onTestModuleEnd(fakeModule("suites/a.test.ts", []));
    p.onTestRunEnd();
    expect(out.text()).toBe("✓ suites/a.test.ts  1 check\n");
  });
});
