// html/index.html: the requirement matrix as one self-contained page (inline CSS and one inline script,
// no external resources), so it opens offline from a CI artifact. At the top the verdict and a "what
// failed" list linking each failing requirement and each group of identical failures; then requirements
// by endpoint with status badges and, under each, the evidence: which checks recorded what, and the
// failures grouped by shape, each failure's curl line shown once. A filter (the inline script) shows only
// failed and warned requirements; every § links to the spec page beside it (spec-page.ts). It links to
// Allure's single-file report beside it when that was generated. A run with a load mode shows, after
// what failed, what the node did under load, with its charts as inline SVG (load-profile-report.ts).
// One node's part is renderNodeReport, so that a page over several nodes can reuse it inside renderPage.

import { describeContentCodings } from "../src/harness/content-coding-tally.ts";
import type { ResultStatus } from "../src/harness/results.ts";
import { escapeHtml as esc } from "./escape-controls.ts";
import { unknownMemberSection } from "./unknown-members-report.ts";
import { loadSection } from "./load-profile-report.ts";
import { declinesSection } from "./declines-report.ts";
import { LOAD_CSS } from "./load-chart.ts";
import { REPORT_CSS } from "./report-style.ts";
import type { RequirementOutcome, RunOutcome } from "../src/outcome/run-outcome.ts";
import { countStatuses } from "./status-counts.ts";
import { groupFailures, messageWithoutCurl, type FailureGroup } from "./failure-groups.ts";
import { linkSections, sectionLink, SPEC_PAGE } from "./spec-page.ts";
import type { Verdict } from "../src/outcome/verdict.ts";
import type { CoverageCounts } from "../src/harness/spec-statements.ts";
import { coverageFigure, packageCoverage } from "./spec-coverage.ts";

export interface HtmlReportInput {
  readonly outcome: RunOutcome;
  readonly target: string;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly exitCode: number;
  readonly verdict: Verdict;
  /** Relative link to the Allure report, if it was generated. */
  readonly allureHref?: string;
  /** How much of the spec the suite checks; absent: the package's (schemas/spec-statements.yaml). */
  readonly coverage?: CoverageCounts;
}

/** One node's results, as renderNodeReport shows them. */
export interface NodeReportInput {
  readonly outcome: RunOutcome;
  readonly target: string;
  /** Put before every anchor of this node's part, so that several nodes' parts can share a page. */
  readonly anchorPrefix?: string;
}

const STATUS_LABEL: Record<ResultStatus, string> = {
  passed: "passed",
  failed: "failed",
  warned: "warned",
  skipped: "skipped",
  not_applicable: "n/a",
};

export function renderHtmlReport(input: HtmlReportInput): string {
  const { outcome } = input;
  const counts = countStatuses(outcome.requirements);
  const header = `${verdictBanner(input.verdict)}
<dl>
<dt>Target</dt><dd><code>${esc(input.target)}</code></dd>
<dt>Started</dt><dd>${esc(input.startedAt.toISOString())}</dd>
<dt>Duration</dt><dd>${(input.durationMs / 1000).toFixed(1)} s</dd>
<dt>Requests</dt><dd>${outcome.requests} (${outcome.retries} retries after connection faults)</dd>
${outcome.contentCodings === undefined ? "" : `<dt>Content codings</dt><dd>${esc(describeContentCodings(outcome.contentCodings))} (read whether asked or not, RFC 9110 §12.5.3)</dd>`}
<dt>Exit status</dt><dd>${input.exitCode}</dd>
<dt>Requirements</dt><dd>${counts.passed} passed, ${counts.failed} failed, ${counts.warned} warned, ${counts.skipped} skipped, ${counts.notApplicable} n/a</dd>
<dt>Spec coverage</dt><dd>${esc(coverageFigure(input.coverage ?? packageCoverage()))}: <a href="${SPEC_PAGE}#coverage">what a pass covers</a></dd>
${outcome.baseline === undefined ? "" : `<dt>Baseline</dt><dd><code>${esc(outcome.baseline.file)}</code> (${outcome.baseline.ids.length} expected failures listed)</dd>`}
</dl>
<p>The spec these requirements come from: <a href="${SPEC_PAGE}">the ledger node REST interface</a>.${input.allureHref ? ` Test-by-test detail: <a href="${esc(input.allureHref)}">Allure report</a>.` : ""}</p>`;
  return renderPage({ title: `ledger-conformance: ${input.target}`, header, main: renderNodeReport({ outcome, target: input.target }) });
}

/** The page around one node's part or several: its styles, the header (under the title) and the filter with its script. */
export function renderPage(page: { readonly title: string; readonly header: string; readonly main: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.title)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>ledger-conformance</h1>
${page.header}
${FILTER}
</header>
<main>
${page.main}
</main>
${FILTER_SCRIPT}
</body>
</html>
`;
}

/** The verdict in the words every report uses, coloured by its kind. */
export function verdictBanner(verdict: Verdict): string {
  const label = verdict.label.charAt(0) + verdict.label.slice(1).toLowerCase();
  return `<p class="verdict v-${verdict.kind}" data-verdict="${verdict.kind}">${esc(label)}: ${esc(verdict.detail)}</p>`;
}

/** One node's part of a page: what failed, the matrix by endpoint, and every requirement with its evidence. */
export function renderNodeReport(node: NodeReportInput): string {
  const { outcome } = node;
  const prefix = node.anchorPrefix ?? "";
  const byEndpoint = groupByEndpoint(outcome.requirements);
  const matrixRows = [...byEndpoint.entries()]
    .map(([endpoint, list]) => {
      const c = countStatuses(list);
      return `<tr><td><a href="#${esc(prefix)}ep-${esc(endpoint)}">${esc(endpointLabel(endpoint))}</a></td>${[
        c.passed,
        c.failed,
        c.warned,
        c.skipped,
        c.notApplicable,
      ]
        .map((n, i) => `<td class="num${n > 0 ? ` c-${["passed", "failed", "warned", "skipped", "not_applicable"][i]}` : ""}">${n}</td>`)
        .join("")}</tr>`;
    })
    .join("\n");
  const sections = [...byEndpoint.entries()]
    .map(
      ([endpoint, list]) => `<section class="endpoint" id="${esc(prefix)}ep-${esc(endpoint)}">
<h2>${esc(endpointLabel(endpoint))}</h2>
${list.map((r) => renderRequirement(r, prefix)).join("\n")}
</section>`,
    )
    .join("\n");
  const errors =
    outcome.errors.length === 0
      ? ""
      : `<section class="errors" id="${esc(prefix)}run-errors"><h2>Run errors</h2><ul>${outcome.errors.map((e) => `<li>${e.file ? `<code>${esc(e.file)}</code>: ` : ""}<pre>${esc(e.message)}</pre></li>`).join("")}</ul></section>`;
  return `${whatFailed(outcome, prefix)}
${errors}
${loadSection(outcome.loadProfile, prefix)}
${declinesSection(outcome.declines, prefix)}
<section>
<h2>Requirements by endpoint</h2>
<table class="matrix"><thead><tr><th>endpoint</th><th>passed</th><th>failed</th><th>warned</th><th>skipped</th><th>n/a</th></tr></thead>
<tbody>
${matrixRows}
</tbody></table>
</section>
${sections}
${unknownMemberSection(outcome.unknownMembers, prefix)}`;
}

/** The list at the top: the gate's failures first, then the baseline's expected ones, then warnings; each group of identical failures with its count. */
function whatFailed(outcome: RunOutcome, prefix: string): string {
  const rank = (r: RequirementOutcome) => (r.status === "failed" && !r.expectedFailure ? 0 : r.expectedFailure ? 1 : 2);
  const failing = outcome.requirements.filter((r) => r.status === "failed" || r.status === "warned").sort((a, b) => rank(a) - rank(b));
  const items = failing.map((r) => {
    const id = `${prefix}req-${r.requirement.id}`;
    const groups = groupFailures(r.failures);
    const groupItems = groups
      .map(
        (g, i) =>
          `<li><a href="#${esc(id)}-g${i + 1}">${esc(firstLine(g.failures[0]?.message ?? ""))}</a>${g.failures.length > 1 ? ` <span class="times">×${g.failures.length}</span>` : ""}</li>`,
      )
      .join("");
    return `<li>${statusBadge(r)} <a href="#${esc(id)}"><code>${esc(r.requirement.id)}</code></a> ${sectionLink(r.requirement.section)} <span class="level">${r.requirement.level}</span> ${linkSections(esc(r.requirement.text))}${groupItems === "" ? "" : `<ul class="groups">${groupItems}</ul>`}</li>`;
  });
  if (outcome.interruption !== undefined) {
    const what =
      outcome.interruption.kind === "not_started"
        ? "nothing could be tested"
        : "the run stopped before its end; the checks that did not run are skipped";
    items.unshift(`<li><span class="badge s-skipped">not run</span> ${what}: ${esc(outcome.interruption.reason)}</li>`);
  }
  if (outcome.errors.length > 0)
    items.unshift(
      `<li><span class="badge s-failed">error</span> <a href="#${esc(prefix)}run-errors">${outcome.errors.length} run error${outcome.errors.length === 1 ? "" : "s"}</a></li>`,
    );
  const body =
    items.length === 0 ? `<p class="none">No requirement failed or warned.</p>` : `<ol class="failed-list">${items.join("\n")}</ol>`;
  return `<section class="what-failed" id="${esc(prefix)}what-failed"><h2>What failed${items.length === 0 ? "" : ` (${items.length})`}</h2>${body}</section>`;
}

function renderRequirement(r: RequirementOutcome, prefix: string): string {
  const req = r.requirement;
  const id = `${prefix}req-${req.id}`;
  const byTest = new Map<string, { file: string; statuses: Map<ResultStatus, number>; reasons: Set<string> }>();
  for (const e of r.evidence) {
    const entry = byTest.get(e.test) ?? { file: e.file, statuses: new Map(), reasons: new Set<string>() };
    entry.statuses.set(e.result.status, (entry.statuses.get(e.result.status) ?? 0) + 1);
    if (e.result.reason) entry.reasons.add(e.result.reason);
    byTest.set(e.test, entry);
  }
  const evidence =
    byTest.size === 0
      ? `<p class="none">No check exercised this requirement${r.reason ? ` (${esc(r.reason)})` : ""}.</p>`
      : `<table class="evidence"><thead><tr><th>check</th><th>file</th><th>results</th></tr></thead><tbody>${[...byTest.entries()]
          .map(
            ([test, e]) =>
              `<tr><td>${linkSections(esc(test))}</td><td><code>${esc(e.file)}</code></td><td>${[...e.statuses.entries()]
                .map(([s, n]) => `<span class="badge s-${s}">${n} ${STATUS_LABEL[s]}</span>`)
                .join(" ")}${e.reasons.size > 0 ? ` <span class="reason">${esc([...e.reasons].join("; "))}</span>` : ""}</td></tr>`,
          )
          .join("")}</tbody></table>`;
  const recorded = r.evidence.reduce((n, e) => n + e.result.failures.length, 0);
  const failures =
    r.failures.length === 0
      ? ""
      : `<div class="failures">${groupFailures(r.failures)
          .map((g, i) => renderGroup(g, `${id}-g${i + 1}`))
          .join(
            "",
          )}${recorded > r.failures.length ? `<p class="reason">The first ${r.failures.length} of ${recorded} failures are kept.</p>` : ""}</div>`;
  const open = r.status === "failed" || r.status === "warned" ? " open" : "";
  return `<details class="req" data-status="${r.status}"${open} id="${esc(id)}">
<summary>${statusBadge(r)} <code>${esc(req.id)}</code> ${sectionLink(req.section)} <span class="level">${req.level}</span> <span class="count">${r.checks} result${r.checks === 1 ? "" : "s"}</span><br><span class="text">${linkSections(esc(req.text))}</span>${r.reason && (r.status === "skipped" || r.status === "not_applicable") ? `<br><span class="reason">${esc(r.reason)}</span>` : ""}</summary>
${failures}
${evidence}
</details>`;
}

/** A group of identical failures: the first in full with its curl, the others by their curl lines alone. */
function renderGroup(g: FailureGroup, anchor: string): string {
  const [first, ...others] = g.failures;
  if (first === undefined) return "";
  const { text, curlShown } = messageWithoutCurl(first);
  const count = g.failures.length > 1 ? `<p class="times">${g.failures.length} failures of this shape</p>` : "";
  const curl = curlShown || first.curl === null ? "" : `<p class="curl-label">replay:</p><pre class="curl">${esc(first.curl)}</pre>`;
  const more =
    others.length === 0
      ? ""
      : `<details class="more"><summary>the ${others.length} other${others.length === 1 ? "" : "s"} of this shape</summary>${others
          .map((f) => {
            const m = messageWithoutCurl(f);
            return `<pre class="other">${esc(firstLine(f.message))}</pre>${m.curlShown || f.curl === null ? "" : `<pre class="curl">${esc(f.curl)}</pre>`}`;
          })
          .join("")}</details>`;
  return `<div class="failure" id="${esc(anchor)}">${count}<pre>${linkSections(esc(text))}</pre>${curl}${more}</div>`;
}

function statusBadge(r: RequirementOutcome): string {
  const extra = r.expectedFailure
    ? ' <span class="badge s-expected">expected by baseline</span>'
    : r.unexpectedPass
      ? ' <span class="badge s-failed">baselined, but passes</span>'
      : "";
  return `<span class="badge s-${r.status}">${STATUS_LABEL[r.status]}</span>${extra}`;
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? "";
}

function groupByEndpoint(requirements: readonly RequirementOutcome[]): Map<string, RequirementOutcome[]> {
  const map = new Map<string, RequirementOutcome[]>();
  for (const r of requirements) {
    const list = map.get(r.requirement.endpoint) ?? [];
    list.push(r);
    map.set(r.requirement.endpoint, list);
  }
  return new Map([...map.entries()].sort(([a], [b]) => (a === "*" ? -1 : b === "*" ? 1 : a.localeCompare(b))));
}

function endpointLabel(endpoint: string): string {
  return endpoint === "*" ? "Every response (cross-cutting)" : endpoint;
}

/** Hidden until the script runs (it does nothing without it); `?only=failing` in the URL starts it checked. */
const FILTER = `<p class="filter" hidden><label><input type="checkbox" id="only-failing"> show only failed and warned requirements</label></p>`;

const FILTER_SCRIPT = `<script>
(function () {
  var box = document.getElementById("only-failing");
  if (!box) return;
  box.parentElement.parentElement.hidden = false;
  function apply() {
    var on = box.checked;
    document.querySelectorAll("details.req").forEach(function (d) {
      var s = d.getAttribute("data-status");
      d.hidden = on && s !== "failed" && s !== "warned";
    });
    document.querySelectorAll("section.endpoint").forEach(function (section) {
      section.hidden = on && !section.querySelector("details.req:not([hidden])");
    });
  }
  box.addEventListener("change", apply);
  if (new URLSearchParams(location.search).get("only") === "failing") box.checked = true;
  apply();
})();
</script>`;

const CSS = `${REPORT_CSS}${LOAD_CSS}
header,main{max-width:1100px} header{max-width:none}
table{width:100%} th,td{padding:4px 8px}
.matrix{width:auto} td.num{min-width:56px}
.what-failed{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:4px 16px}
.failed-list li{margin:4px 0}.groups{margin:2px 0;font-size:13px}.times{color:#a40e26;font-weight:600;font-size:12px;margin:0}
details.req summary{cursor:pointer}
.s-expected{background:#6e7781;color:#fff}
a.sec{font-size:12px}
.text{color:#24292f}
details.more summary{font-size:12px;color:#57606a;cursor:pointer}
.evidence{margin-top:6px;font-size:13px}.none{color:#57606a}
`;
