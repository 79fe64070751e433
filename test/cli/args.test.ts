// The flags that shape what a run sends and checks: --header (and its redaction), --only/--skip/--level, and the config file
// ledger-conformance.config.json, parsed and validated without running anything.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConformanceArgs, type ConformanceArgs } from "../../src/cli/args.ts";
import { UsageError } from "../../src/harness/usage-error.ts";
import { CONFIG_FILE_NAME, ConfigFileError } from "../../src/cli/config-file.ts";
import { HttpClient } from "../../src/harness/http-client.ts";
import { redactDeep, secretTexts } from "../../src/harness/secrets.ts";
import { filesToLoad, resolvePatterns, whyNotSelected, type CheckSelection } from "../../src/harness/selection.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh working directory holding `config` as ledger-conformance.config.json (when given). */
function workdir(config?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "conformance-config-"));
  dirs.push(dir);
  if (config !== undefined) writeFileSync(join(dir, CONFIG_FILE_NAME), typeof config === "string" ? config : JSON.stringify(config));
  return dir;
}

function parse(argv: string[], env: NodeJS.ProcessEnv = {}, cwd = workdir()): ConformanceArgs {
  const args = parseConformanceArgs(argv, env, cwd);
  if (args === "help" || args === "version") throw new Error(args);
  return args;
}

describe("--header", () => {
  it("is repeatable; names are kept lower case; ${VAR} is read from the environment", () => {
    const args = parse(["--header", "Authorization: Bearer ${NODE_TOKEN}", "--header", "X-Api-Key:  k-1  "], { NODE_TOKEN: "t0k" });
    expect(args.secretHeaders).toEqual({ authorization: "Bearer t0k", "x-api-key": "k-1" });
  });

  it.each([
    ["Host: evil.example", /header Host cannot be set/],
    ["content-length: 3", /header content-length cannot be set/],
    ["Transfer-Encoding: chunked", /cannot be set/],
    ["Accept: text/html", /cannot be set/],
    ["Content-Type: text/plain", /cannot be set/],
    ["no colon here", /--header needs "Name: value"/],
    [": value", /--header needs "Name: value"/],
    ["Bad Name: v", /not an HTTP token/],
    ["X-A: ${UNSET_VARIABLE}", /environment variable UNSET_VARIABLE is not set/],
    ["X-A: a\u001b[2Jb", /other than printable ASCII/],
    ["X-A: caf\u00e9", /other than printable ASCII/],
  ])("refuses %j as a usage error (exit 2)", (header, message) => {
    expect(() => parse(["--header", header])).toThrow(UsageError);
    expect(() => parse(["--header", header])).toThrow(message);
  });

  it("refuses the same name twice", () => {
    expect(() => parse(["--header", "X-A: 1", "--header", "x-a: 2"])).toThrow(/header x-a is given twice/);
  });

  it("is sent by the client and shown as *** in its curl line", () => {
    const client = new HttpClient({ timeoutMs: 1000, maxResponseBytes: 1024, secretHeaders: { authorization: "Bearer s3cret-value" } });
    const curl = client.curlFor({ method: "GET", url: "http://127.0.0.1:1/v1/-/healthy", headers: { accept: "application/json" } });
    expect(curl).toContain("-H 'authorization: ***'");
    expect(curl).not.toContain("s3cret");
  });
});

describe("redaction of what a check recorded", () => {
  it("hides each value, and the token of a 'Scheme token' value on its own, in every string", () => {
    const secrets = secretTexts({ authorization: "Bearer abcdefgh12345678", "x-k": "short" });
    const recorded = { message: 'body: {"echo":"Bearer abcdefgh12345678"} and abcdefgh12345678 and short', list: ["x short"], n: 3 };
    expect(redactDeep(recorded, secrets)).toEqual({ message: 'body: {"echo":"***"} and *** and ***', list: ["x ***"], n: 3 });
  });
});

describe("--only, --skip, --level", () => {
  const files = ["suites/healthy.test.ts", "suites/estimate-gas-price.test.ts", "properties/forms.test.ts"];
  const selection = (only: string[], skip: string[] = [], level: "all" | "must" = "all"): CheckSelection => ({
    only: resolvePatterns(only, files),
    skip: resolvePatterns(skip, files),
    level,
  });
  const healthCheck = { file: "suites/healthy.test.ts", name: "4.7/ok: the node answers", level: "MUST" as const };
  const gasCheck = { file: "suites/estimate-gas-price.test.ts", name: "4.6/gas-estimate-object: …", level: "MUST" as const };
  const formsCheck = { file: "properties/forms.test.ts", name: "2.1/u64-forms-law: … [property]", level: "SHOULD" as const };

  it("a repeated --only is a union, --skip combines too", () => {
    expect(parse(["--only", "a", "--only", "b", "--skip", "c", "--skip", "d"])).toMatchObject({ only: ["a", "b"], skip: ["c", "d"] });
  });

  it("a pattern is a file path substring when a suite file has it, else a check name substring", () => {
    expect(resolvePatterns(["healthy", "4.6/gas"], files)).toEqual([
      { text: "healthy", matches: "file" },
      { text: "4.6/gas", matches: "name" },
    ]);
  });

  it("selects the union of file and name patterns, leaves out what --skip matches, reports why", () => {
    const s = selection(["healthy", "4.6/gas-estimate-object"]);
    expect(whyNotSelected(s, healthCheck)).toBeUndefined();
    expect(whyNotSelected(s, gasCheck)).toBeUndefined();
    expect(whyNotSelected(s, formsCheck)).toBe("not selected by --only healthy, 4.6/gas-estimate-object");
    // A name pattern may match in any file: every file is loaded.
    expect(filesToLoad(s, files)).toEqual(files);
    const skipping = selection([], ["properties/", "4.7/ok"]);
    expect(whyNotSelected(skipping, healthCheck)).toBe("not selected: left out by --skip 4.7/ok");
    expect(whyNotSelected(skipping, gasCheck)).toBeUndefined();
    expect(filesToLoad(skipping, files)).toEqual(["suites/healthy.test.ts", "suites/estimate-gas-price.test.ts"]);
    expect(filesToLoad(selection(["healthy"]), files)).toEqual(["suites/healthy.test.ts"]);
  });

  it("--level must leaves SHOULD requirements out, saying so", () => {
    expect(parse(["--level", "must"]).level).toBe("must");
    expect(whyNotSelected(selection([], [], "must"), formsCheck)).toBe("not run: --level must runs MUST requirements only");
    expect(whyNotSelected(selection([], [], "must"), gasCheck)).toBeUndefined();
  });

  it.each([[["--level", "should"]], [["--only", ""]], [["--skip", ""]]])("refuses %j", (argv) => {
    expect(() => parse(argv)).toThrow(UsageError);
  });
});

describe(`the config file ${CONFIG_FILE_NAME}`, () => {
  it("is read from the working directory; relative paths resolve against its directory; flags override it", () => {
    const dir = workdir({
      target: "https://node.example/v1",
      fixtures: "ci/fixtures.json",
      baseline: "ci/known.txt",
      reportDir: "out",
      profile: "aptos",
      only: ["suites/"],
      level: "must",
      timeout: 2500,
      allowSubmit: true,
      headers: { Authorization: "Bearer ${NODE_TOKEN}", "X-Key": "${NODE_KEY}" },
    });
    const env = { NODE_TOKEN: "tok", NODE_KEY: "key" };
    const args = parse([], env, dir);
    expect(args).toMatchObject({
      target: "https://node.example/v1",
      fixtures: join(dir, "ci/fixtures.json"),
      baseline: join(dir, "ci/known.txt"),
      reportDir: join(dir, "out"),
      profile: "aptos",
      only: ["suites/"],
      level: "must",
      timeoutMs: 2500,
      allowSubmit: true,
      secretHeaders: { authorization: "Bearer tok", "x-key": "key" },
      configFile: join(dir, CONFIG_FILE_NAME),
    });
    const overridden = parse(
      ["--target", "http://127.0.0.1:9/v1", "--only", "healthy", "--timeout", "9", "--header", "authorization: Basic other"],
      env,
      dir,
    );
    expect(overridden).toMatchObject({
      target: "http://127.0.0.1:9/v1",
      only: ["healthy"],
      timeoutMs: 9,
      secretHeaders: { authorization: "Basic other", "x-key": "key" },
    });
  });

  it("holds the run's other flags too: concurrency, format, JUnit per check, baseline writing, comparison, recording", () => {
    const dir = workdir({
      concurrency: 3,
      format: "markdown",
      junitPerCheck: true,
      writeBaseline: "ci/new-baseline.txt",
      compareTo: "http://127.0.0.1:9/v1",
      compareFixtures: "ci/other.json",
      failOnDiff: true,
      record: true,
    });
    expect(parse([], {}, dir)).toMatchObject({
      concurrency: 3,
      format: "markdown",
      junitPerCheck: true,
      writeBaseline: join(dir, "ci/new-baseline.txt"),
      compareTo: "http://127.0.0.1:9/v1",
      compareFixtures: join(dir, "ci/other.json"),
      failOnDiff: true,
      record: true,
    });
    // Flags override them; a flag's check applies to the file's value as to the flag's.
    expect(parse(["--concurrency", "7", "--format", "console"], {}, dir)).toMatchObject({ concurrency: 7, format: "console" });
    expect(() => parse([], {}, workdir({ compareTo: "ftp://x/v1" }))).toThrow(UsageError);
    expect(() => parse([], {}, workdir({ failOnDiff: true }))).toThrow(/--fail-on-diff need --compare-to/);
  });

  it("names a fleet as a list of URLs or a targets file, which --target or --targets on the command line replace", () => {
    const urls = workdir({ targets: ["http://127.0.0.1:1/v1", "http://127.0.0.1:2/v1"] });
    expect(parse([], {}, urls)).toMatchObject({
      target: "http://127.0.0.1:1/v1",
      fleet: ["http://127.0.0.1:1/v1", "http://127.0.0.1:2/v1"],
    });
    const file = workdir({ targets: "ci/fleet.json" });
    expect(parse([], {}, file).targetsFile).toBe(join(file, "ci/fleet.json"));
    // A fleet's node runs get --target: one node, not the file's fleet again.
    const node = parse(["--target", "http://127.0.0.1:3/v1"], {}, file);
    expect(node.target).toBe("http://127.0.0.1:3/v1");
    expect(node.targetsFile).toBeUndefined();
    expect(parse(["--target", "http://127.0.0.1:3/v1"], {}, urls).fleet).toBeUndefined();
    expect(parse(["--targets", "other.json"], {}, workdir({ target: "http://127.0.0.1:1/v1" }))).toMatchObject({
      targetsFile: "other.json",
    });
    expect(parse(["--targets", "other.json"], {}, workdir({ target: "http://127.0.0.1:1/v1" })).target).toBeUndefined();
  });

  it("is read from --config FILE instead, relative to its own directory", () => {
    const dir = workdir();
    writeFileSync(join(dir, "gate.json"), JSON.stringify({ fixtures: "f.json" }));
    expect(parse(["--config", join(dir, "gate.json")]).fixtures).toBe(join(dir, "f.json"));
    expect(() => parse(["--config", join(dir, "missing.json")])).toThrow(/cannot read config file/);
  });

  it("refuses a literal secret without quoting it", () => {
    const dir = workdir({ headers: { Authorization: "Bearer hunter2-literal" } });
    let message = "";
    try {
      parse([], {}, dir);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigFileError);
      message = (e as Error).message;
    }
    expect(message).toMatch(/headers\.Authorization must name an environment variable, as "\$\{NODE_TOKEN\}" or "Bearer \$\{NODE_TOKEN\}"/);
    expect(message).not.toContain("hunter2");
  });

  it.each([
    ["not JSON", "{ target: ", /cannot read config file .*JSON/],
    ["an unknown member", { tagret: "http://x/v1" }, /unknown member "tagret"/],
    ["a bad profile", { profile: "nope" }, /profile must be one of "node", "aptos"/],
    ["a timeout that is not a positive integer", { timeout: 0 }, /timeout must be >= 1/],
    ["an empty pattern list", { only: [] }, /only must be a pattern or a list of patterns/],
    [
      "a header naming an unset variable",
      { headers: { "X-Key": "${NOT_SET}" } },
      /headers\.X-Key: environment variable NOT_SET is not set/,
    ],
    ["a refused header", { headers: { Host: "${H}" } }, /header Host cannot be set/],
    ["a format that is not one", { format: "html" }, /format must be one of "console", "markdown"/],
    ["a concurrency of 0", { concurrency: 0 }, /concurrency must be >= 1/],
    ["both target and targets", { target: "http://h/v1", targets: ["http://h/v1"] }, /target and targets: give one/],
    ["an empty list of targets", { targets: [] }, /targets must be a targets file or a list of URLs/],
    ["a record flag that is not a boolean", { record: "yes" }, /record must be boolean/],
  ])("refuses %s with a clear error (exit 2)", (_what, config, message) => {
    const dir = workdir(config);
    expect(() => parse([], { H: "h" }, dir)).toThrow(ConfigFileError);
    expect(() => parse([], { H: "h" }, dir)).toThrow(message);
  });
});

describe("--load and --load-duration", () => {
  it("leave the laws under load out unless --load is given; its duration defaults to 10 s", () => {
    expect(parse([]).load).toBeUndefined();
    expect(parse(["--load-duration", "30"]).load, "a duration alone asks for no load").toBeUndefined();
    expect(parse(["--load", "32"]).load).toEqual({ clients: 32, durationMs: 10_000 });
    expect(parse(["--load", "8", "--load-duration", "20"]).load).toEqual({ clients: 8, durationMs: 20_000 });
  });

  it("refuse a count or a duration that is not a positive integer", () => {
    for (const argv of [
      ["--load", "0"],
      ["--load", "-3"],
      ["--load", "many"],
      ["--load", "4", "--load-duration", "0"],
    ]) {
      expect(() => parse(argv), argv.join(" ")).toThrow(UsageError);
    }
  });

  it("come from the config file as load and loadDuration, which the command line overrides", () => {
    const cwd = workdir({ load: 16, loadDuration: 5 });
    expect(parse([], {}, cwd).load).toEqual({ clients: 16, durationMs: 5_000 });
    expect(parse(["--load", "4"], {}, cwd).load).toEqual({ clients: 4, durationMs: 5_000 });
  });
});
