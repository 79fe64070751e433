// A run pointed at an Aptos-family node without --profile aptos: the reference node in the aptos profile
// answers X-APTOS-* ledger headers to a run that expects X-NODE-*. The run fails (its header requirements
// cannot hold), and its headline says why and which flags mend it, in the console and in summary.json.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { readRunSummary } from "../../src/fleet/summary-reader.ts";
import { RUN_TIMEOUT_MS, runConformance } from "./conformance-run.ts";

const scratch = mkdtempSync(join(tmpdir(), "self-check-other-profile-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const HINT = "the target sends X-APTOS-* ledger headers, not X-NODE-*: run with --profile aptos --baseline baselines/aptos-core.txt";

it(
  "an aptos-profile node run in the node profile: the headline names the other profile and the flags to use",
  async () => {
    const dir = join(scratch, "run");
    const run = await runConformance({ profile: "aptos", runProfile: "node", dir });
    const context = `exit ${run.exitCode}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`;
    expect(run.exitCode, context).toBe(1);
    const summary = run.summary;
    expect(summary, `no summary.json\n${context}`).toBeDefined();
    expect(summary?.verdict).toBe("not-conforming");
    expect(summary?.verdictText).toMatch(/^NOT CONFORMING: [0-9]+ MUST requirements failed/);
    expect(summary?.verdictText.endsWith(`; ${HINT}`), summary?.verdictText).toBe(true);
    expect(summary?.foreignHeaderPrefixes).toEqual({ expected: "X-NODE-", seen: ["X-APTOS-"], hint: HINT });
    // schemas/run-summary.schema.json accepts the member (merge and the fleet's matrix read it back).
    expect(readRunSummary(join(dir, "reports")).foreignHeaderPrefixes?.seen).toEqual(["X-APTOS-"]);
    // The other reports state the same verdict line: the console's last lines, summary.md, junit.xml.
    expect(run.stdout).toContain(HINT);
    const reports = join(dir, "reports");
    // Markdown escapes the asterisks.
    expect(readFileSync(join(reports, "summary.md"), "utf8")).toContain(HINT.replace(/\*/g, "\\*"));
    expect(readFileSync(join(reports, "junit.xml"), "utf8")).toContain(HINT);
  },
  RUN_TIMEOUT_MS,
);
