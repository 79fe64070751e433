// The default run, `npm run conformance`: no --target, so the command starts the reference node
// in-process on a free loopback port with its own fixtures, runs every suite and property, writes the
// three reports, and exits 0. The workers start while the node makes its genesis and get its URL and
// fixtures once it listens (src/harness/target-handoff.ts): a run selected by --only shows that they
// collected the checks by the selection before the node was up, and ran them against it after. (Both profiles against a node given by --target, with every MUST of §2.7
// and §4.1–§4.8 shown passed, are test/self-check/clean-node.test.ts.)

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CHROMIUM_MISSING, hasChromium, renderedDom } from "../support/chromium.ts";
import { conformanceCommand } from "../support/conformance-command.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const cli = (args: string[]) => conformanceCommand(args, { timeoutMs: 900_000 });

/** The default run's reports, for the browser test below. */
let run: { dir: string; summary: { requirements: { id: string; status: string }[] } } | undefined;

describe("ledger-conformance against the embedded reference node", () => {
  it("writes summary.json, junit.xml and html/index.html and exits 0", { timeout: 900_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "embedded-run-"));
    dirs.push(dir);
    const r = await cli(["--report-dir", dir, "--quiet"]);
    expect(r.stderr).not.toMatch(/cannot start the reference node/);
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    expect(summary.target).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(existsSync(join(dir, "junit.xml"))).toBe(true);
    expect(readFileSync(join(dir, "html", "index.html"), "utf8")).toContain("ledger-conformance");
    expect(summary.counts.failed, `${r.stdout}\n${r.stderr}`).toBe(0);
    const notPassed = summary.requirements
      .filter((x: { status: string }) => x.status !== "passed")
      .map((x: { id: string; status: string; reason?: string }) => `${x.id} ${x.status}: ${x.reason ?? ""}`);
    expect(notPassed, "every requirement of the default run passes").toEqual([]);
    expect(summary.conforming).toBe(true);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    // The cross-cutting header rules ran on the responses the checks received.
    const headers = summary.requirements.find((x: { id: string }) => x.id === "2.7/required-headers-on-api-success");
    expect(headers.checks).toBeGreaterThan(0);
    expect(headers.status).toBe("passed");
    expect(summary.requests).toBeGreaterThan(1);
    run = { dir, summary };
  });

  it("selects the checks by --only while the node starts, and runs them against the node once it listens", async () => {
    const dir = mkdtempSync(join(tmpdir(), "embedded-run-"));
    dirs.push(dir);
    const r = await conformanceCommand(["--report-dir", dir, "--quiet", "--only", "4.6/gas-estimate-object"], {
      timeoutMs: 120_000,
      env: { LEDGER_CONFORMANCE_ALLURE: "off" },
    });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    expect(summary.target).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const byId = Object.fromEntries(summary.requirements.map((x: { id: string }) => [x.id, x]));
    expect(byId["4.6/gas-estimate-object"]).toMatchObject({ status: "passed" });
    expect(byId["4.6/gas-estimate-object"].checks).toBeGreaterThan(0);
    // Its neighbour in the same file was collected as not selected, though the node was not up yet.
    expect(byId["4.6/gas-estimate-bcs"]).toMatchObject({ status: "skipped", reason: "not selected by --only 4.6/gas-estimate-object" });
  });

  it("stops on SIGTERM while the node starts: the workers stop waiting, the reports are written, and the exit status is 143", async () => {
    const dir = mkdtempSync(join(tmpdir(), "embedded-run-"));
    dirs.push(dir);
    // Its first line: the workers are starting, the node's genesis is under way.
    const r = await conformanceCommand(["--report-dir", dir, "--only", "estimate-gas-price"], {
      timeoutMs: 120_000,
      env: { LEDGER_CONFORMANCE_ALLURE: "off" },
      signal: { name: "SIGTERM", when: "starting the reference node" },
    });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(143);
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    expect(summary.interruption).toEqual({ kind: "stopped", reason: "interrupted by SIGTERM" });
  });
});

describe("the HTML report", () => {
  it("shows the requirement matrix and every requirement's status when opened in a browser", async (context) => {
    context.skip(!hasChromium(), CHROMIUM_MISSING);
    expect(run, "the default run above wrote a report").toBeDefined();
    const dom = await renderedDom(pathToFileURL(join(run!.dir, "html", "index.html")).href, 2_000);
    expect(dom).toMatch(/<table class="matrix">/);
    expect(dom).toMatch(/Conforming|Not conforming/);
    expect(run!.summary.requirements.length).toBeGreaterThan(10);
    for (const r of run!.summary.requirements) {
      expect(dom, r.id).toContain(`id="req-${r.id}"`);
      expect(dom, r.id).toMatch(
        new RegExp(`id="req-${r.id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}">\\s*<summary><span class="badge s-${r.status}">`),
      );
    }
  });
});
