// The look both HTML pages share, the one-node report (html-report.ts) and the fleet's matrix
// (matrix-html.ts): page frame, verdict banner (a class per verdict kind), status cells and badges,
// requirement entries, failures with their curl lines. Each page adds only its own rules.

export const REPORT_CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1f24;background:#f6f8fa}
header,main{margin:0 auto;padding:16px 24px}
header{background:#fff;border-bottom:1px solid #d0d7de;max-width:none}
h1{margin:0 0 8px;font-size:22px} h2{font-size:18px;margin:24px 0 8px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0} dt{color:#57606a} dd{margin:0}
.verdict{font-weight:600;padding:6px 10px;border-radius:6px;display:inline-block}
.v-conforming{background:#dafbe1;color:#116329}.v-conforming-with-baseline,.v-partial{background:#fff8c5;color:#7d4e00}.v-not-conforming{background:#ffebe9;color:#a40e26}
table{border-collapse:collapse;background:#fff} th,td{border:1px solid #d0d7de;text-align:left;vertical-align:top}
td.num{text-align:right}
.c-passed{background:#dafbe1}.c-failed{background:#ffebe9;font-weight:600}.c-warned{background:#fff8c5}.c-skipped,.c-not_applicable{background:#eaeef2}
details.req{background:#fff;border:1px solid #d0d7de;border-radius:6px;margin:6px 0;padding:6px 10px}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600}
.s-passed{background:#1f883d;color:#fff}.s-failed{background:#cf222e;color:#fff}.s-warned{background:#bf8700;color:#fff}
.s-skipped{background:#6e7781;color:#fff}.s-not_applicable{background:#8c959f;color:#fff}
.level{font-size:12px;color:#57606a;border:1px solid #d0d7de;border-radius:4px;padding:0 4px}
.count,.reason{color:#57606a;font-size:12px}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;padding:6px;margin:4px 0;font-size:12px}
pre.curl{background:#0d1117;color:#e6edf3}.curl-label{margin:4px 0 0;font-size:12px;color:#57606a}
.failure{border-left:3px solid #cf222e;padding-left:8px;margin:8px 0}
.errors pre{background:#ffebe9}
`;
