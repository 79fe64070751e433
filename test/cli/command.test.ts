// The command end to end, as a child process: an unreachable target exits 2 within seconds (with the
// reports saying why), usage errors exit 2, and against a small local node the three reports are
// written, the baseline and --only work. Hostile targets are hostile-targets.test.ts.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allurePageText } from "../support/allure-page-text.ts";
import { cli, removeReportDirs, reportDir } from "./cli-run.ts";
import { freePort, gasEstimateNode, type Running } from "../harness/servers.ts";

/** The runs whose tests read no Allure page skip it (the costliest of their reports); the first run against the node reads it. */
const NO_ALLURE = { env: { LEDGER_CONFORMANCE_ALLURE: "off" } };

// A small node that answers §4.6 and §4.7 correctly, except that its BCS gas estimate has a trailing byte:
// Some(100), 100, Some(150), then a stray byte.
let node: Running;
beforeAll(async () => {
  node = await gasEstimateNode({ bcs: Buffer.from("016400000000000000640000000000000001960000000000000000", "hex"), healthy: true });
});
afterAll(async () => {
  await node.close();
  removeReportDirs();
});

describe("ledger-conformance", () => {
  it("exits 2 within seconds when the target cannot be reached at all", async () => {
    const port = await freePort();
    const dir = reportDir();
    const r = await cli(["--target", `http://127.0.0.1:${port}/v1`, "--report-dir", dir], { timeoutMs: 30_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: ECONNREFUSED/);
    expect(r.ms).toBeLessThan(10_000);
    // The reports say why nothing ran.
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    expect(summary.interruption).toMatchObject({ kind: "not_started", reason: expect.stringMatching(/cannot reach .*ECONNREFUSED/) });
    expect(summary.counts.passed).toBe(0);
  });

  it("exits 2 with the usage on a bad flag", async () => {
    const r = await cli(["--profile", "nope"], { timeoutMs: 30_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--profile must be node or aptos/);
    expect(r.stderr).toMatch(/usage: ledger-conformance/);
    expect((await cli(["--no-such-flag"], { timeoutMs: 30_000 })).code).toBe(2);
    const host = await cli(["--header", "Host: elsewhere.example"], { timeoutMs: 30_000 });
    expect(host.code).toBe(2);
    expect(host.stderr).toMatch(/header Host cannot be set/);
  });

  it("writes summary.json, junit.xml and an offline html/index.html, and exits 1 on a MUST failure", async () => {
    const dir = reportDir();
    const r = await cli(["--target", `${node.origin}/v1`, "--report-dir", dir]);
    expect(r.code).toBe(1);
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    expect(Object.keys(summary).sort()).toEqual([
      "conforming",
      "counts",
      "coverage",
      "durationMs",
      "phases",
      "requests",
      "requirements",
      "retries",
      "startedAt",
      "target",
      "verdict",
      "verdictCounts",
      "verdictText",
    ]);
    expect(summary.target).toBe(`${node.origin}/v1`);
    // Where the run's time went: every phase the command went through, in whole ms.
    expect(Object.keys(summary.phases)).toEqual([
      "processStart",
      "target",
      "probe",
      "workers",
      "checks",
      "vitestClose",
      "allure",
      "reports",
    ]);
    expect(Object.values(summary.phases).every((ms) => Number.isInteger(ms) && (ms as number) >= 0)).toBe(true);
    expect(summary.requests).toBeGreaterThanOrEqual(5);
    const byId = Object.fromEntries(summary.requirements.map((x: { id: string }) => [x.id, x]));
    expect(byId["4.6/gas-estimate-object"].status).toBe("passed");
    expect(byId["4.6/gas-estimate-bcs"].status).toBe("failed");
    expect(byId["4.6/gas-estimate-bcs"].failures[0].message).toMatch(/27 bytes, of which the value takes 26/);
    // The small node's 404 for everything else is a well-formed error object.
    expect(byId["2.6/error-object"].status).toBe("passed");
    const counted =
      summary.counts.passed + summary.counts.failed + summary.counts.skipped + summary.counts.notApplicable + summary.counts.warned;
    expect(counted).toBe(summary.requirements.length);
    const junit = readFileSync(join(dir, "junit.xml"), "utf8");
    expect(junit).toMatch(/<testsuites /);
    expect(junit).toMatch(/4\.6\/gas-estimate-bcs/);
    const html = readFileSync(join(dir, "html", "index.html"), "utf8");
    expect(html).toMatch(/<!doctype html>/);
    expect(html).toContain("4.6/gas-estimate-bcs");
    expect(html).toContain("curl -sS");
    // Offline: nothing is fetched from anywhere.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).toContain('href="allure/index.html"');
    // The Allure page holds the run's results.
    expect(allurePageText(readFileSync(join(dir, "html", "allure", "index.html"), "utf8"))).toContain("4.6/gas-estimate-bcs");
    expect(r.stdout).toMatch(/requirements by endpoint/);
    expect(r.stdout).toMatch(/FAIL 4\.6\/gas-estimate-bcs/);
  });

  it("passes the gate when the only MUST failure is in the baseline, and fails a baseline entry that passes", async () => {
    const dir = reportDir();
    const expected = join(dir, "baseline.txt");
    // The trailing byte fails the BCS body and, since it cannot be decoded, the comparison of the BCS
    // estimate with the JSON one (the BCS variant of the ordering check, a SHOULD, only warns).
    writeFileSync(expected, "# known deviations\n4.6/gas-estimate-bcs\n4.6/bcs-matches-json\n");
    // Only the gas suite: the small node answers nothing else, which would fail other MUSTs.
    const gas = ["--only", "estimate-gas-price"];
    const ok = await cli(["--target", `${node.origin}/v1`, "--report-dir", dir, "--baseline", expected, "--quiet", ...gas], NO_ALLURE);
    expect(ok.code).toBe(0);
    const stale = join(dir, "stale.json");
    writeFileSync(stale, JSON.stringify(["4.6/gas-estimate-bcs", "4.6/bcs-matches-json", "4.6/gas-estimate-object"]));
    const bad = await cli(["--target", `${node.origin}/v1`, "--report-dir", dir, "--baseline", stale, "--quiet", ...gas], NO_ALLURE);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/unexpectedly passing/);
  });

  it("runs only the checks --only selects", async () => {
    const dir = reportDir();
    const r = await cli(["--target", `${node.origin}/v1`, "--report-dir", dir, "--only", "4.6/gas-estimate-object", "--quiet"], NO_ALLURE);
    expect(r.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    const byId = Object.fromEntries(summary.requirements.map((x: { id: string }) => [x.id, x]));
    expect(byId["4.6/gas-estimate-object"].status).toBe("passed");
    expect(byId["4.6/gas-estimate-bcs"]).toMatchObject({ status: "skipped", reason: "not selected by --only 4.6/gas-estimate-object" });
    const none = await cli(["--target", `${node.origin}/v1`, "--report-dir", dir, "--only", "no-such-check", "--quiet"], NO_ALLURE);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--only: checks whose name contains "no-such-check": selects no check/);
  });

  it("combines repeated --only, leaves out --skip and SHOULD requirements under --level must, none of them passed", async () => {
    const dir = reportDir();
    const r = await cli(
      [
        "--target",
        `${node.origin}/v1`,
        "--report-dir",
        dir,
        "--quiet",
        "--only",
        "4.6/gas-estimate-object",
        "--only",
        "healthy",
        "--skip",
        "4.7/",
        "--level",
        "must",
      ],
      NO_ALLURE,
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    const byId = Object.fromEntries(summary.requirements.map((x: { id: string }) => [x.id, x]));
    expect(byId["4.6/gas-estimate-object"].status).toBe("passed");
    // The BCS check would fail on this node: not selected, so skipped, never passed.
    expect(byId["4.6/gas-estimate-bcs"]).toMatchObject({
      status: "skipped",
      reason: expect.stringMatching(/^not selected by --only 4\.6\/gas-estimate-object, healthy/),
    });
    const health = summary.requirements.filter((x: { id: string }) => x.id.startsWith("4.7/"));
    expect(health.length).toBeGreaterThan(0);
    for (const x of health) expect(x.status === "skipped" || x.status === "not_applicable", x.id).toBe(true);
    const should = summary.requirements.filter((x: { level: string }) => x.level === "SHOULD");
    expect(should.length).toBeGreaterThan(0);
    for (const x of should)
      expect(x, x.id).toMatchObject({ status: "skipped", reason: "not run: --level must runs MUST requirements only" });
    const junit = readFileSync(join(dir, "junit.xml"), "utf8");
    // One case a requirement: the §4.7 ones all skipped, the MUSTs with the --skip that left them out
    // (the SHOULDs with --level's reason), none failed or passed.
    const healthCases = [...junit.matchAll(/<testcase [^>]*name="(4\.7\/[^:"]*)[^"]*"[^>]*>([\s\S]*?)<\/testcase>/g)].map((m) => ({
      id: m[1] ?? "",
      body: m[2] ?? "",
    }));
    expect(healthCases.length).toBe(health.length);
    for (const { id, body } of healthCases) {
      const must = health.find((x: { id: string; level: string }) => x.id === id)?.level === "MUST";
      expect(body, id).toMatch(
        must
          ? /^\s*<skipped message="[^"]*left out by --skip 4\.7\/[^"]*"\/>\s*$/
          : /^\s*<skipped message="skipped: not run: --level must[^"]*"\/>\s*$/,
      );
    }
  });
});
