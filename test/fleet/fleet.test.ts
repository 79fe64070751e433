// A fleet in one run and its merge, end to end: two reference nodes, one
// started with a fault, checked by one fleet run (--targets), and each by a run of its own then merged.
// Restricted with --only to the suite file that holds the fault's requirement (suites/estimate-gas-
// price.test.ts) to stay quick. The fault's requirements fail on the faulty node only; the merge gives
// the same matrix as the fleet run; the matrix page is checked in a browser. A fleet with a node it
// cannot test still checks the others; a signal stops every node's run; each node keeps --rate-limit
// whichever of the shared workers its files are on; two nodes that hold the same accounts keep their
// own sequence numbers when one worker runs both nodes' submissions.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetSummary } from "../../reporters/matrix-data.ts";
import type { Summary } from "../../reporters/summary.ts";
import { FAULTS, startNode, type RunningNode } from "../../src/node/index.ts";
import { CHROMIUM_MISSING, hasChromium, renderedDom } from "../support/chromium.ts";
import { conformanceCommand, type CommandRun } from "../support/conformance-command.ts";
import { forwardAsIs } from "../harness/servers.ts";

const FAULT = "gas-estimate-bcs-differs";
const ONLY = "estimate-gas-price";
const breaks = FAULTS.find((f) => f.name === FAULT)?.breaks ?? [];

const dir = mkdtempSync(join(tmpdir(), "fleet-test-"));
const nodes: RunningNode[] = [];
const env = { LEDGER_CONFORMANCE_ALLURE: "off" };
const run = (args: string[]) => conformanceCommand(args, { env, timeoutMs: 240_000 });
const readSummary = <T = Summary>(d: string): T => JSON.parse(readFileSync(join(d, "summary.json"), "utf8")) as T;

/** What the matrix says, without times, counts of requests or the order members were written in. */
function matrixData(summary: FleetSummary) {
  return {
    fleet: summary.requirements.map((r) => [r.id, r.level, r.status, r.expectedFailure === true]),
    nodes: summary.targets.map((t) => ({ name: t.name, rows: t.requirements.map((r) => [r.id, r.status, r.failures.length]) })),
  };
}

/** The requirement rows of a fleet's summary.json. */
const summaryRows = (d: string) => readSummary<FleetSummary>(d).requirements.length;

let targetsFile: string;
let fleet: CommandRun;
let singles: { clean: CommandRun; faulty: CommandRun };

beforeAll(async () => {
  const start = async (name: string, faults: string[]) => {
    const fixtures = join(dir, `${name}.fixtures.json`);
    const node = await startNode({
      host: "127.0.0.1",
      port: 0,
      faults,
      onInternalError: () => undefined,
      beforeListen: (f) => writeFileSync(fixtures, JSON.stringify(f)),
    });
    nodes.push(node);
    return { name, url: node.url, fixtures };
  };
  const targets = [await start("clean", []), await start("faulty", [FAULT])];
  targetsFile = join(dir, "targets.json");
  // A relative fixtures path is read from the targets file's directory.
  writeFileSync(targetsFile, JSON.stringify({ targets: targets.map((t) => ({ ...t, fixtures: `${t.name}.fixtures.json` })) }));
  const single = (t: (typeof targets)[number]) =>
    run(["--target", t.url, "--fixtures", t.fixtures, "--only", ONLY, "--report-dir", join(dir, "runs", t.name), "--quiet"]);
  const [f, c, x] = await Promise.all([
    // --format markdown: stdout is the fleet's summary.md (a CI job summary); merge below prints the console table.
    run([
      "--targets",
      targetsFile,
      "--only",
      ONLY,
      "--report-dir",
      join(dir, "fleet"),
      "--quiet",
      "--format",
      "markdown",
      "--junit-per-check",
    ]),
    single(targets[0] as (typeof targets)[number]),
    single(targets[1] as (typeof targets)[number]),
  ]);
  fleet = f;
  singles = { clean: c, faulty: x };
}, 300_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe("a fleet in one run", () => {
  it("fails the fault's requirements on the faulty node only, and exits with the worst node's status", () => {
    expect(breaks.length).toBeGreaterThan(0);
    expect(fleet.code, `${fleet.stdout}\n${fleet.stderr}`).toBe(1);
    const summary = readSummary<FleetSummary>(join(dir, "fleet"));
    expect(summary.targets.map((t) => t.name)).toEqual(["clean", "faulty"]);
    const [clean, faulty] = summary.targets as [FleetSummary["targets"][number], FleetSummary["targets"][number]];
    const status = (s: Summary, id: string) => s.requirements.find((r) => r.id === id)?.status;
    for (const id of breaks) {
      expect(status(faulty, id), id).toBe("failed");
      expect(status(clean, id), id).toBe("passed");
      expect(summary.requirements.find((r) => r.id === id)?.status, id).toBe("failed");
    }
    // Nothing else fails: the fault's deviation is all the matrix tells apart.
    expect(clean.requirements.filter((r) => r.status === "failed" || r.status === "warned")).toEqual([]);
    expect(
      faulty.requirements
        .filter((r) => r.status === "failed")
        .map((r) => r.id)
        .sort(),
    ).toEqual([...breaks].sort());
    // --only ran one file: the clean node's verdict is partial (exit 0), the faulty one's not conforming, and so the fleet's.
    expect(clean.verdict).toBe("partial");
    expect(faulty.verdict).toBe("not-conforming");
    expect(summary.conforming).toBe(false);
    // Each node's run wrote its own complete reports, and the fleet's failure names its node.
    for (const name of ["clean", "faulty"]) expect(existsSync(join(dir, "fleet", "targets", name, "html", "index.html")), name).toBe(true);
    expect(summary.requirements.find((r) => r.id === breaks[0])?.failures[0]?.message).toMatch(/^\[faulty\] /);
    expect(summary.verdict).toBe("not-conforming");
  });

  it("names each node's files as a one-node run does, each once, however the fleet copied them", () => {
    for (const name of ["clean", "faulty"]) {
      const junit = readFileSync(join(dir, "fleet", "targets", name, "junit.xml"), "utf8");
      const files = [...new Set([...junit.matchAll(/classname="([^"]*)"/g)].map((m) => m[1]))];
      expect(files, name).toEqual([`suites/${ONLY}.test.js`]);
      // Every check of the file ran: none is listed again as a file never started.
      expect(junit, name).not.toContain("(every check of the file)");
    }
  });

  it("writes summary.md, the matrix as markdown with the failed rows first, and prints it with --format markdown", () => {
    const markdown = readFileSync(join(dir, "fleet", "summary.md"), "utf8");
    expect(fleet.stdout).toBe(markdown);
    expect(markdown).toMatch(/^\*\*FLEET NOT CONFORMING\*\*: the worst node's verdict \(faulty\)$/m);
    expect(markdown).toMatch(/^\| faulty \| not conforming \| 1 \|/m);
    const rows = markdown
      .split("\n")
      .filter((l) => l.startsWith("| ") && !l.startsWith("| node ") && !l.startsWith("| fleet ") && !/^\| (clean|faulty) \|/.test(l));
    const failed = rows.filter((l) => l.startsWith("| ❌ failed |"));
    expect(failed.length).toBe(breaks.length);
    // Failed first, each with its status per node (clean, faulty) and the faulty node's first message.
    expect(rows.slice(0, failed.length)).toEqual(failed);
    for (const line of failed) expect(line).toMatch(/\| ✅ passed \| ❌ failed \| \\\[faulty\\\] \S/);
    expect(rows.length).toBe(summaryRows(join(dir, "fleet")));
  });

  it("refuses a malformed targets file with exit 2 and what is wrong, before any run", async () => {
    const bad = join(dir, "bad-targets.json");
    writeFileSync(bad, JSON.stringify({ targets: [{ name: "a b", url: "http://127.0.0.1:1/v1" }] }));
    const r = await run(["--targets", bad, "--report-dir", join(dir, "bad")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--targets: .*bad-targets\.json: \/targets\/0\/name must match pattern/);
    expect(existsSync(join(dir, "bad"))).toBe(false);
  });

  it("keeps a one-target run's summary as it was: no targets member", () => {
    expect(singles.clean.code, singles.clean.stderr).toBe(0);
    expect(singles.faulty.code, singles.faulty.stderr).toBe(1);
    expect(readSummary(join(dir, "runs", "clean"))).not.toHaveProperty("targets");
  });

  it("shows the requirement-by-node matrix in a browser, each cell linking to the node's entry", async (context) => {
    context.skip(!hasChromium(), CHROMIUM_MISSING);
    const dom = await renderedDom(pathToFileURL(join(dir, "fleet", "html", "index.html")).href, 2_000);
    expect(dom).toMatch(/<table class="matrix" id="matrix">/);
    expect(dom).toMatch(/Fleet not conforming: the worst node's verdict \(faulty\)/);
    for (const id of breaks) {
      const row = new RegExp(`<code>${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</code>.*?</tr>`, "s").exec(dom)?.[0] ?? "";
      expect(row, id).toMatch(
        /<td class="c-failed">failed<\/td><td class="c-passed"><a href="#node-1">passed<\/a><\/td><td class="c-failed"><a href="#node-2-[^"]+">failed<\/a><\/td>/,
      );
      // The failed cell's target exists: the faulty node's entry, open, with the replayable curl line.
      expect(dom).toMatch(new RegExp(`<details class="req" open="" id="node-2-${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}">`));
    }
    expect(dom).toMatch(/<pre class="curl">curl /);
    expect(dom).toContain('href="../targets/faulty/html/index.html"');
  });
});

describe("a fleet with a node it cannot test, and a fleet stopped by a signal", () => {
  it("reports the node it cannot test with every requirement skipped and why, exit 2, and checks the others", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const mixed = join(dir, "mixed-targets.json");
    const clean = JSON.parse(readFileSync(targetsFile, "utf8")).targets[0] as { url: string; fixtures: string };
    writeFileSync(
      mixed,
      JSON.stringify({
        targets: [
          { name: "up", url: clean.url, fixtures: `${clean.fixtures}` },
          { name: "down", url: deadUrl },
        ],
      }),
    );
    const r = await run(["--targets", mixed, "--only", ONLY, "--report-dir", join(dir, "mixed"), "--quiet"]);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(2);
    const summary = readSummary<FleetSummary>(join(dir, "mixed"));
    const [up, down] = summary.targets as [FleetSummary["targets"][number], FleetSummary["targets"][number]];
    expect(up.requirements.filter((r) => r.status === "passed").length).toBeGreaterThan(0);
    expect(up.requirements.filter((r) => r.status === "failed")).toEqual([]);
    // Nothing passed on the node that was never tested, and its reports and console say why.
    expect(
      down.requirements.every((r) => r.status === "skipped"),
      "every requirement of the unreachable node skipped",
    ).toBe(true);
    expect(down.interruption?.reason).toMatch(/connection refused|ECONNREFUSED|cannot be reached|refused/i);
    expect(readFileSync(join(dir, "mixed", "targets", "down", "console.txt"), "utf8")).toContain(down.interruption?.reason ?? "(none)");
    expect(readFileSync(join(dir, "mixed", "targets", "up", "console.txt"), "utf8")).toMatch(
      /^target http:\/\/127\.0\.0\.1:\d+\/v1, profile node: /m,
    );
    expect(existsSync(join(dir, "mixed", "targets", "down", "html", "index.html"))).toBe(true);
  });

  it("keeps each node within --rate-limit, whichever workers its files are on", async () => {
    const rate = 4;
    // Each node behind a proxy that notes when every request came, but the probe's (GET /-/healthy, before the checks, outside the limit).
    const seen: number[][] = [];
    const proxies = await Promise.all(
      (JSON.parse(readFileSync(targetsFile, "utf8")).targets as { name: string; url: string; fixtures: string }[]).map(async (t, i) => {
        seen[i] = [];
        const upstream = new URL(t.url);
        const proxy = createServer((req, res) => {
          if (!req.url?.endsWith("/-/healthy")) (seen[i] as number[]).push(Date.now());
          forwardAsIs(upstream, req, res);
        });
        await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
        return {
          proxy,
          target: {
            ...t,
            url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`,
            fixtures: join(dir, `${t.name}.fixtures.json`),
          },
        };
      }),
    );
    try {
      const limitedTargets = join(dir, "limited-targets.json");
      writeFileSync(limitedTargets, JSON.stringify({ targets: proxies.map((p) => p.target) }));
      const r = await run([
        "--targets",
        limitedTargets,
        "--only",
        ONLY,
        "--rate-limit",
        String(rate),
        "--workers",
        "2",
        "--report-dir",
        join(dir, "limited"),
        "--quiet",
      ]);
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
      for (const [i, node] of readSummary<FleetSummary>(join(dir, "limited")).targets.entries()) {
        const checks = seen[i] as number[];
        expect(checks.length, node.name).toBeGreaterThanOrEqual(3);
        // Any three requests in a row span two gaps of 1/rate at least; a timer that fires late may shorten one span, never two.
        const spans = checks.slice(2).map((t, k) => t - (checks[k] as number));
        expect(Math.min(...spans), `${node.name}: spans of three requests ${spans.join(", ")} ms`).toBeGreaterThanOrEqual(
          (2 * 1000) / rate - 200,
        );
      }
    } finally {
      await Promise.all(proxies.map(({ proxy }) => new Promise((resolve) => proxy.close(resolve))));
    }
  });

  it("stops on SIGTERM: every node's reports say the run was stopped, none passes a check it did not run, exit 143", async () => {
    const r = await conformanceCommand(["--targets", targetsFile, "--report-dir", join(dir, "stopped")], {
      env,
      timeoutMs: 120_000,
      signal: { name: "SIGTERM", when: "fleet of 2" },
    });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(143);
    const summary = readSummary<FleetSummary>(join(dir, "stopped"));
    expect(summary.targets.map((t) => t.name)).toEqual(["clean", "faulty"]);
    for (const node of summary.targets) {
      expect(node.interruption?.kind, node.name).toBe("stopped");
      expect(node.verdict, node.name).not.toBe("conforming");
    }
  });
});

describe("a fleet of nodes that hold the same accounts", () => {
  it("keeps each node's sequence numbers to its own run, though one worker runs both nodes' submissions", async () => {
    // A second clean node: the same genesis, so the same funded accounts, as the fleet's clean node.
    const fixtures = join(dir, "twin.fixtures.json");
    const twin = await startNode({
      host: "127.0.0.1",
      port: 0,
      onInternalError: () => undefined,
      beforeListen: (f) => writeFileSync(fixtures, JSON.stringify(f)),
    });
    nodes.push(twin);
    const clean = JSON.parse(readFileSync(targetsFile, "utf8")).targets[0] as { url: string; fixtures: string };
    const twins = join(dir, "twin-targets.json");
    writeFileSync(
      twins,
      JSON.stringify({
        targets: [
          { name: "first", url: clean.url, fixtures: clean.fixtures },
          { name: "second", url: twin.url, fixtures },
        ],
      }),
    );
    const r = await run([
      "--targets",
      twins,
      "--only",
      "submit-transaction-accepted",
      "--workers",
      "1",
      "--report-dir",
      join(dir, "twins"),
      "--quiet",
    ]);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    for (const node of readSummary<FleetSummary>(join(dir, "twins")).targets) {
      // With one run's sequence numbers taken for the other's (were the runs to share one support module's
      // bookkeeping), the second node's submissions wait behind numbers it never saw, and
      // 4.8/accepted-transaction-committed warns about a node that is right.
      expect(
        node.requirements.filter((q) => q.status === "failed" || q.status === "warned").map((q) => q.id),
        node.name,
      ).toEqual([]);
      for (const id of ["4.8/bcs-submission-accepted", "4.8/json-submission-accepted", "4.8/accepted-transaction-committed"]) {
        const row = node.requirements.find((q) => q.id === id);
        expect(row?.status, `${node.name}: ${id} ${JSON.stringify(row)}`).toBe("passed");
      }
    }
  });
});

describe("merge", () => {
  it("of the two single runs gives the same matrix as the fleet run", async () => {
    const merged = await conformanceCommand(
      ["merge", "--report-dir", join(dir, "merged"), join(dir, "runs", "clean"), join(dir, "runs", "faulty")],
      { env },
    );
    expect(merged.code, `${merged.stdout}\n${merged.stderr}`).toBe(1);
    expect(merged.stdout).toMatch(/FLEET NOT CONFORMING: the worst node's verdict \(faulty\)/);
    const fromMerge = readSummary<FleetSummary>(join(dir, "merged"));
    const fromFleet = readSummary<FleetSummary>(join(dir, "fleet"));
    expect(matrixData(fromMerge)).toEqual(matrixData(fromFleet));
    expect(fromMerge.counts).toEqual(fromFleet.counts);
    // Merging the fleet's own directory brings each of its nodes, under their names.
    const again = await conformanceCommand(["merge", "--report-dir", join(dir, "merged-again"), join(dir, "fleet")], { env });
    expect(again.code).toBe(1);
    expect(matrixData(readSummary<FleetSummary>(join(dir, "merged-again")))).toEqual(matrixData(fromFleet));
    expect(readFileSync(join(dir, "merged-again", "summary.md"), "utf8")).toBe(readFileSync(join(dir, "fleet", "summary.md"), "utf8"));
  });

  it("exits 0 when every node passes the gate", async () => {
    const merged = await conformanceCommand(["merge", "--report-dir", join(dir, "merged-clean"), join(dir, "runs", "clean")], { env });
    expect(merged.code, merged.stderr).toBe(0);
    expect(readSummary<FleetSummary>(join(dir, "merged-clean")).targets.map((t) => t.name)).toEqual(["clean"]);
  });
});
