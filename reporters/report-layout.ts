// The report directory's layout, owned here and nowhere else: where summary.json, summary.md,
// junit.xml, the HTML report and the spec page beside it, the Allure page and the saved request bodies
// go, and how the console names the directory.

import { mkdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";

export class ReportLayout {
  /** The directory, absolute. */
  readonly dir: string;

  /** `--report-dir` as given (relative to the working directory, or absolute). */
  constructor(reportDir: string) {
    this.dir = resolve(reportDir);
  }

  get summary(): string {
    return join(this.dir, "summary.json");
  }

  get junit(): string {
    return join(this.dir, "junit.xml");
  }

  /** The markdown summary for a CI job summary (the same text --format markdown prints). */
  get summaryMarkdown(): string {
    return join(this.dir, "summary.md");
  }

  /** The spec the suite enforces, rendered beside the HTML report that links its sections. */
  get specPage(): string {
    return join(this.dir, "html", "spec.html");
  }

  get htmlIndex(): string {
    return join(this.dir, "html", "index.html");
  }

  get allureDir(): string {
    return join(this.dir, "html", "allure");
  }

  /** The Allure page as the HTML report links it. */
  readonly allureHref = "allure/index.html";

  /** Request bodies too large for a curl line (curl --data-binary @file). */
  get bodiesDir(): string {
    return join(this.dir, "bodies");
  }

  /** How the console names the directory: relative to the working directory when inside it. */
  get display(): string {
    const rel = relative(process.cwd(), this.dir);
    return rel === "" ? "." : rel.startsWith("..") ? this.dir : rel;
  }

  /** Creates the directory and its html/ folder. */
  create(): void {
    mkdirSync(join(this.dir, "html"), { recursive: true });
  }
}
