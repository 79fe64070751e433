// The spec the suite enforces (spec/ledger-node-rest-interface.md, shipped with the package) as a page
// beside the HTML report, html/spec.html, with an anchor per numbered section (spec.html#4.5), so that
// every § the report cites links to its text. The spec's markdown is plain (headings, tables, lists,
// paragraphs): this renders exactly those, escaping every character of it, with no markdown library.

import { readFileSync } from "node:fs";
import { packagePath } from "../src/package-root.ts";
import { escapeHtml } from "./escape-controls.ts";

export const SPEC_PATH = packagePath("spec", "ledger-node-rest-interface.md");

/** The spec page's file name in the report's html/ directory, beside index.html. */
export const SPEC_PAGE = "spec.html";

export function readSpec(): string {
  return readFileSync(SPEC_PATH, "utf8");
}

/** The link to a section of the spec page, e.g. "spec.html#4.5". */
export function specHref(section: string): string {
  return `${SPEC_PAGE}#${encodeURIComponent(section)}`;
}

/** `§4.5` as a link to the spec page. */
export function sectionLink(section: string): string {
  return `<a class="sec" href="${escapeHtml(specHref(section))}">§${escapeHtml(section)}</a>`;
}

/** In HTML-escaped text, every §N.N of the spec as a link to the spec page ("design §5" is another document's). */
export function linkSections(escapedHtml: string): string {
  return escapedHtml.replace(/(?<!design )§([0-9]+(?:\.[0-9]+)*)/g, (_m, section: string) => sectionLink(section));
}

const HEADING = /^(#{1,6})\s+(.*)$/;
const NUMBERED = /^([0-9]+(?:\.[0-9]+)*)\.?\s/;

export function renderSpecPage(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  const toc: string[] = [];
  let title = "Specification";
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (line.trim() === "") {
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = (heading[1] ?? "#").length;
      const text = heading[2] ?? "";
      const section = NUMBERED.exec(text)?.[1];
      if (level === 1) title = text;
      if (section !== undefined) toc.push(`<li class="toc-${level}"><a href="#${escapeHtml(section)}">${escapeHtml(text)}</a></li>`);
      out.push(`<h${level}${section === undefined ? "" : ` id="${escapeHtml(section)}"`}>${inline(text)}${section === undefined ? "" : ` <a class="anchor" href="#${escapeHtml(section)}">#</a>`}</h${level}>`);
      i++;
      continue;
    }
    const block: string[] = [];
    const kind = line.startsWith("|") ? "table" : /^(- |[0-9]+\. )/.test(line) ? "list" : "paragraph";
    while (i < lines.length) {
      const l = lines[i] ?? "";
      if (l.trim() === "" || HEADING.test(l)) break;
      if (kind === "table" && !l.startsWith("|")) break;
      block.push(l);
      i++;
    }
    out.push(kind === "table" ? table(block) : kind === "list" ? list(block) : `<p>${inline(block.join(" "))}</p>`);
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<nav><p><a href="index.html">← the report</a></p><ol class="toc">${toc.join("")}</ol></nav>
<main>
${out.join("\n")}
</main>
</body>
</html>
`;
}

function table(rows: readonly string[]): string {
  const cells = (row: string) =>
    row
      .replace(/^\|/, "")
      .replace(/\|\s*$/, "")
      .split(/(?<!\\)\|/)
      .map((c) => c.replace(/\\\|/g, "|").trim());
  const [head, separator, ...body] = rows;
  const hasHead = separator !== undefined && /^\|?\s*:?-+/.test(separator);
  const bodyRows = hasHead ? body : rows;
  const th = hasHead && head !== undefined ? `<thead><tr>${cells(head).map((c) => `<th>${inline(c)}</th>`).join("")}</tr></thead>` : "";
  return `<table>${th}<tbody>${bodyRows.map((r) => `<tr>${cells(r).map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
}

function list(items: readonly string[]): string {
  const ordered = /^[0-9]+\. /.test(items[0] ?? "");
  const tag = ordered ? "ol" : "ul";
  const entries: string[] = [];
  for (const item of items) {
    const start = /^(- |[0-9]+\. )(.*)$/.exec(item);
    if (start) entries.push(start[2] ?? "");
    else entries[entries.length - 1] = `${entries[entries.length - 1] ?? ""} ${item.trim()}`;
  }
  return `<${tag}>${entries.map((e) => `<li>${inline(e)}</li>`).join("")}</${tag}>`;
}

/** Escaped text, with the spec's own cross-references ("section 2.7", "(2.4)") linked to their anchors. */
function inline(text: string): string {
  return escapeHtml(text)
    .replace(/\b(sections?) ([0-9]+(?:\.[0-9]+)+|[0-9]+)\b/g, (_m, word: string, section: string) => `${word} <a href="#${section}">${section}</a>`)
    .replace(/\((2\.[0-9]+(?:\.[0-9]+)?)\)/g, (_m, section: string) => `(<a href="#${section}">${section}</a>)`);
}

const CSS = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1f24;background:#fff;display:flex}
nav{width:260px;flex:none;padding:16px;border-right:1px solid #d0d7de;position:sticky;top:0;height:100vh;overflow:auto;font-size:13px;box-sizing:border-box}
main{max-width:960px;padding:16px 32px}
.toc{list-style:none;padding:0}.toc li{margin:2px 0}.toc-3{padding-left:12px}.toc-4{padding-left:24px}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}h2{border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}
:target{background:#fff8c5}.anchor{color:#8c959f;text-decoration:none;font-size:.8em}
`;
