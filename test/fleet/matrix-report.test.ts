// The fleet's parts without running a node: the targets file and repeated --target, the flags each
// node's run gets, reading summaries made elsewhere as untrusted input, and the matrix page escaping
// what they hold. The end-to-end proof over two reference nodes is fleet.test.ts.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildFleetSummary, type MatrixNode } from "../../reporters/matrix-data.ts";
import { fleetStatus } from "../../src/outcome/fleet-status.ts";
import { renderMatrixConsole } from "../../reporters/matrix-console.ts";
import { renderMatrixHtml } from "../../reporters/matrix-html.ts";
import { renderMatrixMarkdown } from "../../reporters/matrix-markdown.ts";
import type { Summary } from "../../reporters/summary.ts";
import { parseConformanceArgs } from "../../src/cli/args.ts";
import { fleetJudgement, nodeVerdict, summaryExitCode } from "../../src/outcome/fleet-verdict.ts";
import { UsageError } from "../../src/harness/usage-error.ts";
import { runPlanOf } from "../../src/cli/run-plan-of.ts";
import { readRunSummary, UnreadableSummaryError } from "../../src/fleet/summary-reader.ts";
import { readTargetsFile, targetsFromUrls } from "../../src/fleet/targets.ts";
import { mergeCommand } from "../../src/cli/merge.ts";

const dir = mkdtempSync(join(tmpdir(), "matrix-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function summary(over: Partial<Summary> = {}): Summary {
  return {
    target: "http://127.0.0.1:1/v1",
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1000,
    conforming: true,
    verdict: "conforming",
    verdictText: "CONFORMING: every MUST requirement holds",
    verdictCounts: { requirements: 1, run: 1, mustFailed: 0, expectedFailures: 0, unexpectedPasses: 0, warned: 0, errors: 0 },
    counts: { passed: 1, failed: 0, skipped: 0, notApplicable: 0, warned: 0 },
    requirements: [
      {
        id: "4.6/estimates-ordered",
        level: "MUST",
        section: "4.6",
        endpoint: "estimate_gas_price",
        status: "passed",
        checks: 2,
        failures: [],
      },
    ],
    requests: 3,
    retries: 0,
    coverage: { statements: 3, covered: 1, partial: 1, uncovered: 0, untestable: 1 },
    ...over,
  };
}

describe("the targets of a fleet", () => {
  it("reads a targets file, resolving fixtures from the file's directory", () => {
    const path = file(
      "t/targets.json",
      JSON.stringify({
        targets: [
          { name: "a", url: "http://127.0.0.1:1/v1", fixtures: "a.json", profile: "aptos" },
          { name: "b.2", url: "https://n.example/v1" },
        ],
      }),
    );
    expect(readTargetsFile(path)).toEqual([
      { name: "a", url: "http://127.0.0.1:1/v1", fixtures: join(dir, "t", "a.json"), profile: "aptos" },
      { name: "b.2", url: "https://n.example/v1" },
    ]);
  });

  it.each([
    ["not JSON", "{targets", /is not JSON/],
    ["no targets", "{}", /must have required property 'targets'/],
    [
      "a name that is not a path segment",
      JSON.stringify({ targets: [{ name: "../x", url: "http://h/v1" }] }),
      /\/targets\/0\/name must match pattern/,
    ],
    ["no url", JSON.stringify({ targets: [{ name: "a" }] }), /must have required property 'url'/],
    [
      "an unknown member",
      JSON.stringify({ targets: [{ name: "a", url: "http://h/v1", urll: "x" }] }),
      /must NOT have additional properties/,
    ],
    [
      "an unknown profile",
      JSON.stringify({ targets: [{ name: "a", url: "http://h/v1", profile: "eth" }] }),
      /must be equal to one of the allowed values/,
    ],
    ["a url that is not http", JSON.stringify({ targets: [{ name: "a", url: "ftp://h/v1" }] }), /must be http or https/],
    [
      "two targets of one name",
      JSON.stringify({
        targets: [
          { name: "a", url: "http://h/v1" },
          { name: "a", url: "http://i/v1" },
        ],
      }),
      /the name 'a' is given to two targets/,
    ],
  ])("refuses a targets file with %s (a UsageError: exit 2)", (_, text, message) => {
    const path = file(`bad-${Math.random()}.json`, text);
    expect(() => readTargetsFile(path)).toThrow(UsageError);
    expect(() => readTargetsFile(path)).toThrow(message);
  });

  it("takes repeated --target as a fleet, each node named after its host and port", () => {
    const args = parseConformanceArgs(
      ["--target", "http://127.0.0.1:8080/v1", "--target", "http://127.0.0.1:8080/other/v1", "--target", "https://node.example/v1"],
      {},
    );
    expect(args).toMatchObject({
      target: "http://127.0.0.1:8080/v1",
      fleet: ["http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/other/v1", "https://node.example/v1"],
    });
    expect(targetsFromUrls((args as { fleet: readonly string[] }).fleet).map((t) => t.name)).toEqual([
      "127.0.0.1-8080",
      "127.0.0.1-8080-2",
      "node.example-443",
    ]);
    // One --target is a one-node run as before.
    expect(parseConformanceArgs(["--target", "http://h/v1"], {})).not.toHaveProperty("fleet");
    expect(() => parseConformanceArgs(["--target", "http://h/v1", "--targets", "t.json"], {})).toThrow(/give it or --target, not both/);
    expect(() => parseConformanceArgs(["--target", "http://h/v1", "--target", "nope"], {})).toThrow(/--target must be a URL/);
  });

  it("gives each node's run the command's flags, with its own URL, fixtures and profile", () => {
    const targets = file(
      "plan-targets.json",
      JSON.stringify({
        targets: [
          { name: "a", url: "http://127.0.0.1:1/v1", fixtures: "/a.json", profile: "node" },
          { name: "b", url: "http://127.0.0.1:2/v1" },
        ],
      }),
    );
    const args = parseConformanceArgs(
      ["--targets", targets, "--only", "gas", "--fixtures", "f.json", "--profile=aptos", "--allow-submit"],
      {},
    );
    if (args === "help" || args === "version") throw new Error("parsed as help");
    const plan = runPlanOf(args);
    if (!("fleet" in plan.targets)) throw new Error("not a fleet");
    expect(plan.targets.fleet).toEqual([
      { name: "a", target: "http://127.0.0.1:1/v1", fixtures: "/a.json", profile: "node" },
      // A node the targets file gives no fixtures or profile gets the command's.
      { name: "b", target: "http://127.0.0.1:2/v1", fixtures: "f.json", profile: "aptos" },
    ]);
    expect(plan.options).toMatchObject({ allowSubmit: true, only: args.only });
    for (const flag of ["target", "fleet", "targetsFile", "fixtures", "profile", "reportDir"])
      expect(plan.options).not.toHaveProperty(flag);
  });
});

describe("summaries read for the matrix", () => {
  it("reads a run's summary.json and refuses one that is missing, not JSON or not a summary", () => {
    file("ok/summary.json", JSON.stringify(summary()));
    expect(readRunSummary(join(dir, "ok")).requests).toBe(3);
    file("notjson/summary.json", "{");
    file("wrong/summary.json", JSON.stringify({ ...summary(), requirements: [{ id: "<img>", status: "passed" }] }));
    file("badstatus/summary.json", JSON.stringify(summary({ requirements: [{ ...summary().requirements[0]!, status: "fine" as never }] })));
    for (const [d, message] of [
      ["missing", /cannot read it: ENOENT/],
      ["notjson", /not JSON/],
      ["wrong", /not a ledger-conformance summary/],
      ["badstatus", /status must be equal to one of the allowed values/],
    ] as const) {
      expect(() => readRunSummary(join(dir, d)), d).toThrow(UnreadableSummaryError);
      expect(() => readRunSummary(join(dir, d)), d).toThrow(message);
    }
  });

  it("reads a summary with the members it did not know, or without them, and refuses a malformed or unbounded list", () => {
    const members = [{ schema: "MoveStruct", member: "x_future", count: 12 }];
    file("members/summary.json", JSON.stringify(summary({ unknownMembers: members, unknownMembersLeftOut: 3 })));
    expect(readRunSummary(join(dir, "members")).unknownMembers).toEqual(members);
    expect(readRunSummary(join(dir, "ok")).unknownMembers).toBeUndefined();
    file("zero/summary.json", JSON.stringify(summary({ unknownMembers: [{ ...members[0]!, count: 0 }] })));
    file("long/summary.json", JSON.stringify(summary({ unknownMembers: [{ ...members[0]!, member: "x".repeat(201) }] })));
    file(
      "many/summary.json",
      JSON.stringify(summary({ unknownMembers: Array.from({ length: 201 }, (_, i) => ({ ...members[0]!, member: `m${i}` })) })),
    );
    for (const d of ["zero", "long", "many"])
      expect(() => readRunSummary(join(dir, d)), d).toThrow(/not a ledger-conformance summary: \/unknownMembers/);
  });

  it("merge exits 2 when a directory has no readable summary", async () => {
    expect(await mergeCommand(["--report-dir", join(dir, "merged"), join(dir, "ok"), join(dir, "missing")])).toBe(2);
    expect(await mergeCommand(["--report-dir", join(dir, "ok"), join(dir, "ok")])).toBe(2);
    expect(await mergeCommand([])).toBe(2);
  });
});

describe("the matrix", () => {
  const failed = summary({
    target: 'http://h/v1?<script>alert("x")</script>',
    conforming: false,
    verdict: "not-conforming",
    verdictText: "NOT CONFORMING: 1 MUST requirement failed",
    requirements: [
      {
        ...summary().requirements[0]!,
        status: "failed",
        failures: [{ message: "body: <img src=x onerror=alert(1)> \u001b[2J\u202eevil", curl: "curl 'http://h/?a=<iframe>'" }],
      },
    ],
  });
  /** A node as the engine judges it: its verdict from its summary and exit status. */
  const judged = (name: string, s: Summary, exitCode: number): MatrixNode => ({
    name,
    summary: s,
    exitCode,
    verdict: nodeVerdict(s, exitCode),
  });
  const fleetVerdict = (ns: readonly MatrixNode[]) => fleetJudgement(ns).verdict;
  const nodes: MatrixNode[] = [
    judged("good", summary(), 0),
    { ...judged("bad", failed, summaryExitCode(failed)), reportHref: "../targets/bad/html/index.html" },
  ];

  it("escapes everything a summary made elsewhere holds, and loads nothing from outside", () => {
    const html = renderMatrixHtml({ nodes, startedAt: new Date(0), durationMs: 1, exitCode: 1, verdict: fleetVerdict(nodes) });
    expect(html).not.toMatch(/<script|<img|<iframe/);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; \\x1b[2J\\u202eevil");
    expect(html).toContain("curl &#39;http://h/?a=&lt;iframe&gt;&#39;");
    expect(html).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it("shows what each node declined (503, 429) in the console, summary.md and page, and nothing for a node that declined nothing", () => {
    const declined = {
      endpoints: [{ endpoint: "get_table_item", shed: 4, rateLimited: 90 }],
      shed: 4,
      rateLimited: 90,
      pacing: { settledPerSecond: 118.4, decreases: 3 },
    };
    const paced: MatrixNode[] = [judged("calm", summary(), 0), judged("gated", summary({ declined }), 0)];
    const consoleText = renderMatrixConsole(paced, { reportDir: "r", exitCode: 0, verdict: fleetVerdict(paced) });
    expect(consoleText).toMatch(/^gated declined: 4 shed \(503\), 90 rate-limited \(429\).*paced to 118 requests\/s/m);
    expect(consoleText).not.toMatch(/calm declined/);
    expect(renderMatrixMarkdown(paced, fleetVerdict(paced))).toMatch(/^\*\*gated declined\*\*: 4 shed \\\(503\\\), 90 rate-limited/m);
    const html = renderMatrixHtml({ nodes: paced, startedAt: new Date(0), durationMs: 1, exitCode: 0, verdict: fleetVerdict(paced) });
    expect(html.match(/<section class="declined"/g)).toHaveLength(1);
    expect(html).toContain('<code>get_table_item</code></td><td class="num">4</td><td class="num">90</td>');
  });

  it("escapes every cell of the markdown matrix, which keeps its columns whatever the summaries hold", () => {
    const hostile = judged("b|<x>", { ...failed, target: "http://h/v1|`x`\n# h" }, 1);
    const pair = [nodes[0] as MatrixNode, hostile];
    const markdown = renderMatrixMarkdown(pair, fleetVerdict(pair));
    expect(markdown).not.toMatch(/<img|<script|<x>/);
    expect(markdown).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
    expect(markdown).toContain("&lt;img src=x onerror=alert\\(1\\)&gt;");
    const table = markdown.split("\n").filter((l) => l.startsWith("|"));
    // Every row of a table has as many unescaped pipes as its header: nothing a summary holds adds a column.
    const pipes = (l: string) => l.replace(/\\\|/g, "").split("|").length;
    // The node table: 9 columns (header, rule, 2 nodes); the requirement table: 5 + 2 nodes + 1 (header, rule, 1 row).
    expect(table.filter((l) => pipes(l) === 9 + 2)).toHaveLength(2 + 2);
    expect(table.filter((l) => pipes(l) === 8 + 2)).toHaveLength(2 + 1);
    expect(table).toHaveLength(4 + 3);
    expect(markdown).toMatch(/^\*\*FLEET NOT CONFORMING\*\*: the worst node's verdict \(b\\\|&lt;x&gt;\)$/m);
    expect(markdown).toContain(
      "| ❌ failed | 4.6/estimates-ordered | MUST | 4.6 | estimate\\_gas\\_price | ✅ passed | ❌ failed | \\[b\\|&lt;x&gt;\\] body: &lt;img",
    );
  });

  it("has a row per requirement with a cell per node, the fleet's status the worst, and the worst exit", () => {
    const fleet = buildFleetSummary(nodes, { startedAt: new Date(0), durationMs: 5, verdict: fleetVerdict(nodes) });
    expect(summaryExitCode(failed)).toBe(1);
    expect(fleet.requirements.map((r) => [r.id, r.status])).toEqual([["4.6/estimates-ordered", "failed"]]);
    expect(fleet.requirements[0]?.failures[0]?.message).toMatch(/^\[bad\] body:/);
    expect(fleet.targets.map((t) => [t.name, t.conforming])).toEqual([
      ["good", true],
      ["bad", false],
    ]);
    expect(fleet.conforming).toBe(false);
    // The fleet's verdict is its worst node's.
    expect(fleet.verdict).toBe("not-conforming");
    expect(fleet.verdictText).toBe("NOT CONFORMING: the worst node's verdict; good: conforming, bad: not conforming");
    expect(fleet.verdictCounts).toMatchObject({ requirements: 2, run: 2 });
    expect(fleet.requests).toBe(6);
  });

  it("passes a requirement for the fleet only when every node that has it passed it", () => {
    const cell = (status: "passed" | "skipped" | "not_applicable" | "failed" | "warned") => ({ status, expectedFailure: false });
    expect(fleetStatus([cell("passed"), cell("passed"), { status: "absent" }])).toBe("passed");
    expect(fleetStatus([cell("passed"), cell("skipped")])).toBe("skipped");
    expect(fleetStatus([cell("passed"), cell("not_applicable")])).toBe("not_applicable");
    expect(fleetStatus([cell("warned"), cell("failed")])).toBe("failed");
    expect(fleetStatus([{ status: "absent" }])).toBe("skipped");
  });

  it("takes a node that could not be tested as exit 2, and a stopped or baselined one as the gate does", () => {
    expect(summaryExitCode(summary({ interruption: { kind: "not_started", reason: "unreachable" } }))).toBe(2);
    expect(summaryExitCode(summary({ interruption: { kind: "stopped", reason: "max duration reached" } }))).toBe(1);
    expect(summaryExitCode(summary({ requirements: [{ ...failed.requirements[0]!, expectedFailure: true }] }))).toBe(0);
  });
});
