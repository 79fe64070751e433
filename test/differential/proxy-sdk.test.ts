// The validation proxy judging a real client's traffic: the Aptos TypeScript SDK reads (chain id, gas
// estimate, modules, one module, a table item) and builds, signs and submits a transfer through
// `ledger-conformance proxy`, run as a child process as a team runs it, in front of a reference node.
// On a clean node nothing the traffic touched is violated; in front of a node with a fault, the
// fault's requirements fail. The reports are written when the proxy is stopped (SIGTERM).

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Account, AptosApiError, Aptos, AptosConfig, Ed25519PrivateKey, Network, PrivateKey, PrivateKeyVariants } from "@aptos-labs/ts-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Summary } from "../../reporters/summary.ts";
import { ROOT } from "../support/conformance-command.ts";
import { compiledEntry } from "../support/test-build.ts";
import { ManualClock } from "../../src/node/ledger/clock.ts";
import { startNode, type RunningNode } from "../../src/node/index.ts";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "proxy-sdk-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface ProxyRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly summary: Summary;
  readonly html: string;
}

/** Starts the proxy in front of `node`, runs `traffic` against the URL it prints, stops it with SIGTERM. */
async function throughProxy(
  node: RunningNode,
  name: string,
  traffic: (url: string, reportDir: string) => Promise<void>,
  flags: readonly string[] = ["--write-every", "0"],
): Promise<ProxyRun> {
  const reportDir = join(dir, name);
  const child = spawn(
    process.execPath,
    [
      compiledEntry("ledger-conformance-entry"),
      "proxy",
      "--upstream",
      node.url,
      "--port",
      "0",
      "--profile",
      "aptos",
      "--report-dir",
      reportDir,
      ...flags,
    ],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    },
  );
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const closed = new Promise<number | null>((resolve) => child.once("close", resolve));
  const killer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (c: string) => {
        stdout += c;
        const m = /listening on (\S+)/.exec(stdout);
        if (m) resolve(m[1] as string);
      });
      void closed.then((code) => reject(new Error(`proxy exited ${code} before listening: ${stderr}`)));
    });
    await traffic(url, reportDir);
    child.kill("SIGTERM");
    const code = await closed;
    const summary = JSON.parse(readFileSync(join(reportDir, "summary.json"), "utf8")) as Summary;
    return { code, stdout, summary, html: readFileSync(join(reportDir, "html", "index.html"), "utf8") };
  } finally {
    clearTimeout(killer);
    child.kill("SIGKILL");
  }
}

/**
 * What an SDK user does: read the chain, modules and a table item, look up a module that is not there;
 * build, sign and submit a transfer. (The SDK keeps a gas estimate per network for minutes, so a second
 * proxy in this process may not see that request: the faults below are on answers it always asks for.)
 */
async function sdkTraffic(node: RunningNode, url: string): Promise<void> {
  const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: url }));
  expect(await aptos.getChainId()).toBe(node.fixtures.chainId);
  expect(Number((await aptos.getGasPriceEstimation()).gas_estimate)).toBeGreaterThan(0);
  const modules = await aptos.getAccountModules({ accountAddress: node.fixtures.moduleAccount });
  expect(modules.map((m) => m.abi?.name)).toContain(node.fixtures.moduleName);
  const module = await aptos.getAccountModule({ accountAddress: node.fixtures.moduleAccount, moduleName: node.fixtures.moduleName });
  expect(module.bytecode).toMatch(/^0xa11ceb0b/);
  const { handle, keyType, valueType, key } = node.fixtures.table;
  expect(await aptos.getTableItem<string>({ handle, data: { key_type: keyType, value_type: valueType, key } })).toBeDefined();
  const missing = await aptos.getAccountModule({ accountAddress: node.fixtures.moduleAccount, moduleName: "no_such_module" }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(missing).toBeInstanceOf(AptosApiError);
  expect((missing as AptosApiError).status).toBe(404);
  const fixture = node.fixtures.accounts[0];
  if (!fixture) throw new Error("the node's fixtures have no account");
  const sender = Account.fromPrivateKey({
    privateKey: new Ed25519PrivateKey(PrivateKey.formatPrivateKey(fixture.privateKey, PrivateKeyVariants.Ed25519)),
  });
  const transaction = await aptos.transaction.build.simple({
    sender: sender.accountAddress,
    data: { function: "0x1::aptos_account::transfer", functionArguments: [sender.accountAddress, 1_000] },
    options: { accountSequenceNumber: 0 },
  });
  const pending = await aptos.transaction.submit.simple({
    transaction,
    senderAuthenticator: aptos.transaction.sign({ signer: sender, transaction }),
  });
  expect(pending.hash).toMatch(/^0x[0-9a-f]{64}$/);
}

const statusOf = (summary: Summary, id: string) => summary.requirements.find((r) => r.id === id)?.status;

describe("the validation proxy in front of a reference node, with the Aptos SDK's traffic", () => {
  it("a clean node: every requirement the traffic gave evidence for passes; the rest is skipped, not passed", async () => {
    const node = await startNode({ profile: "aptos", clock: new ManualClock() });
    try {
      const run = await throughProxy(node, "clean", (url) => sdkTraffic(node, url));
      expect(run.code, run.stdout).toBe(0);
      const { summary } = run;
      expect(summary.requirements.filter((r) => r.status === "failed" || r.status === "warned")).toEqual([]);
      for (const id of [
        "7.1/listed-status",
        "2.7/required-headers-on-api-success",
        "4/media-type-declared",
        "2.6/error-object",
        "7.2/error-code-known",
        "4.5/module-list",
        "4.4/module-record",
        "4.2/item-found",
        "4.8/pending-transaction-hash",
      ]) {
        expect(statusOf(summary, id), id).toBe("passed");
      }
      const unseen = summary.requirements.find((r) => r.id === "4.7/lagging-unhealthy");
      expect(unseen).toMatchObject({ status: "skipped", checks: 0, reason: "not seen in the proxied traffic" });
      // Six requests, or five when the SDK answers the gas estimate from its cache: test files share a
      // worker's modules (isolate: false), and another file may have asked the SDK for one already.
      expect(summary.requests).toBeGreaterThanOrEqual(5);
      expect(run.stdout).toMatch(/SIGTERM: stopping after \d+ judged answers/);
    } finally {
      await node.close();
    }
  }, 180_000);

  it("a node with faults: their requirements fail, with the SDK's own requests as curl lines", async () => {
    const node = await startNode({
      profile: "aptos",
      clock: new ManualClock(),
      faults: ["missing-block-height-headers", "error-codes-uppercase"],
    });
    try {
      const run = await throughProxy(node, "faulty", (url) => sdkTraffic(node, url));
      expect(run.code).toBe(1);
      const failed = run.summary.requirements
        .filter((r) => r.status === "failed")
        .map((r) => r.id)
        .sort();
      expect(failed).toContain("2.7/required-headers-on-api-success");
      expect(failed).toContain("7.2/error-code-known");
      const failure = run.summary.requirements.find((r) => r.id === "2.7/required-headers-on-api-success")?.failures[0];
      expect(failure?.message).toContain("x-aptos-block-height");
      expect(failure?.curl).toContain(node.url);
      expect(run.html).toContain("2.7/required-headers-on-api-success");
    } finally {
      await node.close();
    }
  }, 180_000);

  it("writes the reports periodically while it runs (--write-every), and a baseline makes the fault's failures expected", async () => {
    const node = await startNode({ profile: "aptos", clock: new ManualClock(), faults: ["error-codes-uppercase"] });
    const baseline = join(dir, "baseline.txt");
    writeFileSync(baseline, "7.2/error-code-known\n");
    try {
      const run = await throughProxy(
        node,
        "periodic",
        async (url, reportDir) => {
          expect((await fetch(`${url}/accounts/0x1/module/no_such_module`)).status).toBe(404);
          // The periodic write comes before any signal: the summary appears while the proxy runs, whole
          // (written aside and renamed into place).
          let early: Summary | undefined;
          for (let i = 0; i < 100 && early === undefined; i++) {
            await new Promise((r) => setTimeout(r, 100));
            const file = join(reportDir, "summary.json");
            if (existsSync(file)) early = JSON.parse(readFileSync(file, "utf8")) as Summary;
          }
          expect(early?.requirements.find((r) => r.id === "7.2/error-code-known")?.status).toBe("failed");
        },
        ["--write-every", "1", "--baseline", baseline],
      );
      expect(run.code, run.stdout).toBe(0);
      expect(run.summary.requirements.find((r) => r.id === "7.2/error-code-known")).toMatchObject({
        status: "failed",
        expectedFailure: true,
      });
      expect(existsSync(join(dir, "periodic", ".writing"))).toBe(false);
    } finally {
      await node.close();
    }
  }, 180_000);
});
