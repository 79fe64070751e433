// The command's output forms, end to end against a small node that answers §4.6 in JSON only (so its BCS
// checks fail): --format markdown prints summary.md's text and nothing else on stdout (progress and the
// seed go to stderr), --junit-per-check writes one case per check, --write-baseline writes what
// --baseline reads, and a bad --format is a usage error.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseBaseline } from "../../src/outcome/baseline-list.ts";
import type { Summary } from "../../reporters/summary.ts";
import { cli, removeReportDirs, reportDir } from "./cli-run.ts";
import { gasEstimateNode, type Running } from "../harness/servers.ts";

const NO_ALLURE = { LEDGER_CONFORMANCE_ALLURE: "off" };
let node: Running;
beforeAll(async () => {
  node = await gasEstimateNode();
});
afterAll(async () => {
  await node.close();
  removeReportDirs();
});

describe("ledger-conformance output forms", () => {
  it("--format markdown prints the summary alone on stdout, --junit-per-check a case per check, --write-baseline the failed MUSTs", {
    timeout: 300_000,
  }, async () => {
    const dir = reportDir();
    const baseline = join(dir, "written.txt");
    const r = await cli(
      [
        "--target",
        `${node.origin}/v1`,
        "--report-dir",
        dir,
        "--only",
        "estimate-gas-price",
        "--format",
        "markdown",
        "--junit-per-check",
        "--write-baseline",
        baseline,
      ],
      { env: NO_ALLURE, timeoutMs: 300_000 },
    );
    expect(r.code, r.stderr).toBe(1);
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary;
    expect(r.stdout).toBe(readFileSync(join(dir, "summary.md"), "utf8"));
    expect(r.stdout).toMatch(/^# ledger-conformance\n\n\*\*NOT CONFORMING\*\*: /);
    expect(r.stderr).toMatch(/estimate-gas-price\.test\.[jt]s {2}\d+ checks/);
    const junit = readFileSync(join(dir, "junit.xml"), "utf8");
    // The file's name as the command ran it: .ts from the sources, .js compiled (as the tests run it).
    expect(junit).toMatch(/<testsuite name="suites\/estimate-gas-price\.test\.[jt]s" /);
    expect((junit.match(/<testcase classname="suites\/estimate-gas-price\.test\.[jt]s"/g) ?? []).length).toBeGreaterThan(3);
    const failed = summary.requirements.filter((x) => x.level === "MUST" && x.status === "failed").map((x) => x.id);
    expect(failed.length).toBeGreaterThan(0);
    expect(parseBaseline(readFileSync(baseline, "utf8"))).toEqual(failed);
  });

  it("rejects an unknown --format with the usage", async () => {
    const r = await cli(["--format", "html"], { timeoutMs: 60_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--format must be console or markdown, got 'html'/);
  });
});

describe("the output flags", () => {
  it("are absent unless given, and parsed when given", async () => {
    const { parseConformanceArgs } = await import("../../src/cli/args.ts");
    const none = parseConformanceArgs([], {});
    expect(none).not.toHaveProperty("format");
    expect(none).not.toHaveProperty("junitPerCheck");
    expect(none).not.toHaveProperty("writeBaseline");
    expect(parseConformanceArgs(["--format", "markdown", "--junit-per-check", "--write-baseline", "b.txt"], {})).toMatchObject({
      format: "markdown",
      junitPerCheck: true,
      writeBaseline: "b.txt",
    });
    expect(parseConformanceArgs(["--format", "console"], {})).toMatchObject({ format: "console" });
  });
});
