// action.yml, the composite GitHub Action, tested as far as it can be without GitHub: its shape (inputs,
// the steps and the actions they use, every script fed by the environment rather than by pasted inputs),
// the version it runs (the package's own), and its two scripts run here with bash: the gate step builds
// the command line from the inputs (a stub npx records it), and the summary writer appends summary.md to
// the job summary and reads the verdict from summary.json.

import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../support/conformance-command.ts";

interface Step {
  readonly id?: string;
  readonly name?: string;
  readonly uses?: string;
  readonly if?: string;
  readonly shell?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, string>;
}
interface Action {
  readonly name: string;
  readonly description: string;
  readonly inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  readonly outputs: Record<string, { value: string }>;
  readonly runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as Action;
const step = (id: string): Step => {
  const s = action.runs.steps.find((x) => x.id === id);
  if (s === undefined) throw new Error(`action.yml has no step ${id}`);
  return s;
};

const scratch = mkdtempSync(join(tmpdir(), "action-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs a step's script as GitHub would (bash -eo pipefail), with its env filled from `inputs`. */
function runStep(s: Step, inputs: Record<string, string>, extraEnv: Record<string, string> = {}): void {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(s.env ?? {})) {
    env[name] = value.replace(
      /\$\{\{ (inputs|steps\.gate\.outputs)\.([a-z-]+) \}\}/g,
      (_m, _scope, key: string) => inputs[key] ?? action.inputs[key]?.default ?? "",
    );
  }
  const script = join(scratch, "step.sh");
  writeFileSync(script, s.run ?? "");
  execFileSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
    cwd: scratch,
    env: { PATH: process.env.PATH ?? "", ...env, ...extraEnv },
    stdio: "pipe",
  });
}

describe("action.yml", () => {
  it("is a composite action with the inputs a node team sets and the steps of the gate", () => {
    expect(action.name).toBe("ledger-conformance");
    expect(action.runs.using).toBe("composite");
    expect(action.inputs.target?.required).toBe(true);
    for (const input of ["fixtures", "baseline", "profile", "headers", "report-dir", "version", "node-version"])
      expect(action.inputs[input], input).toBeDefined();
    expect(action.inputs.profile?.default).toBe("node");
    const uses = action.runs.steps.map((s) => s.uses).filter((u) => u !== undefined);
    expect(uses).toEqual(["actions/setup-node@v4", "actions/upload-artifact@v4"]);
    const upload = action.runs.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"));
    expect(upload?.if).toBe("always()");
    expect(upload?.with?.path).toBe("${{ inputs.report-dir }}");
    expect(step("summary").if).toBe("always()");
    expect(action.outputs.verdict?.value).toBe("${{ steps.summary.outputs.verdict }}");
    // The gate fails in the last step, after the reports are uploaded and summarised.
    expect(action.runs.steps.at(-1)?.run).toMatch(/exit 1/);
    expect(step("gate").run).toMatch(/npx --yes "ledger-conformance@\$INPUT_VERSION" "\$\{args\[@\]\}"/);
  });

  it("never pastes an input into a script (they come through the environment), and runs every script in bash", () => {
    for (const s of action.runs.steps.filter((x) => x.run !== undefined)) {
      expect(s.run, s.name ?? s.id).not.toContain("${{");
      expect(s.shell, s.name ?? s.id).toBe("bash");
    }
  });

  it("runs the package's own version by default", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(action.inputs.version?.default).toBe(pkg.version);
  });
});

describe("the gate step", () => {
  it("passes each input as its flag and each header line as one --header, literally", () => {
    const bin = join(scratch, "bin");
    mkdirSync(bin, { recursive: true });
    const argsFile = join(scratch, "npx-args");
    writeFileSync(join(bin, "npx"), `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${argsFile}"\nexit 1\n`);
    chmodSync(join(bin, "npx"), 0o755);
    const output = join(scratch, "gate-output");
    writeFileSync(output, "");
    runStep(
      step("gate"),
      {
        target: "https://node.example/v1",
        fixtures: "f.json",
        baseline: "",
        headers: "Authorization: Bearer $(touch pwned) `id`\r\n\n  \nX-Api-Key: k;v\n",
      },
      { PATH: `${bin}:${process.env.PATH}`, GITHUB_OUTPUT: output },
    );
    expect(readFileSync(argsFile, "utf8").split("\n").slice(0, -1)).toEqual([
      "--yes",
      "ledger-conformance@0.1.0",
      "--target",
      "https://node.example/v1",
      "--report-dir",
      "ledger-conformance-reports",
      "--profile",
      "node",
      "--fixtures",
      "f.json",
      "--header",
      "Authorization: Bearer $(touch pwned) `id`",
      "--header",
      "X-Api-Key: k;v",
    ]);
    expect(existsSync(join(scratch, "pwned")), "a header value ran as a command").toBe(false);
    // The command's failure is recorded, not raised: the reports are still uploaded before the gate applies it.
    expect(readFileSync(output, "utf8")).toBe("exit-code=1\n");
  });
});

describe("the summary writer", () => {
  it("appends summary.md to the job summary and outputs the verdict", () => {
    const reports = join(scratch, "reports");
    mkdirSync(reports, { recursive: true });
    writeFileSync(join(reports, "summary.md"), "# ledger-conformance\n\n**PARTIAL**: 5 of 137 requirements run, all hold\n");
    writeFileSync(join(reports, "summary.json"), JSON.stringify({ verdict: "partial" }));
    const summary = join(scratch, "step-summary.md");
    const output = join(scratch, "summary-output");
    writeFileSync(summary, "an earlier step's summary\n");
    writeFileSync(output, "");
    runStep(step("summary"), { "report-dir": reports, "exit-code": "0" }, { GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output });
    expect(readFileSync(summary, "utf8")).toBe(
      "an earlier step's summary\n# ledger-conformance\n\n**PARTIAL**: 5 of 137 requirements run, all hold\n",
    );
    expect(readFileSync(output, "utf8")).toBe("verdict=partial\n");
  });

  it("says so in the job summary when the run wrote no report", () => {
    const summary = join(scratch, "empty-summary.md");
    const output = join(scratch, "empty-output");
    writeFileSync(summary, "");
    writeFileSync(output, "");
    runStep(
      step("summary"),
      { "report-dir": join(scratch, "none"), "exit-code": "2" },
      { GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output },
    );
    expect(readFileSync(summary, "utf8")).toMatch(/No report was written \(exit status 2\)/);
    expect(readFileSync(output, "utf8")).toBe("");
  });
});
