// html/index.html: the requirement matrix as one self-contained page (inline CSS, no scripts, no
// external resources), so it opens offline from a CI artifact. Requirements by endpoint with status
// badges; under each, the evidence: which checks recorded what, and every failure with its curl line.
// It links to Allure's single-file report beside it when that was generated.

import type { ResultStatus } from "../src/harness/results.ts";
import { escapeControls } from "./escape-controls.ts";
import { countStatuses, verdict, type RequirementOutcome, type RunOutcome } from "./aggregate.ts";

export interface HtmlReportInput {
  readonly outcome: RunOutcome;
  readonly target: string;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly exitCode: number;
  /** Relative link to the Allure report, if it was generated. */
  readonly allureHref?: string;
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
  const { ok, text } = verdict(outcome);
  const counts = countStatuses(outcome.requirements);
  const byEndpoint = groupByEndpoint(outcome.requirements);
  const matrixRows = [...byEndpoint.entries()]
    .map(([endpoint, list]) => {
      const c = countStatuses(list);
      return `<tr><td><a href="#ep-${esc(endpoint)}">${esc(endpointLabel(endpoint))}</a></td>${[c.passed, c.failed, c.warned, c.skipped, c.notApplicable]
        .map((n, i) => `<td class="num${n > 0 ? ` c-${["passed", "failed", "warned", "skipped", "not_applicable"][i]}` : ""}">${n}</td>`)
        .join("")}</tr>`;
    })
    .join("\n");
  const sections = [...byEndpoint.entries()]
    .map(
      ([endpoint, list]) => `<section id="ep-${esc(endpoint)}">
<h2>${esc(endpointLabel(endpoint))}</h2>
${list.map(renderRequirement).join("\n")}
</section>`,
    )
    .join("\n");
  const errors =
    outcome.errors.length === 0
      ? ""
      : `<section class="errors"><h2>Run errors</h2><ul>${outcome.errors.map((e) => `<li>${e.file ? `<code>${esc(e.file)}</code>: ` : ""}<pre>${esc(e.message)}</pre></li>`).join("")}</ul></section>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ledger-conformance: ${esc(input.target)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>ledger-conformance</h1>
<p class="verdict ${ok ? "ok" : "bad"}">${esc(sentenceCase(text))}</p>
<dl>
<dt>Target</dt><dd><code>${esc(input.target)}</code></dd>
<dt>Started</dt><dd>${esc(input.startedAt.toISOString())}</dd>
<dt>Duration</dt><dd>${(input.durationMs / 1000).toFixed(1)} s</dd>
<dt>Requests</dt><dd>${outcome.requests} (${outcome.retries} retries after connection faults)</dd>
<dt>Exit status</dt><dd>${input.exitCode}</dd>
<dt>Requirements</dt><dd>${counts.passed} passed, ${counts.failed} failed, ${counts.warned} warned, ${counts.skipped} skipped, ${counts.notApplicable} n/a</dd>
</dl>
${input.allureHref ? `<p>Test-by-test detail: <a href="${esc(input.allureHref)}">Allure report</a></p>` : ""}
</header>
<main>
${errors}
<section>
<h2>Requirements by endpoint</h2>
<table class="matrix"><thead><tr><th>endpoint</th><th>passed</th><th>failed</th><th>warned</th><th>skipped</th><th>n/a</th></tr></thead>
<tbody>
${matrixRows}
</tbody></table>
</section>
${sections}
</main>
</body>
</html>
`;
}

function renderRequirement(r: RequirementOutcome): string {
  const req = r.requirement;
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
              `<tr><td>${esc(test)}</td><td><code>${esc(e.file)}</code></td><td>${[...e.statuses.entries()]
                .map(([s, n]) => `<span class="badge s-${s}">${n} ${STATUS_LABEL[s]}</span>`)
                .join(" ")}${e.reasons.size > 0 ? ` <span class="reason">${esc([...e.reasons].join("; "))}</span>` : ""}</td></tr>`,
          )
          .join("")}</tbody></table>`;
  const failures =
    r.failures.length === 0
      ? ""
      : `<div class="failures">${r.failures
          .map((f) => `<div class="failure"><pre>${esc(f.message)}</pre>${f.curl ? `<p class="curl-label">replay:</p><pre class="curl">${esc(f.curl)}</pre>` : ""}</div>`)
          .join("")}</div>`;
  const open = r.status === "failed" || r.status === "warned" ? " open" : "";
  const extra = r.expectedFailure ? ' <span class="badge s-skipped">expected by baseline</span>' : "";
  return `<details class="req"${open} id="req-${esc(req.id)}">
<summary><span class="badge s-${r.status}">${STATUS_LABEL[r.status]}</span>${extra} <code>${esc(req.id)}</code> <span class="level">${req.level}</span> <span class="count">${r.checks} result${r.checks === 1 ? "" : "s"}</span><br><span class="text">${esc(req.text)}</span>${r.reason && (r.status === "skipped" || r.status === "not_applicable") ? `<br><span class="reason">${esc(r.reason)}</span>` : ""}</summary>
${failures}
${evidence}
</details>`;
}

/** "NOT CONFORMING: x" → "Not conforming: x". */
function sentenceCase(text: string): string {
  const colon = text.indexOf(":");
  const head = colon < 0 ? text : text.slice(0, colon);
  return `${head.charAt(0)}${head.slice(1).toLowerCase()}${colon < 0 ? "" : text.slice(colon)}`;
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

/** HTML-escaped, with control characters shown (see escape-controls.ts). */
export function esc(s: string): string {
  return escapeControls(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1f24;background:#f6f8fa}
header,main{max-width:1100px;margin:0 auto;padding:16px 24px}
header{background:#fff;border-bottom:1px solid #d0d7de;max-width:none}
h1{margin:0 0 8px;font-size:22px} h2{font-size:18px;margin:24px 0 8px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0} dt{color:#57606a} dd{margin:0}
.verdict{font-weight:600;padding:6px 10px;border-radius:6px;display:inline-block}
.verdict.ok{background:#dafbe1;color:#116329}.verdict.bad{background:#ffebe9;color:#a40e26}
table{border-collapse:collapse;background:#fff;width:100%} th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
.matrix{width:auto} td.num{text-align:right;min-width:56px}
.c-passed{background:#dafbe1}.c-failed{background:#ffebe9;font-weight:600}.c-warned{background:#fff8c5}.c-skipped,.c-not_applicable{background:#eaeef2}
details.req{background:#fff;border:1px solid #d0d7de;border-radius:6px;margin:6px 0;padding:6px 10px}
details.req summary{cursor:pointer}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600}
.s-passed{background:#1f883d;color:#fff}.s-failed{background:#cf222e;color:#fff}.s-warned{background:#bf8700;color:#fff}
.s-skipped{background:#6e7781;color:#fff}.s-not_applicable{background:#8c959f;color:#fff}
.level{font-size:12px;color:#57606a;border:1px solid #d0d7de;border-radius:4px;padding:0 4px}
.count,.reason{color:#57606a;font-size:12px}.text{color:#24292f}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;padding:6px;margin:4px 0;font-size:12px}
pre.curl{background:#0d1117;color:#e6edf3}.curl-label{margin:4px 0 0;font-size:12px;color:#57606a}
.failure{border-left:3px solid #cf222e;padding-left:8px;margin:8px 0}
.evidence{margin-top:6px;font-size:13px}.none{color:#57606a}
.errors pre{background:#ffebe9}
`;
