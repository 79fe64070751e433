// Allure 3's single-file HTML report from the allure-results the allure-vitest reporter wrote:
// `allure awesome RESULTS -o OUT --single-file`, run as a child process with a time limit. A failure
// here is reported as a warning: the requirement matrix and summary.json do not depend on it.

import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ALLURE_TIMEOUT_MS = 120_000;

/** allure's package exports no cli.js, so find it beside the package's main module. */
function allureCli(): string {
  const main = fileURLToPath(import.meta.resolve("allure"));
  let dir = dirname(main);
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, "cli.js");
}

export async function generateAllureReport(resultsDir: string, outDir: string, reportName: string): Promise<{ ok: true; index: string } | { ok: false; reason: string }> {
  const args = [allureCli(), "awesome", resultsDir, "-o", outDir, "--single-file", "--report-name", reportName];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), ALLURE_TIMEOUT_MS);
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: e.message });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const index = join(outDir, "index.html");
      if (code !== 0 || !existsSync(index)) {
        resolve({ ok: false, reason: `allure exited ${signal ?? code}: ${output.trim().split("\n").slice(-5).join(" | ")}` });
        return;
      }
      const page = withoutAnalytics(readFileSync(index, "utf8"));
      const remote = remoteLoads(page);
      if (remote.length > 0) {
        rmSync(index, { force: true });
        resolve({ ok: false, reason: `the Allure page would load ${remote.join(", ")}; not kept` });
        return;
      }
      writeFileSync(index, page);
      resolve({ ok: true, index });
    });
  });
}

/** The awesome plugin's analytics block: gtag.js from googletagmanager.com, then the inline script that configures it. */
const ANALYTICS = /<script[^>]*\bsrc="https:\/\/www\.googletagmanager\.com\/[^"]*"[^>]*>\s*<\/script>\s*<script>(?:(?!<\/script>)[\s\S])*?\bgtag\((?:(?!<\/script>)[\s\S])*<\/script>/g;

export function withoutAnalytics(page: string): string {
  return page.replace(ANALYTICS, "");
}

/** Elements of the page (outside data: URLs) that would fetch from the network: script, link, img, iframe … with an http(s) or protocol-relative address. */
export function remoteLoads(page: string): string[] {
  const found = page.match(/<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*\b(?:src|href|data)\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]+/gi) ?? [];
  return [...new Set(found.map((m) => m.replace(/^[\s\S]*?((?:https?:)?\/\/[^"'\s>]+)$/, "$1")))];
}
