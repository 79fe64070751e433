// The baseline round trip a node team goes through, as child processes against the reference node on
// loopback: a run against a faulty node writes its baseline (--write-baseline); a rerun against the same
// faulty node with that baseline passes the gate, "conforming with 1 expected failure", and a JUnit step
// would stay green; a rerun against the clean node with it fails the gate, since the baselined requirement
// now passes. In each run the console headline, summary.json, junit.xml, summary.md and the HTML banner
// state the one verdict. The first two runs are whole-suite runs (a filtered one is only partial); the
// third is restricted to the gas suite, which holds the baselined requirement.

import { readFileSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseBaseline } from "../../src/outcome/baseline-list.ts";
import { escapeHtml } from "../../reporters/escape-controls.ts";
import { xml } from "../../reporters/junit-report.ts";
import { cell } from "../../reporters/markdown-summary.ts";
import type { Summary } from "../../reporters/summary.ts";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import { CHROMIUM_MISSING, hasChromium, renderedDom } from "../support/chromium.ts";
import { conformanceCommand, type CommandRun } from "../support/conformance-command.ts";
import { expectWellFormedXml } from "../support/xml-well-formed.ts";

/** The fault, and the one requirement it breaks (src/node/faults/gas.ts). */
const FAULT = "gas-estimate-bcs-differs";
const BROKEN = "4.6/bcs-matches-json";
/** A whole-suite run on a loaded 2-core machine. */
const RUN_TIMEOUT_MS = 600_000;

const scratch = mkdtempSync(join(tmpdir(), "baseline-round-trip-"));
const baselineFile = join(scratch, "baseline.txt");
let faulty: RunningNode;
let clean: RunningNode;
const fixtures = { faulty: join(scratch, "faulty.json"), clean: join(scratch, "clean.json") };

beforeAll(async () => {
  const quiet = { host: "127.0.0.1", port: 0, onInternalError: () => undefined };
  faulty = await startNode({ ...quiet, faults: [FAULT], beforeListen: (f) => writeFileSync(fixtures.faulty, JSON.stringify(f)) });
  clean = await startNode({ ...quiet, beforeListen: (f) => writeFileSync(fixtures.clean, JSON.stringify(f)) });
});
afterAll(async () => {
  await Promise.all([faulty?.close(), clean?.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

interface Reports {
  readonly run: CommandRun;
  readonly dir: string;
  readonly summary: Summary;
  readonly junit: string;
  readonly html: string;
  readonly markdown: string;
}

async function conformance(node: RunningNode, fixturesFile: string, name: string, extra: readonly string[]): Promise<Reports> {
  const dir = join(scratch, name);
  const run = await conformanceCommand(["--target", node.url, "--fixtures", fixturesFile, "--report-dir", dir, "--quiet", ...extra], {
    timeoutMs: RUN_TIMEOUT_MS,
    env: { LEDGER_CONFORMANCE_ALLURE: "off" },
  });
  const read = (file: string) => readFileSync(join(dir, file), "utf8");
  return {
    run,
    dir,
    summary: JSON.parse(read("summary.json")) as Summary,
    junit: read("junit.xml"),
    html: read(join("html", "index.html")),
    markdown: read("summary.md"),
  };
}

/** The console headline, summary.json, junit.xml's properties, summary.md and the HTML banner say the same. */
function expectOneVerdict(r: Reports, kind: Summary["verdict"], label: string): void {
  const { summary } = r;
  expect(summary.verdict, r.run.stdout).toBe(kind);
  expect(summary.verdictText.startsWith(`${label}: `), summary.verdictText).toBe(true);
  const detail = summary.verdictText.slice(label.length + 2);
  expect(r.run.stdout).toContain(`\n${summary.verdictText} — `);
  expectWellFormedXml(r.junit);
  expect(r.junit).toContain(`<property name="verdict" value="${kind}"/>`);
  expect(r.junit).toContain(`<property name="verdict.text" value="${xml(summary.verdictText)}"/>`);
  expect(r.markdown).toContain(`**${cell(label)}**: ${cell(detail)}`);
  const banner = `${label.charAt(0)}${label.slice(1).toLowerCase()}: ${detail}`;
  expect(r.html).toContain(`<p class="verdict v-${kind}" data-verdict="${kind}">${escapeHtml(banner)}</p>`);
}

describe("the baseline round trip: write it, rerun against the faulty node, rerun against the clean one", () => {
  let written: string[] = [];

  it(`writes the failed MUST ids of a run against the node under ${FAULT}`, { timeout: RUN_TIMEOUT_MS }, async () => {
    const r = await conformance(faulty, fixtures.faulty, "write", ["--write-baseline", baselineFile]);
    expect(r.run.code, r.run.stdout + r.run.stderr).toBe(1);
    expectOneVerdict(r, "not-conforming", "NOT CONFORMING");
    const failedMust = r.summary.requirements.filter((x) => x.level === "MUST" && x.status === "failed").map((x) => x.id);
    expect(failedMust).toContain(BROKEN);
    const text = readFileSync(baselineFile, "utf8");
    written = parseBaseline(text, baselineFile);
    expect(written).toEqual(failedMust);
    // Each id under its first failure message, as a comment.
    const first = r.summary.requirements.find((x) => x.id === BROKEN)?.failures[0]?.message.split("\n")[0] ?? "";
    expect(text).toContain(`# ${first}\n${BROKEN}\n`);
  });

  it("passes the gate against the same faulty node with that baseline: conforming with the expected failures, and no JUnit failure", {
    timeout: RUN_TIMEOUT_MS,
  }, async (context) => {
    expect(written.length, "the first run wrote a baseline").toBeGreaterThan(0);
    const r = await conformance(faulty, fixtures.faulty, "rerun-faulty", ["--baseline", baselineFile]);
    expect(r.run.code, r.run.stdout + r.run.stderr).toBe(0);
    const n = written.length;
    expectOneVerdict(r, "conforming-with-baseline", `CONFORMING WITH ${n} EXPECTED FAILURE${n === 1 ? "" : "S"}`);
    expect(r.summary.conforming).toBe(true);
    expect(r.summary.baseline).toBe(baselineFile);
    expect(r.summary.verdictCounts).toMatchObject({
      expectedFailures: n,
      mustFailed: 0,
      unexpectedPasses: 0,
      run: r.summary.verdictCounts.requirements,
    });
    expect(r.summary.verdictText).toContain(`from the baseline ${baselineFile}`);
    expect(r.junit).toMatch(/<testsuites name="ledger-conformance" tests="\d+" failures="0" errors="0"/);
    expect(r.junit).not.toContain("<failure");
    expect(r.junit).toContain(`<skipped message="expected failure, baseline ${xml(baselineFile)}: [${BROKEN}]`);
    expect(r.html).toContain('<span class="badge s-expected">expected by baseline</span>');

    // In a browser: the banner, the filter (started by ?only=failing) hiding passed requirements, and the § links' target.
    context.skip(!hasChromium(), CHROMIUM_MISSING);
    const dom = await renderedDom(`${pathToFileURL(join(r.dir, "html", "index.html")).href}?only=failing`, 2_000);
    expect(dom).toContain('data-verdict="conforming-with-baseline"');
    expect(dom).toMatch(/<details class="req" data-status="passed"[^>]* hidden=""/);
    expect(dom).toMatch(new RegExp(`<details class="req" data-status="failed" open="" id="req-${BROKEN.replace(/[./]/g, "\\$&")}">`));
    expect(dom).toContain(`<a class="sec" href="spec.html#4.6">§4.6</a>`);
    const spec = await renderedDom(pathToFileURL(join(r.dir, "html", "spec.html")).href, 1_000);
    expect(spec).toMatch(/<h3 id="4\.6">4\.6 Estimate gas price/);
  });

  it("fails the gate against the clean node with that baseline, every report saying the baselined requirement now passes", {
    timeout: RUN_TIMEOUT_MS,
  }, async () => {
    expect(written).toContain(BROKEN);
    const r = await conformance(clean, fixtures.clean, "rerun-clean", ["--baseline", baselineFile, "--only", "estimate-gas-price"]);
    expect(r.run.code, r.run.stdout + r.run.stderr).toBe(1);
    expectOneVerdict(r, "not-conforming", "NOT CONFORMING");
    expect(r.summary.conforming).toBe(false);
    expect(r.summary.verdictText).toContain(`the baseline ${baselineFile} lists as expected failure`);
    expect(r.summary.requirements.find((x) => x.id === BROKEN)).toMatchObject({ status: "failed", unexpectedPass: true });
    expect(r.junit).toMatch(/<testsuites name="ledger-conformance" tests="\d+" failures="1" errors="0"/);
    expect(r.junit).toMatch(new RegExp(`<failure message="\\[${BROKEN.replace(/[./]/g, "\\$&")}\\] unexpectedly passing`));
    expect(r.run.stdout).toContain(`FAIL (baselined, but passes) ${BROKEN}`);
    expect(r.html).toContain('<span class="badge s-failed">baselined, but passes</span>');
    expect(r.markdown).toContain(cell("❌ failed (baselined, but passes)"));
  });
});
