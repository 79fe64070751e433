// --concurrency bounds a run's requests in flight however many workers it runs: each worker has a slot
// of its own and shares the others (src/harness/shared-in-flight-limit.ts), so one busy worker may use
// all but the other workers' own slots. The reference node behind a loopback proxy that counts the
// requests it is answering at once (each held 200 ms, so that they overlap): a run of one file's checks
// with two workers and --concurrency 6 reaches 5 (its own slot and the 4 shared) and never more. With
// a fixed share per worker (6 / 2 workers), the one busy worker had 3.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import { cli, readReports, removeReportDirs, reportDir } from "../cli/cli-run.ts";
import { forwardAsIs, httpServer, type Running } from "../harness/servers.ts";

let node: RunningNode;
let proxy: Running;
let fixtures: string;
let inFlight = 0;
let most = 0;
/** How long the proxy holds each request: long enough that requests sent together overlap on a loaded machine. */
const HOLD_MS = 200;

beforeAll(async () => {
  fixtures = join(reportDir(), "fixtures.json");
  node = await startNode({ host: "127.0.0.1", port: 0, beforeListen: (f) => writeFileSync(fixtures, JSON.stringify(f)) });
  const upstream = new URL(node.url);
  proxy = await httpServer((req, res, body) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    res.once("close", () => (inFlight -= 1));
    setTimeout(() => forwardAsIs(upstream, req, res, body), HOLD_MS);
  });
});
afterAll(async () => {
  await proxy.close();
  await node.close();
  removeReportDirs();
});

it("keeps a run of several workers within --concurrency together, one worker using all but the others' own slots", async () => {
  const dir = reportDir();
  const r = await cli(
    [
      "--target",
      `${proxy.origin}/v1`,
      "--fixtures",
      fixtures,
      "--report-dir",
      dir,
      "--quiet",
      "--workers",
      "2",
      "--concurrency",
      "6",
      "--only",
      "suites/get-table-item",
    ],
    { env: { LEDGER_CONFORMANCE_ALLURE: "off" } },
  );
  expect(r.code, r.stderr).toBe(0);
  expect(readReports(dir).summary.requests, "requests the run sent").toBeGreaterThan(40);
  expect(most, "requests in flight at once").toBe(5);
}, 120_000);
