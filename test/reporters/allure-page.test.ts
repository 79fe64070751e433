// The Allure page is made from the run's results alone: not from the directory the command was started
// in. There, a project's allurerc.* would configure (and run code in) allure's CLI, and outside a known CI
// allure writes `git remote get-url origin` into the page, credentials and all.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateAllureReport } from "../../reporters/allure-page.ts";
import { allurePageText } from "../support/allure-page-text.ts";

const TOKEN = "ghp_0123456789abcdefSECRET";
const scratch = mkdtempSync(join(tmpdir(), "allure-page-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A node team's repository: an origin URL with a token in it, and an allurerc that would leave a mark. */
function projectRepository(): { dir: string; marker: string } {
  const dir = join(scratch, "project");
  mkdirSync(dir);
  execFileSync("git", ["init", "-q", dir]);
  execFileSync("git", ["-C", dir, "remote", "add", "origin", `https://ci:${TOKEN}@github.com/acme-labs/node.git`]);
  const marker = join(scratch, "allurerc-ran");
  writeFileSync(
    join(dir, "allurerc.mjs"),
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default {};\n`,
  );
  return { dir, marker };
}

/** One passed result, as allure-vitest writes them. */
function results(): string {
  const dir = join(scratch, "run", "allure-results");
  mkdirSync(dir, { recursive: true });
  const uuid = "5c0e2a34-9a3e-4d5e-8f43-0d6b1f1d2c3a";
  const now = Date.now();
  writeFileSync(
    join(dir, `${uuid}-result.json`),
    JSON.stringify({
      uuid,
      name: "4.6/gas-estimate-object holds",
      fullName: "estimate_gas_price 4.6/gas-estimate-object",
      status: "passed",
      stage: "finished",
      start: now,
      stop: now,
      labels: [{ name: "story", value: "4.6/gas-estimate-object" }],
      steps: [],
      attachments: [],
      parameters: [],
      links: [],
    }),
  );
  return dir;
}

describe("the Allure page", () => {
  it("is made outside the command's working directory: no project allurerc runs, no origin URL (nor its token) is written", async () => {
    const project = projectRepository();
    const resultsDir = results();
    const started = process.cwd();
    process.chdir(project.dir);
    try {
      // Relative, as the command gives it (reports/html/allure): still written where the command runs.
      const outcome = await generateAllureReport(resultsDir, join("reports", "allure"), "conformance");
      expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    } finally {
      process.chdir(started);
    }
    const index = join(project.dir, "reports", "allure", "index.html");
    expect(existsSync(index), "index.html under the command's working directory").toBe(true);
    const page = allurePageText(readFileSync(index, "utf8"));
    expect(page).toContain("4.6/gas-estimate-object");
    expect.soft(page, "the origin URL's token").not.toContain(TOKEN);
    expect.soft(page, "the origin's repository").not.toContain("acme-labs");
    expect(existsSync(project.marker), "the project's allurerc.mjs was not run").toBe(false);
  }, 60_000);
});
