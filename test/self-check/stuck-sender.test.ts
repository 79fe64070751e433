// A node that accepts a transaction it can never commit (here one whose signature does not verify,
// fault signature-not-verified) holds the sender's next sequence number: every later transfer of that
// sender waits behind it. The stale-sequence-number checks need a committed sequence number; the first
// waits the commit timeout for its transfer and is skipped with the reason, the second waits for that
// same transfer once more (a loaded node may only be slow) and the third is skipped at once, instead of
// each sending a transfer of its own and waiting out the timeout behind the same transaction.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import { conformanceCommand } from "../support/conformance-command.ts";

const scratch = mkdtempSync(join(tmpdir(), "stuck-sender-"));
let node: RunningNode;

beforeAll(async () => {
  const fixtures = join(scratch, "fixtures.json");
  node = await startNode({
    host: "127.0.0.1",
    port: 0,
    faults: ["signature-not-verified"],
    beforeListen: (f) => writeFileSync(fixtures, JSON.stringify(f)),
  });
});
afterAll(async () => {
  await node.close();
  rmSync(scratch, { recursive: true, force: true });
});

it("skips the checks behind a transfer the node never commits, waiting for it twice, not three times", async () => {
  const reportDir = join(scratch, "report");
  const run = await conformanceCommand(
    [
      "--target",
      node.url,
      "--fixtures",
      join(scratch, "fixtures.json"),
      "--only",
      "submit-transaction-rejected",
      "--report-dir",
      reportDir,
      "--junit-per-check",
    ],
    { timeoutMs: 120_000, env: { LEDGER_CONFORMANCE_ALLURE: "off" } },
  );
  expect(run.code, run.stderr).toBe(1);
  const junit = readFileSync(join(reportDir, "junit.xml"), "utf8");
  const staleSkips = [
    ...junit.matchAll(/name="submit_transaction &gt; 4\.8\/stale-sequence-number-[^"]*"[^>]*>\s*<skipped message="([^"]*)"/g),
  ].map((m) => m[1] as string);
  expect(staleSkips.length, junit).toBe(3);
  const waited = staleSkips.filter((m) => /was not committed within 10 s, so no sequence number is stale yet/.test(m));
  const behind = staleSkips.filter((m) => /was not committed within 20 s; this sender has no committed sequence number to reuse/.test(m));
  expect({ waited: waited.length, behind: behind.length }, staleSkips.join("\n")).toEqual({ waited: 1, behind: 2 });
}, 180_000);
