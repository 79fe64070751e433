// The command's three comparison modes end to end, as a node team runs them (the command as a child
// process against reference nodes on loopback): --compare-to with --fail-on-diff between two clean
// nodes started with the same seed at the same time (no difference, exit 0) and against a node with a
// fault (its difference listed in summary.json and the HTML report, exit 1); --record keeping the
// exchanges; and `diff` of the clean and the faulty recorded runs naming the requirement that went
// from passed to failed and the request whose answer changed shape. One suite file (--only) keeps it
// short; the Allure page is skipped.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conformanceCommand } from "../support/conformance-command.ts";
import { freePort } from "../harness/servers.ts";
import { ManualClock } from "../../src/node/ledger/clock.ts";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import type { RunDiff } from "../../src/harness/recording-diff.ts";
import { diffCommand } from "../../src/cli/diff.ts";

const START_MS = Date.UTC(2026, 0, 1);
const ENV = { LEDGER_CONFORMANCE_ALLURE: "off" };
const ONLY = "estimate-gas-price";
let dir: string;
let clean: RunningNode;
let twin: RunningNode;
let faulty: RunningNode;

async function node(faults: readonly string[], name: string): Promise<RunningNode> {
  return startNode({
    clock: new ManualClock(START_MS),
    faults,
    onInternalError: () => undefined,
    beforeListen: (f) => writeFileSync(join(dir, `${name}.json`), JSON.stringify(f)),
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "compare-record-"));
  [clean, twin, faulty] = await Promise.all([node([], "clean"), node([], "twin"), node(["gas-estimates-as-strings"], "faulty")]);
});

afterAll(async () => {
  await Promise.all([clean, twin, faulty].map((n) => n?.close()));
  rmSync(dir, { recursive: true, force: true });
});

function run(target: RunningNode, name: string, compareTo: RunningNode) {
  const args = [
    "--target",
    target.url,
    "--fixtures",
    join(dir, `${name}.json`),
    "--only",
    ONLY,
    "--record",
    "--report-dir",
    join(dir, name),
    "--compare-to",
    compareTo.url,
    "--fail-on-diff",
    "--quiet",
  ];
  return conformanceCommand(args, { env: ENV, timeoutMs: 180_000 });
}

/** What the command writes to a stream while the capture runs. */
function capture(stream: NodeJS.WriteStream): { stop(): string } {
  const write = stream.write.bind(stream);
  let text = "";
  stream.write = ((chunk: string | Uint8Array) => {
    text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString();
    return true;
  }) as typeof stream.write;
  return {
    stop: () => {
      stream.write = write;
      return text;
    },
  };
}
const captureStdout = () => capture(process.stdout);
const captureStderr = () => capture(process.stderr);

const summaryOf = (name: string) => JSON.parse(readFileSync(join(dir, name, "summary.json"), "utf8"));

describe("--compare-to, --record and diff", () => {
  it("runs a clean and a faulty node, recorded and each compared with a clean twin", async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}/v1`;
    const [a, b, c] = await Promise.all([
      run(clean, "clean", twin),
      run(faulty, "faulty", clean),
      conformanceCommand(
        [
          "--target",
          clean.url,
          "--fixtures",
          join(dir, "clean.json"),
          "--report-dir",
          join(dir, "unreachable"),
          "--compare-to",
          unreachable,
          "--quiet",
        ],
        { env: ENV },
      ),
    ]);
    // A compared node that cannot be reached is a configuration error before the suite runs, not an empty comparison.
    expect(c.code).toBe(2);
    expect(c.stderr).toContain("--compare-to: cannot reach");
    expect(a.code, a.stderr + a.stdout).toBe(0);
    expect(summaryOf("clean").differences).toEqual([]);
    expect(summaryOf("clean").comparison.compared).toBeGreaterThan(20);

    expect(b.code, b.stderr).toBe(1);
    const differences = summaryOf("faulty").differences as {
      request: string;
      at: string;
      target: { curl: string };
      compareTo: { curl: string };
    }[];
    expect(differences.map((d) => [d.request, d.at])).toEqual([["gas estimate", "$.deprioritized_gas_estimate"]]);
    expect(differences[0]?.target.curl).toContain(`${faulty.url}/estimate_gas_price`);
    expect(differences[0]?.compareTo.curl).toContain(`${clean.url}/estimate_gas_price`);
    expect(b.stdout).toContain("DIFFERS gas estimate");
    const html = readFileSync(join(dir, "faulty", "html", "index.html"), "utf8");
    expect(html).toContain('id="differences"');
    expect(html).toContain("$.deprioritized_gas_estimate");

    const lines = readFileSync(join(dir, "clean", "exchanges.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((x) => typeof x.requirement === "string" && x.request.path.startsWith("/"))).toBe(true);
    expect(lines.some((x) => x.request.path === "/estimate_gas_price" && x.response.status === 200)).toBe(true);
  }, 240_000);

  it("diff of the clean and the faulty run: the requirement that regressed and the answer whose shape changed; exit 1", async () => {
    const out = join(dir, "diff");
    // In-process (the command's own function): the runs above were the child processes.
    const output = captureStdout();
    const code = await diffCommand([join(dir, "clean"), join(dir, "faulty"), "--report-dir", out]);
    const stdout = output.stop();
    expect(code).toBe(1);
    const diff = JSON.parse(readFileSync(join(out, "diff.json"), "utf8")) as RunDiff;
    expect(diff.requirements).toContainEqual({
      id: "4.6/gas-estimate-object",
      level: "MUST",
      from: "passed",
      to: "failed",
      regression: true,
    });
    expect("changed" in diff.exchanges).toBe(true);
    if (!("changed" in diff.exchanges)) return;
    expect(diff.exchanges.matched).toBeGreaterThan(0);
    const shape = diff.exchanges.changed.filter((c) => c.key.startsWith("GET /estimate_gas_price accept=application/json"));
    expect(shape.map((c) => [c.change, c.at, c.a, c.b])).toEqual([["shape", "$.deprioritized_gas_estimate", "number", "string"]]);
    expect(stdout).toContain("REGRESSION 4.6/gas-estimate-object");
    expect(readFileSync(join(out, "diff.html"), "utf8")).toContain("4.6/gas-estimate-object");
  }, 60_000);

  it("diff of a run with itself: nothing changed, exit 0; an unreadable run: exit 2", async () => {
    const output = captureStdout();
    const same = await diffCommand([join(dir, "clean"), join(dir, "clean"), "--report-dir", join(dir, "same")]);
    output.stop();
    expect(same).toBe(0);
    const diff = JSON.parse(readFileSync(join(dir, "same", "diff.json"), "utf8")) as RunDiff;
    expect(diff.requirements).toEqual([]);
    expect("changed" in diff.exchanges && diff.exchanges.changed).toEqual([]);
    const errors = captureStderr();
    const missing = await diffCommand([join(dir, "clean"), join(dir, "no-such-run"), "--report-dir", join(dir, "none")]);
    expect(missing).toBe(2);
    expect(errors.stop()).toContain("cannot read a run");
  }, 60_000);
});
