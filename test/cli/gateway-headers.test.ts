// A node behind a gateway that wants a bearer token: the reference node behind a loopback proxy that
// answers 401 to any request without `Authorization: Bearer <token>`. With --header the run passes;
// when the proxy breaks an answer and echoes the token into it, the failure's curl line shows *** and
// no report, console line or file beside them holds the token.

import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import { cli, readReports, removeReportDirs, reportDir } from "./cli-run.ts";
import { forwardAsIs, httpServer, type Running } from "../harness/servers.ts";

const TOKEN = "gw-7Qx9-secret-token-4711";
const NO_ALLURE = { LEDGER_CONFORMANCE_ALLURE: "off" };
const ONLY = ["--only", "suites/estimate-gas-price", "--only", "suites/healthy"];

let node: RunningNode;
let proxy: Running;
let fixtures: string;
/** Requests the proxy refused for want of the token. */
let refused = 0;
/** When set, the proxy answers GET /estimate_gas_price with the estimates out of order and the caller's Authorization echoed. */
let breakGasEstimate = false;

beforeAll(async () => {
  const dir = reportDir();
  fixtures = join(dir, "fixtures.json");
  node = await startNode({ host: "127.0.0.1", port: 0, beforeListen: (f) => writeFileSync(fixtures, JSON.stringify(f)) });
  const upstream = new URL(node.url);
  proxy = await httpServer((req, res, body) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      refused += 1;
      res.writeHead(401, { "www-authenticate": 'Bearer realm="node"', "content-type": "application/json" });
      res.end('{"message":"missing or wrong credentials"}');
      return;
    }
    if (breakGasEstimate && req.url?.startsWith("/v1/estimate_gas_price") && req.headers.accept === "application/json") {
      const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, headers: req.headers }, (up) => {
        const chunks: Buffer[] = [];
        up.on("data", (c: Buffer) => chunks.push(c));
        up.on("end", () => {
          const estimate = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          const broken = { ...estimate, gas_estimate: "none", seen_authorization: req.headers.authorization };
          const text = JSON.stringify(broken);
          res.writeHead(200, { ...up.headers, "content-length": String(Buffer.byteLength(text)) });
          res.end(text);
        });
      });
      forward.end();
      return;
    }
    forwardAsIs(upstream, req, res, body);
  });
});

afterAll(async () => {
  await proxy?.close();
  await node?.close();
  removeReportDirs();
});

/** Every file under `dir`, as text. */
function everyFile(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true })
    .map((entry) => join(dir, String(entry)))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, "latin1") }));
}

// Each test runs the command once (the last one with its Allure page): a guard above vitest's 30 s on a busy machine.
describe("--header through a gateway that wants a bearer token", { timeout: 120_000 }, () => {
  it("without it, the target is refused as wanting authentication (exit 2)", async () => {
    const dir = reportDir();
    const r = await cli(["--target", `${proxy.origin}/v1`, "--fixtures", fixtures, "--report-dir", dir, ...ONLY], { env: NO_ALLURE });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/requires authentication.*give the credentials with --header/);
  });

  it("with it, every request carries it and the run passes; no report holds the token", async () => {
    const dir = reportDir();
    refused = 0;
    const r = await cli(
      [
        "--target",
        `${proxy.origin}/v1`,
        "--fixtures",
        fixtures,
        "--report-dir",
        dir,
        ...ONLY,
        "--header",
        "Authorization: Bearer ${GATEWAY_TOKEN}",
      ],
      { env: { ...NO_ALLURE, GATEWAY_TOKEN: TOKEN } },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // Not one request reached the proxy without the token (raw exchanges carry it too: check.test.ts).
    expect(refused).toBe(0);
    const { summary } = readReports(dir);
    expect(summary.requirements.filter((x) => x.status === "passed").length).toBeGreaterThan(5);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    for (const f of everyFile(dir)) expect(f.text.includes(TOKEN), f.path).toBe(false);
  });

  it("a committed config file names the environment variable that holds the token", async () => {
    const dir = reportDir();
    const config = join(dir, "gate.json");
    writeFileSync(
      config,
      JSON.stringify({
        target: `${proxy.origin}/v1`,
        fixtures,
        only: "suites/healthy",
        headers: { Authorization: "Bearer ${GATEWAY_TOKEN}" },
      }),
    );
    refused = 0;
    const r = await cli(["--config", config, "--report-dir", dir], { env: { ...NO_ALLURE, GATEWAY_TOKEN: TOKEN } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(refused).toBe(0);
    expect(r.stdout).toContain(`config file ${config}`);
    for (const f of everyFile(dir)) expect(f.text.includes(TOKEN), f.path).toBe(false);
  });

  it("a failure's curl line shows *** and the token echoed by the gateway is hidden, in every report", async () => {
    const dir = reportDir();
    breakGasEstimate = true;
    try {
      const r = await cli(
        [
          "--target",
          `${proxy.origin}/v1`,
          "--fixtures",
          fixtures,
          "--report-dir",
          dir,
          "--only",
          "suites/estimate-gas-price",
          "--header",
          `Authorization: Bearer ${TOKEN}`,
        ],
        // The Allure page too: it is written from what the checks recorded.
        { env: { LEDGER_CONFORMANCE_ALLURE: "on" } },
      );
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const { summary, junit, html } = readReports(dir);
      const failed = summary.requirements.find((x) => x.id === "4.6/gas-estimate-object");
      expect(failed?.status).toBe("failed");
      expect(failed?.failures[0]?.curl).toMatch(/-H 'authorization: \*\*\*'/);
      // The body the gateway echoed the header into is quoted, with the value hidden.
      expect(failed?.failures[0]?.message).toContain('"seen_authorization":"***"');
      expect(junit).toContain("authorization: ***");
      expect(html).toContain("authorization: ***");
      expect(r.stdout).toContain("authorization: ***");
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
      const files = everyFile(dir);
      expect(files.some((f) => f.path.includes("allure"))).toBe(true);
      for (const f of files) expect(f.text.includes(TOKEN), f.path).toBe(false);
    } finally {
      breakGasEstimate = false;
    }
  });
});
