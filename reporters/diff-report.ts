// The report of `ledger-conformance diff RUN_A RUN_B`: the console text and one HTML page (the JSON is
// the RunDiff itself, diff.json). Everything a run recorded came from a target and is escaped.

import type { RunDiff } from "../src/harness/recording-diff.ts";
import { escapeControls, escapeHtml as esc } from "./escape-controls.ts";

/** Console lines beyond this many changed exchanges are left to the report files. */
const CONSOLE_EXCHANGES = 30;

export function renderDiffConsole(diff: RunDiff, reportDir: string): string {
  const lines = [`diff ${diff.runA.dir} (${diff.runA.startedAt}) → ${diff.runB.dir} (${diff.runB.startedAt})`];
  lines.push(`requirements whose verdict changed: ${diff.requirements.length} (${diff.regressions} passed → failed)`);
  for (const r of diff.requirements) lines.push(`  ${r.regression ? "REGRESSION " : ""}${r.id} [${r.level}]: ${r.from} → ${r.to}`);
  if ("notCompared" in diff.exchanges) lines.push(`exchanges: ${diff.exchanges.notCompared}`);
  else {
    const x = diff.exchanges;
    lines.push(
      `exchanges: ${x.matched} request keys in both runs (${x.onlyInA} only in A, ${x.onlyInB} only in B), ${x.changed.length} changed`,
    );
    for (const c of x.changed.slice(0, CONSOLE_EXCHANGES))
      lines.push(
        `  ${c.change} changed: ${c.key}${c.at === undefined ? "" : ` at ${c.at}`}: ${c.a} → ${c.b} (${c.requirements.join(", ")})`,
      );
    if (x.changed.length > CONSOLE_EXCHANGES) lines.push(`  … ${x.changed.length - CONSOLE_EXCHANGES} more in the report`);
  }
  lines.push(`report: ${reportDir}/diff.json, ${reportDir}/diff.html`);
  return escapeControls(`${lines.join("\n")}\n`);
}

export function renderDiffHtml(diff: RunDiff): string {
  const reqRows = diff.requirements
    .map(
      (r) =>
        `<tr${r.regression ? ' class="regression"' : ""}><td><code>${esc(r.id)}</code></td><td>${esc(r.level)}</td><td>${esc(r.from)}</td><td>${esc(r.to)}</td></tr>`,
    )
    .join("\n");
  const exchanges =
    "notCompared" in diff.exchanges
      ? `<p>${esc(diff.exchanges.notCompared)}</p>`
      : `<p>${diff.exchanges.matched} request keys in both runs (${diff.exchanges.onlyInA} only in A, ${diff.exchanges.onlyInB} only in B); ${diff.exchanges.changed.length} changed.</p>
<table><thead><tr><th>request</th><th>change</th><th>A</th><th>B</th><th>requirements</th></tr></thead><tbody>
${diff.exchanges.changed
  .map(
    (c) =>
      `<tr><td><code>${esc(c.key)}</code><pre>${esc(c.curlA)}</pre><pre>${esc(c.curlB)}</pre></td><td>${esc(c.change)}${c.at === undefined ? "" : ` at <code>${esc(c.at)}</code>`}</td><td>${esc(c.a)}</td><td>${esc(c.b)}</td><td>${c.requirements.map((id) => `<code>${esc(id)}</code>`).join(" ")}</td></tr>`,
  )
  .join("\n")}
</tbody></table>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>ledger-conformance diff</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px 24px;color:#1b1f24}
table{border-collapse:collapse;width:100%} th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
pre{white-space:pre-wrap;word-break:break-all;margin:4px 0;font-size:12px} tr.regression{background:#ffebe9}
</style>
</head>
<body>
<h1>ledger-conformance diff</h1>
<p class="verdict">${diff.regressions === 0 ? "No requirement went from passed to failed." : `${diff.regressions} requirement(s) went from passed to failed.`}</p>
<dl><dt>Run A</dt><dd><code>${esc(diff.runA.dir)}</code>: ${esc(diff.runA.target)}, ${esc(diff.runA.startedAt)}</dd>
<dt>Run B</dt><dd><code>${esc(diff.runB.dir)}</code>: ${esc(diff.runB.target)}, ${esc(diff.runB.startedAt)}</dd></dl>
<h2>Requirements whose verdict changed</h2>
${diff.requirements.length === 0 ? "<p>None.</p>" : `<table><thead><tr><th>requirement</th><th>level</th><th>A</th><th>B</th></tr></thead><tbody>\n${reqRows}\n</tbody></table>`}
<h2>Exchanges whose answer changed shape</h2>
${exchanges}
</body>
</html>
`;
}
