// Headless Chromium (Debian's package, which .ci/run installs) for tests that must see a page as a
// browser renders it: the node's spec page and the suite's HTML report.

import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_MISSING = `${CHROMIUM} is missing (CI installs Debian's chromium)`;

export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

/** Loads `url` (http: or file:), lets its scripts run for up to `budgetMs` of virtual time, and returns the rendered DOM. */
export async function renderedDom(url: string, budgetMs = 10_000): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), "ledger-chromium-"));
  try {
    const { stdout } = await promisify(execFile)(
      CHROMIUM,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        `--user-data-dir=${profile}`,
        `--virtual-time-budget=${budgetMs}`,
        "--dump-dom",
        url,
      ],
      { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
