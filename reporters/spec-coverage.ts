// How much of the spec the suite checks: the coverage map of schemas/spec-statements.yaml (every
// normative statement of the spec with the requirements that enforce it, or why none can), as every
// report states it. The figure is the package's, the same for every run of one version: a pass means
// that the covered statements held, partly so for the partial ones, and says nothing of the uncovered
// and untestable ones. The map is read once per process.

import { type CoverageCounts, loadStatements, type SpecStatements } from "../src/harness/spec-statements.ts";

let statements: SpecStatements | undefined;

/** The package's map of the spec's statements (schemas/spec-statements.yaml), loaded once. */
export function packageStatements(): SpecStatements {
  statements ??= loadStatements();
  return statements;
}

/** The package's coverage figure: summary.json's `coverage`. */
export function packageCoverage(): CoverageCounts {
  const { statements: total, covered, partial, uncovered, untestable } = packageStatements().coverage();
  return { statements: total, covered, partial, uncovered, untestable };
}

/** "127 statements: 120 covered, 0 partial, 0 uncovered, 7 untestable". */
export function coverageFigure(c: CoverageCounts): string {
  return `${c.statements} statement${c.statements === 1 ? "" : "s"}: ${c.covered} covered, ${c.partial} partial, ${c.uncovered} uncovered, ${c.untestable} untestable`;
}

/** The line the console and summary.md give: the figure and where the statements are shown. */
export function coverageLine(c: CoverageCounts, specPage = "html/spec.html"): string {
  return `spec coverage: ${coverageFigure(c)} (see ${specPage})`;
}
