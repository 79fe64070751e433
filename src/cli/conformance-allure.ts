// Allure 3's single-file HTML report from the allure-results the allure-vitest reporter wrote: the page
// `allure awesome RESULTS -o OUT --single-file` makes, built by the classes that command uses
// (AllureReport from @allurereport/core with the awesome plugin: allure dist/commands/awesome.js), in a
// child process with a time limit. A failure here is reported as a warning: the requirement matrix and
// summary.json do not depend on it.
//
// The child is started when the first check starts (startAllureGenerator), at a lower priority. It
// loads allure's modules while the checks run, with the CPU they leave, and reads each results file as
// the command writes it (read), so that once the run ends only the page is left to make (generate):
// about 0.75 s in the child, where reading the ~550 files first took 0.3 s more.
//
// The child works in the run's scratch directory, never in the directory the command was started in,
// and sees no git repository. allure reads a configuration file from its working directory (allurerc.js,
// .mjs, .json, .yaml …: @allurereport/core dist/config.js), which would run a project's own Allure set-up
// (plugins, uploads) on this report. Outside a known CI it also reads `git remote get-url origin` and the
// branch (@allurereport/ci dist/detectors/local.js) and writes them into the page: an origin URL can hold
// credentials (https://user:token@host/…), and the page is about the node under test, not about the
// repository the command runs in.

import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { devNull, setPriority } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ALLURE_TIMEOUT_MS = 120_000;

/** allure's package exports no cli.js, so find it beside the package's main module: the child resolves allure's own modules from there. */
function allureCli(): string {
  const main = fileURLToPath(import.meta.resolve("allure"));
  let dir = dirname(main);
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, "cli.js");
}

/**
 * The child's program, given allure's cli.js, the output directory and the report's name: start the
 * report as `allure awesome --single-file` would; then, one JSON line at a time on stdin, `{"read":
 * FILE}` reads a results file into it and `{"done":true}` writes the page and leaves. An stdin that
 * ends before "done" leaves without a page.
 */
const GENERATOR_SCRIPT = `
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
const [cli, output, name] = process.argv.slice(1);
const fromAllure = (id) => import(pathToFileURL(createRequire(cli).resolve(id)).href);
const started = (async () => {
  const [{ AllureReport, readConfig }, { default: AwesomePlugin }] = await Promise.all([fromAllure("@allurereport/core"), fromAllure("@allurereport/plugin-awesome")]);
  const config = await readConfig(process.cwd(), undefined, { output, name });
  const options = { singleFile: true, groupBy: ["parentSuite", "suite", "subSuite"] };
  config.plugins = [{ id: "awesome", enabled: true, options, plugin: new AwesomePlugin(options) }];
  const report = new AllureReport(config);
  await report.start();
  return report;
})();
let steps = started;
const fail = (e) => { process.stderr.write(String(e && e.stack || e) + "\\n"); process.exit(1); };
createInterface({ input: process.stdin })
  .on("line", (line) => {
    const message = JSON.parse(line);
    steps = steps.then(async (report) => {
      if (message.read !== undefined) await report.readFile(message.read);
      if (message.done === true) { await report.done(); process.exit(0); }
      return report;
    }).catch(fail);
  })
  .on("close", () => steps.then(() => process.exit(0), fail));
`;

export type AllureOutcome = { ok: true; index: string } | { ok: false; reason: string };

export interface AllureGenerator {
  /** Reads a results file now, while the run goes on (its writer calls this for each file it writes). */
  read(file: string): void;
  /** Reads what `resultsDir` holds that read was not given, and writes the report; once only. */
  generate(resultsDir: string): Promise<AllureOutcome>;
  /** Lets the child go without a report (the run ended another way). */
  dispose(): void;
}

/**
 * Starts the generator's child process now, so that its modules load while the run goes on. `workDir`:
 * its working directory, one of the run's own (the scratch directory that holds the results); `outDir`
 * and `reportName`: the page's directory and title.
 */
export function startAllureGenerator(workDir: string, outDir: string, reportName: string): AllureGenerator {
  // Absolute: the child does not work where the command was started.
  const out = resolve(outDir);
  const child = spawn(process.execPath, ["--input-type=module", "-e", GENERATOR_SCRIPT, allureCli(), out, reportName], {
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
  lowerPriority(child.pid);
  const sent = new Set<string>();
  const read = (file: string) => {
    const path = resolve(file);
    if (sent.has(path) || child.stdin.writableEnded) return;
    sent.add(path);
    child.stdin.write(`${JSON.stringify({ read: path })}\n`);
  };
  return {
    read,
    generate: (resultsDir) => {
      // The files written before the generator started, or by a writer that did not say.
      if (existsSync(resultsDir)) for (const name of readdirSync(resultsDir).sort()) read(join(resultsDir, name));
      child.stdin.end(`${JSON.stringify({ done: true })}\n`);
      return awaitReport(child, ended, out, () => output);
    },
    dispose: () => {
      child.stdin.end();
    },
  };
}

/**
 * The child's niceness while the run goes on. Its loading and reading use CPU the checks, the workers
 * and the embedded node would otherwise get: at nice 10 it takes what they leave (CFS weighs it 110
 * against their 1024), and at the end, when it makes the page, nothing else wants the CPU. Not 19: on
 * a machine busy with other work the page would then wait on all of it. The run's default, compiled,
 * on 2 cores: 0.91x the wall time (6 pairs), where reading as the files are written without it gained
 * nothing (the checks slowed by what the page's end gained).
 */
const GENERATOR_NICENESS = 10;

function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, GENERATOR_NICENESS);
  } catch {
    // Not permitted here: the page is made at the command's own priority.
  }
}

/** The report in one step, the generator working in the directory that holds `resultsDir`. */
export async function generateAllureReport(resultsDir: string, outDir: string, reportName: string): Promise<AllureOutcome> {
  return startAllureGenerator(dirname(resolve(resultsDir)), outDir, reportName).generate(resultsDir);
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
const ANALYTICS = /<script[^>]*\bsrc="https:\/\/www\.googletagmanager\.com\/[^"]*"[^>]*>\s*<\/script>\s*<script>(?:(?!<\/script>)[\s\S])*?\bgtag\((?:(?!<\/script>)[\s\S])*<\/script>/g;

export function withoutAnalytics(page: string): string {
  return page.replace(ANALYTICS, "");
}

/** Elements of the page (outside data: URLs) that would fetch from the network: script, link, img, iframe … with an http(s) or protocol-relative address. */
export function remoteLoads(page: string): string[] {
  const found = page.match(/<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*\b(?:src|href|data)\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]+/gi) ?? [];
  return [...new Set(found.map((m) => m.replace(/^[\s\S]*?((?:https?:)?\/\/[^"'\s>]+)$/, "$1")))];
}
