// The command against hostile targets started in this process on 127.0.0.1, each run as a node team
// runs it (a child process), showing its exit status and the reports it wrote:
// - targets that cannot be tested at all (never answers, answers bytes that are not HTTP, resets after
//   reading the request, wants credentials) end with exit 2 and a clear message, the reports saying why,
//   also when the workers started while the target was probed (--workers given);
// - a proxy resetting every 20th request in front of the reference node: the resets are retried and
//   counted, and no MUST fails;
// - a node answering after 3 s with a short --max-duration, or stopped by SIGTERM: the reports are
//   written and the checks that did not run are skipped with the reason, never passed;
// - a node putting terminal escapes in its bodies: no raw ESC byte reaches the console;
// - no report references a remote host (the Allure page's analytics tag is removed).

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import { cli, readReports, removeReportDirs, reportDir, type Reports } from "../cli/cli-run.ts";
import {
  garbageServer,
  httpServer,
  ledgerHeaders,
  resettingProxy,
  resettingServer,
  silentServer,
  type Running,
} from "../harness/servers.ts";

const NO_ALLURE = { LEDGER_CONFORMANCE_ALLURE: "off" };
const started: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.close()));
  removeReportDirs();
});

async function track<T extends { close(): Promise<void> }>(server: Promise<T>): Promise<T> {
  const s = await server;
  started.push(s);
  return s;
}

/** Every requirement of a run that never started is skipped with the reason; junit.xml holds one error saying it. */
function expectNotStarted(reports: Reports, reason: RegExp): void {
  const { summary, junit, html } = reports;
  expect(summary.interruption?.kind).toBe("not_started");
  expect(summary.interruption?.reason).toMatch(reason);
  expect(summary.conforming).toBe(false);
  expect(summary.counts).toMatchObject({ passed: 0, failed: 0, warned: 0 });
  expect(summary.requirements.every((r) => r.status === "skipped" && r.reason?.startsWith("not run: "))).toBe(true);
  expect(junit).toMatch(/<testsuites name="ledger-conformance" tests="1" failures="0" errors="1" skipped="0"/);
  expect(html).toMatch(/Not conforming: nothing could be tested: /);
  expect(html).toMatch(/<section class="what-failed"[\s\S]*<span class="badge s-skipped">not run<\/span> nothing could be tested: /);
}

describe.concurrent("targets the suite cannot test end with exit 2, the reports saying why", () => {
  it("a server that accepts connections and never answers", async () => {
    const silent = await track(silentServer());
    const dir = reportDir();
    const r = await cli(["--target", `${silent.origin}/v1`, "--report-dir", dir, "--timeout", "500"], { env: NO_ALLURE });
    expect(r.code, r.stderr).toBe(2);
    // One retry, unless the first attempt's timeout fired late enough (a loaded machine) to spend the
    // retry budget, 2 x the timeout, by itself (http-client.ts shouldRetry).
    expect(r.stderr).toMatch(
      /does not speak HTTP: it accepts connections, but GET \/-\/healthy got no HTTP answer \(no complete answer within 500 ms( \(2 attempts\))?\)/,
    );
    expectNotStarted(readReports(dir), /does not speak HTTP/);
  });

  it("the same with --workers given, where the workers start while the target is probed: they are stopped", async () => {
    const silent = await track(silentServer());
    const dir = reportDir();
    const r = await cli(["--target", `${silent.origin}/v1`, "--report-dir", dir, "--timeout", "500", "--workers", "1"], { env: NO_ALLURE });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/does not speak HTTP: it accepts connections, but GET \/-\/healthy got no HTTP answer/);
    expectNotStarted(readReports(dir), /does not speak HTTP/);
  });

  it("a server that answers bytes that are not HTTP", async () => {
    const garbage = await track(garbageServer(Buffer.from("SSH-2.0-OpenSSH_9.6\r\n\u001b[2J\u0000\u00ff")));
    const dir = reportDir();
    const r = await cli(["--target", `${garbage.origin}/v1`, "--report-dir", dir], { env: NO_ALLURE });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/does not speak HTTP: .*not an HTTP answer/);
    expect(r.stdout + r.stderr).not.toContain("\u001b");
    expectNotStarted(readReports(dir), /not an HTTP answer/);
  });

  it("a server that resets every connection after reading the request", async () => {
    const reset = await track(resettingServer());
    const dir = reportDir();
    const r = await cli(["--target", `${reset.origin}/v1`, "--report-dir", dir], { env: NO_ALLURE });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/does not speak HTTP: .*ECONNRESET.*\(3 attempts\)/);
    const reports = readReports(dir);
    expectNotStarted(reports, /ECONNRESET/);
    expect(reports.summary).toMatchObject({ requests: 1, retries: 2 });
  });

  it("a gateway answering 401 to every request: the target requires authentication", async () => {
    const gateway = await track(
      httpServer((_req, res) => {
        res.writeHead(401, { "www-authenticate": 'Bearer realm="node"', "content-type": "application/json" });
        res.end('{"message":"missing credentials"}');
      }),
    );
    const dir = reportDir();
    const r = await cli(["--target", `${gateway.origin}/v1`, "--report-dir", dir], { env: NO_ALLURE });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/the target requires authentication: GET \/-\/healthy answered 401 and GET \/estimate_gas_price answered 401/);
    expectNotStarted(readReports(dir), /requires authentication/);
  });

  it("but not a node whose health endpoint alone answers 403 with its ledger headers", async () => {
    const node = await track(
      httpServer((req, res) => {
        const headers = { ...ledgerHeaders(), "content-type": "application/json" };
        if (req.url?.startsWith("/v1/-/healthy")) {
          res.writeHead(403, headers);
          res.end('{"message":"disabled","error_code":"api_disabled"}');
          return;
        }
        res.writeHead(200, headers);
        res.end(JSON.stringify({ deprioritized_gas_estimate: 1, gas_estimate: 1, prioritized_gas_estimate: 2 }));
      }),
    );
    const dir = reportDir();
    const r = await cli(["--target", `${node.origin}/v1`, "--report-dir", dir, "--only", "4.6/gas-estimate-object", "--quiet"], {
      env: NO_ALLURE,
    });
    expect(r.stderr).not.toMatch(/requires authentication/);
    expect(r.code, r.stdout).toBe(0);
  });
});

describe.concurrent("a reference node behind a proxy that resets every 20th request", () => {
  let node: RunningNode;
  let fixtures: string;
  beforeAll(async () => {
    const dir = reportDir();
    fixtures = join(dir, "fixtures.json");
    node = await track(startNode({ host: "127.0.0.1", port: 0, beforeListen: (f) => writeFileSync(fixtures, JSON.stringify(f)) }));
  });

  it("retries the reset requests, counts them, and fails no MUST: exit 0", async () => {
    const proxy = await track(resettingProxy(Number(new URL(node.url).port), 20));
    const dir = reportDir();
    // Every suite (the properties add nothing to the point): several hundred requests, a few dozen resets.
    const r = await cli(["--target", `${proxy.origin}/v1`, "--fixtures", fixtures, "--report-dir", dir, "--only", "suites/"], {
      env: NO_ALLURE,
    });
    const { summary, junit } = readReports(dir);
    expect(proxy.resets()).toBeGreaterThan(10);
    expect(summary.retries).toBeGreaterThan(0);
    expect(summary.retries).toBeLessThanOrEqual(proxy.resets());
    expect(summary.requirements.filter((x) => x.status === "failed").map((x) => x.id)).toEqual([]);
    expect(r.code, r.stdout).toBe(0);
    // --only suites/ leaves the properties' own requirements out: the gate passes on part of the catalog.
    expect(summary.verdict).toBe("partial");
    expect(r.stdout).toMatch(
      new RegExp(
        `PARTIAL: \\d+ of \\d+ requirements run, all hold; .* — \\d+ requests \\(${summary.retries} retries after connection faults\\)`,
      ),
    );
    expect(junit).not.toMatch(/<failure/);
    // Every suite through a proxy served from this test's own event loop: ~10 s on an idle machine, over
    // the default 30 s when the machine is loaded (the bound is on the run, not on what it proves).
  }, 120_000);
});

describe.concurrent("a run cut short writes its reports and skips what did not run, never passing it", () => {
  /** A node that answers the gas and health endpoints correctly, each after 3 s. */
  let slow: Running;
  beforeAll(async () => {
    slow = await track(
      httpServer((req, res) => {
        setTimeout(() => {
          res.writeHead(200, { ...ledgerHeaders(), "content-type": "application/json" });
          res.end(
            req.url?.startsWith("/v1/-/healthy")
              ? '{"message":"aptos-node:ok"}'
              : '{"deprioritized_gas_estimate":1,"gas_estimate":1,"prioritized_gas_estimate":2}',
          );
        }, 3_000);
      }),
    );
  });

  it('by --max-duration: the checks that did not run are skipped "max duration reached" in summary.json, junit.xml and the console', async () => {
    const dir = reportDir();
    // --concurrency as before a latency-bound run kept more in flight: the cut must come before the
    // fake node's answers to the checks (every path answered as the gas price, 3 s late) land and fail
    // them, which with 48 in flight some did on a loaded machine.
    const r = await cli(
      ["--target", `${slow.origin}/v1`, "--report-dir", dir, "--only", "suites/", "--max-duration", "4000", "--concurrency", "16"],
      { env: NO_ALLURE },
    );
    const { summary, junit } = readReports(dir);
    expect(summary.interruption).toEqual({ kind: "stopped", reason: "max duration reached" });
    expect(summary.conforming).toBe(false);
    expect(r.code, r.stdout).toBe(1);
    const notRun = summary.requirements.filter((x) => x.status === "skipped" && /max duration reached/.test(x.reason ?? ""));
    expect(notRun.length).toBeGreaterThan(50);
    // Nothing that did not run is passed: every passed requirement has results behind it.
    expect(summary.requirements.filter((x) => x.status === "passed" && x.checks === 0)).toEqual([]);
    expect(junit).toMatch(/<skipped message="skipped: [^"]*not run: max duration reached"\/>/);
    expect((junit.match(/<testcase /g) ?? []).length).toBeGreaterThan(100);
    expect((junit.match(/<testcase [^>]*\/>/g) ?? []).length).toBeLessThan(10);
    expect(r.stdout).toMatch(/\d+ checks: (\d+ [a-z ]+, )*\d+ skipped \([^)]*not run: max duration reached/);
    expect(r.stdout).not.toMatch(/(\d+) checks: \1 passed \(0 ms\)/);
    expect(r.stdout).toMatch(/NOT CONFORMING: the run stopped before its end \(max duration reached\)/);
  });

  it("by SIGTERM: the reports are written first, and the exit status is 143", async () => {
    const dir = reportDir();
    const r = await cli(["--target", `${slow.origin}/v1`, "--report-dir", dir, "--only", "suites/"], {
      env: NO_ALLURE,
      signal: { name: "SIGTERM", when: "GET /-/healthy answered" },
    });
    expect(r.code, r.stderr).toBe(143);
    const { summary, junit } = readReports(dir);
    expect(summary.interruption).toEqual({ kind: "stopped", reason: "interrupted by SIGTERM" });
    expect(summary.counts.passed).toBe(0);
    expect(junit).toMatch(/not run: interrupted by SIGTERM/);
    expect(r.stdout).toMatch(/NOT CONFORMING: the run stopped before its end \(interrupted by SIGTERM\)/);
  });
});

describe.concurrent("what a target sends never reaches the terminal raw, and no report calls out", () => {
  it("escapes ESC sequences, BEL, CR and bidi overrides from bodies in every console line; the pages load nothing remote", async () => {
    const hostile = "\u001b[2J\u001b]0;pwned\u0007\u001b[8mhidden\r\u202e";
    const node = await track(
      httpServer((_req, res) => {
        res.writeHead(404, { ...ledgerHeaders(), "content-type": "application/json" });
        // The control characters raw in the JSON text, as a careless node would send them.
        res.end(`{"message":"${hostile}","error_code":"resource_not_found"}`);
      }),
    );
    const dir = reportDir();
    const r = await cli(["--target", `${node.origin}/v1`, "--report-dir", dir, "--only", "estimate-gas-price"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("\\x1b[2J\\x1b]0;pwned\\x07\\x1b[8mhidden\\x0d\\u202e");
    expect(r.stdout + r.stderr).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
    const { junit, html } = readReports(dir);
    expect(junit).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(html).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
    expect(remoteHosts(html, node.origin)).toEqual([]);
    const allure = readFileSync(join(dir, "html", "allure", "index.html"), "utf8");
    expect(allure).not.toMatch(/googletagmanager|google-analytics|gtag\(|dataLayer/);
    expect(remoteHosts(allure, node.origin)).toEqual([]);
    // Inside the page's embedded scripts only addresses that are never fetched remain.
    expect(remoteHostsInEmbeddedScripts(allure, node.origin).filter((u) => !NEVER_FETCHED.some((ok) => u.startsWith(ok)))).toEqual([]);
  });
});

/**
 * Addresses in the Allure app's own scripts that no page load fetches: XML namespace names (identifiers,
 * never dereferenced), the "powered by" link and the Playwright trace viewer link (followed only on a
 * click; this suite attaches no trace), and placeholders of template strings.
 */
const NEVER_FETCHED = [
  "http://www.w3.org/",
  "https://allurereport.org",
  "https://trace.playwright.dev",
  "https://localhost",
  "https://${",
  "http://${",
];

/** http(s) URLs in the page outside its data: URLs, other than the target's and loopback, and XML namespace names. */
function remoteHosts(page: string, target: string): string[] {
  const outside = page.replace(/data:[a-z/+.-]+;base64,[A-Za-z0-9+/=]+/g, "").replace(/data:image\/svg\+xml,[^"']*/g, "");
  return urls(outside).filter(
    (u) => !u.startsWith(target) && !/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(u) && !u.startsWith("http://www.w3.org/"),
  );
}

function remoteHostsInEmbeddedScripts(page: string, target: string): string[] {
  const scripts = [...page.matchAll(/data:text\/javascript;base64,([A-Za-z0-9+/=]+)/g)].map((m) =>
    Buffer.from(m[1] ?? "", "base64").toString("utf8"),
  );
  return [...new Set(scripts.flatMap(urls))].filter((u) => !u.startsWith(target) && !/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(u));
}

function urls(text: string): string[] {
  return text.match(/https?:\/\/[^\s"'`)<>\\]+/g) ?? [];
}
