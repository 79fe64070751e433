// The requirement reporter over real vitest runs of suite files: results from task meta, files that
// throw at import, checks that time out, untested requirements, the progress lines.

import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpServer, ledgerHeaders, type Running } from "../harness/servers.ts";

const run = promisify(execFile);
const HARNESS = fileURLToPath(new URL("../../src/harness/index.ts", import.meta.url));
const RUNNER = fileURLToPath(new URL("./fixtures/run-suites.ts", import.meta.url));
const TSX = fileURLToPath(new URL("../../node_modules/tsx/dist/cli.mjs", import.meta.url));
const HOSTILE_MEMBER = "<img src=x>\u001b[2J|*";

let server: Running;
beforeAll(async () => {
  server = await httpServer((req, res) => {
    // Coded as the request allows, as a gateway would: every report reads the decoded body and counts the coding.
    const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    res.writeHead(200, { ...ledgerHeaders(), "content-type": "application/json", ...(gzip ? { "content-encoding": "gzip" } : {}) });
    // Two members the contract does not declare, one of them named to break a page or a terminal.
    const body = JSON.stringify({
      deprioritized_gas_estimate: 300,
      gas_estimate: 100,
      prioritized_gas_estimate: 150,
      x_future: true,
      [HOSTILE_MEMBER]: 1,
    });
    res.end(gzip ? gzipSync(body) : body);
  });
});
afterAll(() => server.close());

interface Printed {
  run: { capped: boolean };
  progress: string;
  errors: { file?: string; message: string }[];
  requests: number;
  requirements: Record<string, { status: string; reason?: string; checks: number; failures: string[] }>;
  allure: { story?: string; severity?: string; attachments: string[] }[];
  contentCodings?: { coding: string; asked: number; unasked: number }[];
  unknownMembers: { summary?: { schema: string; member: string; count: number }[]; html: string; markdown: string; console: string };
}

describe("RequirementReporter in a real run", () => {
  it("aggregates checks, reports broken and timed-out files, and never reports untested as passed", async () => {
    const root = mkdtempSync(join(tmpdir(), "suites-"));
    writeFileSync(
      join(root, "good.test.ts"),
      `import { describeEndpoint, check } from ${JSON.stringify(HARNESS)};
describeEndpoint("estimate_gas_price", () => {
  check("4.6/gas-estimate-object", async (t) => {
    const res = await t.request({ path: "/estimate_gas_price" });
    t.expectStatus(res, 200);
    t.expectBodyMatchesSchema(res);
  });
  check("4.6/gas-estimate-bcs", async (t) => { t.needsFixture("table"); });
});
describeEndpoint("healthy", () => {
  check("4.7/health-message", async (t) => {
    const res = await t.request({ path: "/-/healthy" });
    t.expect(res.json.message === "healthy", 'message "healthy"', res);
  });
});
`,
    );
    writeFileSync(join(root, "broken.test.ts"), `throw new Error("boom at import");\n`);
    writeFileSync(
      join(root, "slow.test.ts"),
      `import { check } from ${JSON.stringify(HARNESS)};
check("2.6/error-object", { timeoutMs: 300 }, async (t) => { await new Promise(() => {}); t.fail("never"); });
`,
    );
    writeFileSync(
      join(root, "unknown-id.test.ts"),
      `import { check } from ${JSON.stringify(HARNESS)};\ncheck("9.9/no-such-requirement", (t) => t.fail("x"));\n`,
    );
    const { stdout } = await run(process.execPath, [TSX, RUNNER, root, `${server.origin}/v1`], { timeout: 60_000 });
    const out = JSON.parse(stdout.trim().split("\n").pop() as string) as Printed;

    expect(out.requirements["4.6/gas-estimate-object"]).toMatchObject({ status: "passed", checks: 1 });
    expect(out.requirements["4.7/health-message"]?.status).toBe("warned");
    expect(out.requirements["4.6/gas-estimate-bcs"]).toMatchObject({ status: "not_applicable", reason: 'needs fixture "table"' });
    expect(out.requirements["2.7/required-headers-on-api-success"]).toMatchObject({ status: "passed", checks: 2 });
    // The check that hung past its timeout is a failure of its requirement, with vitest's message.
    expect(out.requirements["2.6/error-object"]?.status).toBe("failed");
    expect(out.requirements["2.6/error-object"]?.failures[0]).toMatch(/did not finish: .*timed out/i);
    // Nothing exercised these: untested, never passed.
    expect(out.requirements["2.7/no-cursor-on-error"]).toMatchObject({ status: "skipped", reason: "untested", checks: 0 });
    // Files that throw at import are run errors, named.
    const errors = out.errors.map((e) => `${e.file}: ${e.message}`).join("\n");
    expect(errors).toMatch(/broken\.test\.ts: failed to load or crashed: boom at import/);
    expect(errors).toMatch(/unknown-id\.test\.ts: .*9\.9\/no-such-requirement/);
    expect(out.requests).toBe(2);
    expect(out.progress).toMatch(/✗ broken\.test\.ts: failed to load/);
    expect(out.progress).toMatch(/! good\.test\.ts {2}3 checks: 1 passed, 1 warned, 1 not applicable/);
    expect(out.run.capped).toBe(false);
    // The answers came gzip-coded as asked: read, and counted in every report.
    expect(out.contentCodings).toEqual([{ coding: "gzip", asked: 2, unasked: 0 }]);
    expect(out.unknownMembers.console).toContain(
      "Content codings of the answers (read whether asked or not, RFC 9110 §12.5.3): gzip: 2 asked",
    );
    expect(out.unknownMembers.html).toContain("<dt>Content codings</dt><dd>gzip: 2 asked");
    expect(out.unknownMembers.markdown).toContain("Content codings of the answers (read whether asked or not): gzip: 2 asked.");
    // Members not in the contract pass, and reach every report, per schema with their count, escaped.
    expect(out.unknownMembers.summary).toEqual([
      { schema: "GasEstimation", member: HOSTILE_MEMBER, count: 1 },
      { schema: "GasEstimation", member: "x_future", count: 1 },
    ]);
    expect(out.unknownMembers.console).toContain("Not in the contract");
    expect(out.unknownMembers.console).toContain("  GasEstimation.x_future, seen 1 time");
    expect(out.unknownMembers.console).toContain("GasEstimation.<img src=x>\\x1b[2J|*, seen 1 time");
    expect(out.unknownMembers.console).not.toContain("\u001b");
    expect(out.unknownMembers.markdown).toContain("- GasEstimation.x\\_future, seen 1 time");
    expect(out.unknownMembers.markdown).toContain("&lt;img src=x&gt;\\\\x1b\\[2J\\|\\*");
    expect(out.unknownMembers.html).toContain("<h2>Not in the contract</h2>");
    expect(out.unknownMembers.html).toContain('<td><code>GasEstimation</code></td><td><code>x_future</code></td><td class="num">1</td>');
    expect(out.unknownMembers.html).toContain("&lt;img src=x&gt;\\x1b[2J|*");
    expect(out.unknownMembers.html).not.toMatch(/<img|\u001b/);
    // The Allure results carry each check's labels and evidence, made in the runner's process.
    expect(out.allure).toContainEqual({ story: "4.6/gas-estimate-object", severity: "critical", attachments: ["evidence"] });
    expect(out.allure).toContainEqual({
      story: "4.7/health-message",
      severity: "normal",
      attachments: ["evidence", "failure 4.7/health-message"],
    });
  });
});
