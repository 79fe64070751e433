// Allure 3's single-file HTML report from the allure-results the allure-vitest reporter wrote:
// `allure awesome RESULTS -o OUT --single-file`, run as a child process with a time limit. A failure
// here is reported as a warning: the requirement matrix and summary.json do not depend on it.
//
// The child is started before the checks run (startAllureGenerator) and loads allure's modules (about
// half of its time) while they do, on a core the run leaves idle much of the time; once the results
// are written it is told the command line on its stdin and runs allure's CLI with it.
//
// The child works in the run's scratch directory, never in the directory the command was started in,
// and sees no git repository. allure's CLI reads a configuration file from its working directory
// (allurerc.js, .mjs, .json, .yaml …: @allurereport/core dist/config.js), which would run a project's
// own Allure set-up (plugins, uploads) on this report. Outside a known CI it also reads `git remote
// get-url origin` and the branch (@allurereport/ci dist/detectors/local.js) and writes them into the
// page: an origin URL can hold credentials (https://user:token@host/…), and the page is about the node
// under test, not about the repository the command runs in.

import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { devNull } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ALLURE_TIMEOUT_MS = 120_000;

/** allure's package exports no cli.js, so find it beside the package's main module. */
function allureCli(): string {
  const main = fileURLToPath(import.meta.resolve("allure"));
  let dir = dirname(main);
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, "cli.js");
}

/**
 * The child's program: load allure's commands now; on a JSON array of arguments on stdin, run allure's
 * CLI with them; on an empty stdin, leave. allure's CLI reads process.argv when it is imported, so the
 * arguments go into that same array first.
 */
const GENERATOR_SCRIPT = `
import { pathToFileURL } from "node:url";
const cli = process.argv[1];
const preload = import(new URL("dist/commands/index.js", pathToFileURL(cli)).href).catch(() => undefined);
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", async () => {
  if (input.trim() === "") return;
  await preload;
  process.argv.splice(1, process.argv.length, cli, ...JSON.parse(input));
  await import(pathToFileURL(cli).href);
});
`;

export type AllureOutcome = { ok: true; index: string } | { ok: false; reason: string };

export interface AllureGenerator {
  /** Writes the report; once only. */
  generate(resultsDir: string, outDir: string, reportName: string): Promise<AllureOutcome>;
  /** Lets the child go without a report (the run ended another way). */
  dispose(): void;
}

/**
 * Starts the generator's child process now, so that its modules load while the run goes on. `workDir`:
 * its working directory, one of the run's own (the scratch directory that holds the results).
 */
export function startAllureGenerator(workDir: string): AllureGenerator {
  const child = spawn(process.execPath, ["--input-type=module", "-e", GENERATOR_SCRIPT, allureCli()], {
    cwd: workDir,
    stdio: ["pipe", "pipe", "pipe"],
    // GIT_DIR names no repository, so that git finds none, wherever the scratch directory is.
    env: { ...process.env, NO_COLOR: "1", GIT_DIR: devNull },
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  // An early exit or a spawn error is kept for generate to report.
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: Error }>((resolve) => {
    child.once("error", (error) => resolve({ error }));
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
  child.stdin.on("error", () => undefined);
  return {
    generate: (resultsDir, outDir, reportName) => {
      // Absolute: the child does not work where the command was started.
      const out = resolve(outDir);
      child.stdin.end(JSON.stringify(["awesome", resolve(resultsDir), "-o", out, "--single-file", "--report-name", reportName]));
      return awaitReport(child, ended, out, () => output);
    },
    dispose: () => {
      child.stdin.end();
    },
  };
}

/** The report in one step, the generator working in the directory that holds `resultsDir`. */
export async function generateAllureReport(resultsDir: string, outDir: string, reportName: string): Promise<AllureOutcome> {
  return startAllureGenerator(dirname(resolve(resultsDir))).generate(resultsDir, outDir, reportName);
}

async function awaitReport(
  child: ReturnType<typeof spawn>,
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: Error }>,
  outDir: string,
  output: () => string,
): Promise<AllureOutcome> {
  const timer = setTimeout(() => child.kill("SIGKILL"), ALLURE_TIMEOUT_MS);
  const end = await ended;
  clearTimeout(timer);
  if ("error" in end) return { ok: false, reason: end.error.message };
  const { code, signal } = end;
  const index = join(outDir, "index.html");
  if (code !== 0 || !existsSync(index)) {
    return { ok: false, reason: `allure exited ${signal ?? code}: ${output().trim().split("\n").slice(-5).join(" | ")}` };
  }
  const page = withoutAnalytics(readFileSync(index, "utf8"));
  const remote = remoteLoads(page);
  if (remote.length > 0) {
    rmSync(index, { force: true });
    return { ok: false, reason: `the Allure page would load ${remote.join(", ")}; not kept` };
  }
  writeFileSync(index, page);
  return { ok: true, index };
}

/** The awesome plugin's analytics block: gtag.js from googletagmanager.com, then the inline script that configures it. */
const ANALYTICS =
  /<script[^>]*\bsrc="https:\/\/www\.googletagmanager\.com\/[^"]*"[^>]*>\s*<\/script>\s*<script>(?:(?!<\/script>)[\s\S])*?\bgtag\((?:(?!<\/script>)[\s\S])*<\/script>/g;

export function withoutAnalytics(page: string): string {
  return page.replace(ANALYTICS, "");
}

/** Elements of the page (outside data: URLs) that would fetch from the network: script, link, img, iframe … with an http(s) or protocol-relative address. */
export function remoteLoads(page: string): string[] {
  const found =
    page.match(
      /<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*\b(?:src|href|data)\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]+/gi,
    ) ?? [];
  return [...new Set(found.map((m) => m.replace(/^[\s\S]*?((?:https?:)?\/\/[^"'\s>]+)$/, "$1")))];
}
