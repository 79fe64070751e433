// The spec the suite enforces (spec/ledger-node-rest-interface.md, shipped with the package) as a page
// beside the HTML report, html/spec.html, with an anchor per numbered section (spec.html#4.5), so that
// every § the report cites links to its text. The spec's markdown is plain (headings, tables, lists,
// paragraphs), rendered by markdown-it with raw HTML off. Given the coverage map (and the run's
// requirements), the page marks each statement of the spec in its text with the requirements that
// enforce it and how they fared, under a legend with the coverage figures (spec-statements-page.ts).

import { readFileSync } from "node:fs";
import MarkdownIt from "markdown-it";
import { packagePath } from "../src/package-root.ts";
import { escapeHtml } from "./escape-controls.ts";
import { annotateStatements, NUMBERED, type SpecCoverageInput, STATEMENTS_CSS } from "./spec-statements-page.ts";

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

/** In HTML-escaped text, every §N.N of the spec as a link to the spec page ("RFC 9110 §15.5" is another document's). */
export function linkSections(escapedHtml: string): string {
  return escapedHtml.replace(/(?<!RFC [0-9]+ )§([0-9]+(?:\.[0-9]+)*)/g, (_m, section: string) => sectionLink(section));
}

/**
 * The spec's markdown through markdown-it (CommonMark with tables; `html: false`, so any markup in the
 * text is shown as text), with an id on each numbered heading, a table of contents of them, and the
 * spec's own cross-references in the text ("section 2.7", "(2.4)") linked to their anchors; with
 * `coverage`, each statement of the map marked in the text, and the legend at the top.
 */
export function renderSpecPage(markdown: string, coverage?: SpecCoverageInput): string {
  const md = new MarkdownIt({ html: false, linkify: false });
  const tokens = md.parse(markdown, {});
  const toc: string[] = [];
  let title = "Specification";
  tokens.forEach((token, i) => {
    if (token.type !== "heading_open") return;
    const text = tokens[i + 1]?.content ?? "";
    const level = Number(token.tag.slice(1));
    if (level === 1) title = text;
    const section = NUMBERED.exec(text)?.[1];
    if (section === undefined) return;
    token.attrSet("id", section);
    toc.push(`<li class="toc-${level}"><a href="#${escapeHtml(section)}">${escapeHtml(text)}</a></li>`);
  });
  md.renderer.rules.text = (all, idx) => linkCrossReferences(escapeHtml(all[idx]?.content ?? ""));
  const legend = coverage === undefined ? "" : annotateStatements(tokens, markdown, coverage);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${CSS}${coverage === undefined ? "" : STATEMENTS_CSS}</style>
</head>
<body>
<nav><p><a href="index.html">← the report</a></p>${coverage === undefined ? "" : '<p><a href="#coverage">What the suite checks of this spec</a></p>'}<ol class="toc">${toc.join("")}</ol></nav>
<main>
${legend}${md.renderer.render(tokens, md.options, {})}
</main>
</body>
</html>
`;
}

/** In escaped text, the spec's references to its own sections as links to their anchors. */
function linkCrossReferences(escaped: string): string {
  return escaped
    .replace(
      /\b(sections?) ([0-9]+(?:\.[0-9]+)+|[0-9]+)\b/g,
      (_m, word: string, section: string) => `${word} <a href="#${section}">${section}</a>`,
    )
    .replace(/\((2\.[0-9]+(?:\.[0-9]+)?)\)/g, (_m, section: string) => `(<a href="#${section}">${section}</a>)`);
}

const CSS = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1f24;background:#fff;display:flex}
nav{width:260px;flex:none;padding:16px;border-right:1px solid #d0d7de;position:sticky;top:0;height:100vh;overflow:auto;font-size:13px;box-sizing:border-box}
main{max-width:960px;padding:16px 32px}
.toc{list-style:none;padding:0}.toc li{margin:2px 0}.toc-3{padding-left:12px}.toc-4{padding-left:24px}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}h2{border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}
:target{background:#fff8c5}
`;
