// The coverage map on the spec page (html/spec.html): each statement of schemas/spec-statements.yaml is
// found in the rendered text and marked there, its words in a <mark> (a sentence in a paragraph, a list
// item or a table cell) or, when its words span a table row's cells or a list item's number, the row or
// item itself, followed by its id. Under each paragraph, list or table, its statements are listed with
// their coverage (covered, partial with what is not checked, uncovered, untestable with why, or an open
// point) and the requirements that enforce each, with how each fared in this run and a link to it in
// index.html. A statement whose words are not found is still listed, at the end of its section. A legend
// with the coverage figures opens the page. Every text is escaped: the map is the package's own, but the
// page keeps the report's discipline.
//
// The statements quote the spec's markdown source (whitespace collapsed, a table row's cells joined by
// " | "); the rendered text has the markup resolved (a "\|" in a cell is "|"). A statement is looked for
// first in the text of each inline run, as rendered, then in the source lines of the smallest block
// holding it.

import Token from "markdown-it/lib/token.mjs";
import type { RequirementOutcome } from "../src/outcome/run-outcome.ts";
import { escapeHtml as esc } from "./escape-controls.ts";
import {
  type Coverage,
  coverageOf,
  normalizeWords,
  type SpecStatement,
  type SpecStatements,
  sectionOf,
  specSections,
} from "../src/harness/spec-statements.ts";
import { coverageFigure } from "./spec-coverage.ts";

/** "4.5. Table item" → "4.5": a numbered heading starts a section, as in specSections. */
export const NUMBERED = /^([0-9]+(?:\.[0-9]+)*)\.?\s/;

export interface SpecCoverageInput {
  readonly statements: SpecStatements;
  /** This run's requirements with their statuses (index.html has an anchor for each); absent: the map alone. */
  readonly requirements?: readonly RequirementOutcome[];
}

type Kind = Coverage | "open";

/** How a statement fared in this run, over the requirements that enforce it (the worst of them). */
type RunVerdict = "failed" | "warned" | "not-run" | "passed" | "unchecked";

const KIND_WORD: Record<Kind, string> = {
  covered: "covered",
  partial: "partial",
  uncovered: "uncovered",
  untestable: "untestable",
  open: "open point",
};

/** Which colour a mark over several statements takes: the one a reader most needs to see. */
const KIND_ORDER: readonly Kind[] = ["uncovered", "partial", "untestable", "open", "covered"];

const RUN_WORD: Record<RunVerdict, string> = {
  failed: "a requirement failed in this run",
  warned: "a requirement warned in this run",
  "not-run": "not every requirement ran in this run",
  passed: "held in this run",
  unchecked: "no requirement checks it",
};

const STATUS_LABEL: Record<RequirementOutcome["status"], string> = {
  passed: "passed",
  failed: "failed",
  warned: "warned",
  skipped: "skipped",
  not_applicable: "n/a",
};

interface Entry {
  readonly statement: SpecStatement;
  readonly kind: Kind;
  /** Absent without a run. */
  readonly run?: RunVerdict;
  /** Its words were found and marked (its label carries markId); false: listed at the end of its section. */
  located: boolean;
}

/** The anchor of a statement's label in the text ("4.3#2" → "st-4.3-2": a fragment cannot hold '#'). */
export const markId = (id: string) => `st-${id.replace("#", "-")}`;
/** The anchor of a statement's note under its block. */
export const noteId = (id: string) => `note-${id.replace("#", "-")}`;

/**
 * Marks the statements in the tokens of the spec (in place: marks, labels and notes are added as HTML
 * tokens, which markdown-it renders as they are whatever its `html` option) and returns the legend.
 */
export function annotateStatements(tokens: Token[], markdown: string, input: SpecCoverageInput): string {
  const byRequirement = input.requirements === undefined ? undefined : new Map(input.requirements.map((r) => [r.requirement.id, r]));
  const entries = input.statements.statements.map(
    (statement): Entry => ({
      statement,
      kind: statement.open === true ? "open" : coverageOf(statement),
      ...(byRequirement === undefined ? {} : { run: runVerdict(statement, byRequirement) }),
      located: false,
    }),
  );
  const sourceLines = markdown.split("\n");
  const addTo = <K, T>(map: Map<K, T[]>, key: K, value: T) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [value]);
    else list.push(value);
  };

  // The section of every token, and the closing token of the top-level block it is in.
  const sectionAt: string[] = [];
  const tokensOf = new Map<string, number[]>();
  let current = "0";
  tokens.forEach((t, i) => {
    if (t.type === "heading_open") current = NUMBERED.exec(tokens[i + 1]?.content ?? "")?.[1] ?? current;
    sectionAt[i] = current;
    addTo(tokensOf, current, i);
  });
  const topClose: number[] = [];
  let blockStart = 0;
  tokens.forEach((t, i) => {
    if (t.level !== 0 || t.nesting === 1) return;
    for (let j = blockStart; j <= i; j++) topClose[j] = i;
    blockStart = i + 1;
  });
  const lastOfSection = new Map<string, number>();
  tokens.forEach((t, i) => {
    if (t.level === 0 && t.nesting !== 1) lastOfSection.set(sectionAt[i] ?? "0", i);
  });

  const inlineMarks = new Map<number, { entry: Entry; start: number; end: number }[]>();
  const blockMarks = new Map<number, Entry[]>();
  const notes = new Map<number, Entry[]>();
  const plains = new Map<number, Plain>();
  const blockTexts = new Map<number, string>();

  const bySection = new Map<string, Entry[]>();
  for (const e of entries) addTo(bySection, sectionOf(e.statement.id), e);
  const unplaced: Entry[] = [];
  for (const [section, list] of bySection) {
    const indices = tokensOf.get(section) ?? [];
    for (const entry of list) {
      const at = locate(entry.statement.words, tokens, indices, sourceLines, plains, blockTexts);
      if (at?.kind === "inline") addTo(inlineMarks, at.token, { entry, start: at.start, end: at.end });
      else if (at?.kind === "block") addTo(blockMarks, at.token, entry);
      entry.located = at !== undefined;
      const noteAt = at === undefined ? lastOfSection.get(section) : topClose[at.token];
      if (noteAt === undefined) unplaced.push(entry);
      else addTo(notes, noteAt, entry);
    }
  }

  for (const [i, marks] of inlineMarks) {
    const token = tokens[i];
    if (token?.children) token.children = markInline(token.children, marks);
  }
  for (const [i, list] of blockMarks) {
    const token = tokens[i];
    if (token === undefined) continue;
    const kind = worstKind(list.map((e) => e.kind));
    token.attrJoin("class", `st st-${kind}`);
    token.attrSet("title", list.map(markTitle).join("; "));
    const close = tokens.findIndex((t, k) => k > i && t.level === token.level && t.nesting === -1);
    const inner = tokens.slice(i, close === -1 ? undefined : close);
    const lastInline = inner.reverse().find((t) => t.type === "inline");
    lastInline?.children?.push(...list.map((e) => html(label(e))));
  }
  const insertions = [...notes.entries()].sort(([a], [b]) => b - a);
  for (const [i, list] of insertions) tokens.splice(i + 1, 0, htmlBlock(renderNotes(list, byRequirement)));
  if (unplaced.length > 0)
    tokens.push(
      htmlBlock(
        `<h2 id="statements-not-found">Statements of sections the spec no longer has</h2>\n${renderNotes(unplaced, byRequirement)}`,
      ),
    );
  return renderLegend(entries, input.statements, byRequirement !== undefined);
}

type Location = { kind: "inline"; token: number; start: number; end: number } | { kind: "block"; token: number };

/** The statement's words in an inline run of the section as rendered, else the smallest block whose source lines hold them. */
function locate(
  words: string,
  tokens: readonly Token[],
  indices: readonly number[],
  sourceLines: readonly string[],
  plains: Map<number, Plain>,
  blockTexts: Map<number, string>,
): Location | undefined {
  const wanted = plainWords(words);
  if (wanted === "") return undefined;
  for (const i of indices) {
    const t = tokens[i];
    if (t?.type !== "inline" || tokens[i - 1]?.type === "heading_open") continue;
    let plain = plains.get(i);
    if (plain === undefined) {
      plain = plainOf(t);
      plains.set(i, plain);
    }
    const at = plain.text.indexOf(wanted);
    if (at === -1) continue;
    const start = plain.units[at];
    const end = plain.units[at + wanted.length - 1];
    if (start !== undefined && end !== undefined) return { kind: "inline", token: i, start, end };
  }
  const source = normalizeWords(words);
  let best: { token: number; span: number; level: number } | undefined;
  for (const i of indices) {
    const t = tokens[i];
    if (t === undefined || t.nesting !== 1 || t.map === null || t.hidden || t.type === "heading_open") continue;
    let text = blockTexts.get(i);
    if (text === undefined) {
      text = specSections(sourceLines.slice(t.map[0], t.map[1]).join("\n")).get("0") ?? "";
      blockTexts.set(i, text);
    }
    if (!text.includes(source)) continue;
    const span = t.map[1] - t.map[0];
    if (best === undefined || span < best.span || (span === best.span && t.level > best.level)) best = { token: i, span, level: t.level };
  }
  return best === undefined ? undefined : { kind: "block", token: best.token };
}

/** The source words as rendered text: backslash escapes resolved, code spans' backticks dropped, whitespace collapsed. */
function plainWords(words: string): string {
  return normalizeWords(words.replace(/\\([!-/:-@[-`{-~])/g, "$1").replace(/`/g, ""));
}

/**
 * An inline run's rendered text with whitespace collapsed, and for each of its characters the unit it
 * comes from: the units are the characters of its text and code spans and its line breaks, in order.
 */
interface Plain {
  readonly text: string;
  /** Per character of `text`, the index of its unit. */
  readonly units: readonly number[];
}

function plainOf(inline: Token): Plain {
  let text = "";
  const units: number[] = [];
  let unit = 0;
  let space = -1;
  const add = (ch: string) => {
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r" || (ch > "~" && /\s/.test(ch))) {
      if (space === -1) space = unit;
    } else {
      if (space !== -1 && text !== "") {
        text += " ";
        units.push(space);
      }
      space = -1;
      text += ch;
      units.push(unit);
    }
    unit++;
  };
  for (const c of inline.children ?? []) {
    if (c.type === "text" || c.type === "code_inline") for (let k = 0; k < c.content.length; k++) add(c.content.charAt(k));
    else if (c.type === "softbreak" || c.type === "hardbreak") add(" ");
  }
  return { text, units };
}

/**
 * The inline run's children with each statement's units inside <mark> (a run of units the same
 * statements cover is one mark; a mark never crosses another element) and its label after its last unit.
 */
function markInline(children: readonly Token[], marks: readonly { entry: Entry; start: number; end: number }[]): Token[] {
  // Where what covers the units changes: a mark starts, or one ended at the unit before.
  const cuts = [...new Set(marks.flatMap((m) => [m.start, m.end + 1]))].sort((a, b) => a - b);
  const coveredBy = (unit: number) => marks.filter((m) => m.start <= unit && unit <= m.end).map((m) => m.entry);
  const out: Token[] = [];
  let open = "";
  const close = () => {
    if (open !== "") out.push(html("</mark>"));
    open = "";
  };
  /** Units [from, to) are covered alike: opens or keeps their mark, and after them closes it for the labels of what ends. */
  const span = (from: number, to: number, push: () => void) => {
    const list = coveredBy(from);
    const key = list.map((e) => e.statement.id).join(" ");
    if (key !== open) {
      close();
      if (key !== "") {
        open = key;
        const title = esc(list.map(markTitle).join("; "));
        out.push(html(`<mark class="st st-${worstKind(list.map((e) => e.kind))}" data-statements="${esc(key)}" title="${title}">`));
      }
    }
    push();
    const ending = marks.filter((m) => m.end === to - 1).map((m) => m.entry);
    if (ending.length === 0) return;
    close();
    for (const e of ending) out.push(html(label(e)));
  };
  let unit = 0;
  for (const child of children) {
    if (child.type === "text" || child.type === "code_inline") {
      const end = unit + child.content.length;
      let from = unit;
      for (const cut of [...cuts.filter((c) => c > unit && c < end), end]) {
        const piece = child.content.slice(from - unit, cut - unit);
        span(from, cut, () => out.push(withContent(child, piece)));
        from = cut;
      }
      unit = end;
    } else if (child.type === "softbreak" || child.type === "hardbreak") {
      span(unit, unit + 1, () => out.push(child));
      unit++;
    } else {
      close();
      out.push(child);
    }
  }
  close();
  return out;
}

function runVerdict(s: SpecStatement, byRequirement: ReadonlyMap<string, RequirementOutcome>): RunVerdict {
  const statuses = (s.requirements ?? []).map((id) => byRequirement.get(id)?.status);
  if (statuses.length === 0) return "unchecked";
  if (statuses.includes("failed")) return "failed";
  if (statuses.includes("warned")) return "warned";
  return statuses.every((st) => st === "passed") ? "passed" : "not-run";
}

function worstKind(kinds: readonly Kind[]): Kind {
  return KIND_ORDER.find((k) => kinds.includes(k)) ?? "covered";
}

function markTitle(e: Entry): string {
  return `${e.statement.id}: ${KIND_WORD[e.kind]}${e.run === undefined ? "" : `, ${RUN_WORD[e.run]}`}`;
}

/** The statement's id after its words, coloured by this run's verdict, linking to its note. */
function label(e: Entry): string {
  const run = e.run === undefined ? "" : ` r-${e.run}`;
  return `<sup class="st-id${run}" id="${esc(markId(e.statement.id))}"><a href="#${esc(noteId(e.statement.id))}" title="${esc(markTitle(e))}">${esc(e.statement.id)}</a></sup>`;
}

function renderNotes(list: readonly Entry[], byRequirement: ReadonlyMap<string, RequirementOutcome> | undefined): string {
  const items = list.map((e) => {
    const s = e.statement;
    const ref = e.located
      ? `<a class="st-ref" href="#${esc(markId(s.id))}">${esc(s.id)}</a>`
      : `<span class="st-ref">${esc(s.id)}</span> <q>${esc(s.words)}</q> <span class="why">(its words are not found in the text)</span>`;
    // A statement no requirement checks says so by its coverage, whatever the run.
    const run = e.run === undefined || e.run === "unchecked" ? "" : ` <span class="run r-${e.run}">${esc(RUN_WORD[e.run])}</span>`;
    const reqs = (s.requirements ?? []).map((id) => requirementRef(id, byRequirement));
    const parts: string[] = [];
    if (e.kind === "untestable") parts.push(`<span class="why">cannot be checked from outside: ${esc(s.untestable ?? "")}</span>`);
    if (e.kind === "uncovered") parts.push(`<span class="why">no requirement checks it: a pass says nothing of it</span>`);
    if (e.kind === "open") parts.push(`<span class="why">the spec leaves it not shown; not counted in the coverage</span>`);
    if (reqs.length > 0) parts.push(`${e.kind === "open" ? "the family's conventions" : "enforced by"} ${reqs.join(", ")}`);
    if (s.partial !== undefined) parts.push(`<span class="why">not checked: ${esc(s.partial)}</span>`);
    return `<li class="st-note" data-coverage="${e.kind}" id="${esc(noteId(s.id))}">${ref} <span class="cov cov-${e.kind}">${esc(KIND_WORD[e.kind])}</span>${run}${parts.length === 0 ? "" : `: ${parts.join("; ")}`}</li>`;
  });
  return `<ul class="st-notes">${items.join("")}</ul>\n`;
}

/** A requirement id, linking to its entry in index.html when this run has it, with its status there. */
function requirementRef(id: string, byRequirement: ReadonlyMap<string, RequirementOutcome> | undefined): string {
  if (byRequirement === undefined) return `<code>${esc(id)}</code>`;
  const r = byRequirement.get(id);
  if (r === undefined) return `<code>${esc(id)}</code> <span class="badge s-skipped">not in this run</span>`;
  const extra = r.expectedFailure
    ? ' <span class="badge s-expected">expected by baseline</span>'
    : r.unexpectedPass
      ? ' <span class="badge s-failed">baselined, but passes</span>'
      : "";
  const reason = r.reason !== undefined && (r.status === "skipped" || r.status === "not_applicable") ? ` title="${esc(r.reason)}"` : "";
  return `<a href="index.html#${esc(`req-${id}`)}"><code>${esc(id)}</code></a> <span class="badge s-${r.status}"${reason}>${STATUS_LABEL[r.status]}</span>${extra}`;
}

function renderLegend(entries: readonly Entry[], map: SpecStatements, withRun: boolean): string {
  const coverage = map.coverage();
  const open = entries.filter((e) => e.kind === "open").length;
  const normative = entries.filter((e) => e.kind !== "open");
  const runCount = (v: RunVerdict) => normative.filter((e) => e.run === v).length;
  const run = withRun
    ? `<p>In this run: ${runCount("passed")} held (every requirement enforcing them passed), ${runCount("failed")} with a failed requirement, ${runCount("warned")} with a warned one, ${runCount("not-run")} whose requirements did not all run; ${runCount("unchecked")} no requirement checks.</p>`
    : "";
  const swatch = (kind: Kind, text: string) => `<li><mark class="st st-${kind}">${esc(KIND_WORD[kind])}</mark> ${text}</li>`;
  return `<section class="st-legend" id="coverage">
<h2>What the suite checks of this spec</h2>
<p><strong>Spec coverage: ${esc(coverageFigure(coverage))}</strong>; ${open} open point${open === 1 ? "" : "s"} listed, not counted. The map is <code>schemas/spec-statements.yaml</code>.</p>
<p>A requirement passes when none of its checks found a deviation; the run conforms when every MUST requirement passes. So a pass says that the covered statements held as far as the checks went, the partial ones in the part that is checked, and nothing of the uncovered and untestable ones.</p>
${run}
<ul class="st-legend-list">
${swatch("covered", "a requirement of the suite enforces it")}
${swatch("partial", "enforced in part; its note says what is not checked")}
${swatch("uncovered", "nothing checks it")}
${swatch("untestable", "cannot be checked from outside the node; its note says why")}
${swatch("open", "what the spec leaves not shown; the family's conventions (SHOULD) fill it")}
</ul>
<p>Each statement's id follows its words${withRun ? ', coloured by this run: <sup class="st-id r-passed"><a>held</a></sup> <sup class="st-id r-failed"><a>failed</a></sup> <sup class="st-id r-warned"><a>warned</a></sup> <sup class="st-id r-not-run"><a>not all run</a></sup> <sup class="st-id r-unchecked"><a>unchecked</a></sup>' : ""}. Under each paragraph, list or table, its statements with the requirements that enforce them${withRun ? " and how each fared (linking to the report)" : ""}.</p>
</section>
`;
}

function html(content: string): Token {
  const t = new Token("html_inline", "", 0);
  t.content = content;
  return t;
}

function htmlBlock(content: string): Token {
  const t = new Token("html_block", "", 0);
  t.content = content;
  t.block = true;
  return t;
}

function withContent(child: Token, content: string): Token {
  const t = new Token(child.type, child.tag, child.nesting);
  Object.assign(t, child);
  t.content = content;
  return t;
}

export const STATEMENTS_CSS = `
.st-covered{background:#dafbe1}.st-partial{background:#fff8c5}.st-uncovered{background:#ffebe9;text-decoration:underline dashed #cf222e}
.st-untestable{background:#eaeef2}.st-open{background:#ddf4ff}
mark.st{color:inherit;padding:0 1px;border-radius:2px}
tr.st>td{background:inherit}
sup.st-id{font-size:11px;margin-left:2px}sup.st-id a{text-decoration:none;border-radius:3px;padding:0 3px;background:#eaeef2;color:#1b1f24;font-family:ui-monospace,monospace}
sup.r-passed a{background:#1f883d;color:#fff}sup.r-failed a{background:#cf222e;color:#fff}sup.r-warned a{background:#bf8700;color:#fff}
sup.r-not-run a{background:#6e7781;color:#fff}sup.r-unchecked a{background:#fff;border:1px solid #8c959f}
.st-notes{font-size:13px;border-left:3px solid #d0d7de;margin:4px 0 16px;padding:2px 0 2px 20px;color:#24292f}
.st-notes li{margin:2px 0}.st-ref{font-family:ui-monospace,monospace}.why{color:#57606a}
.cov{font-size:12px;border-radius:4px;padding:0 4px}.cov-covered{background:#dafbe1}.cov-partial{background:#fff8c5}.cov-uncovered{background:#ffebe9}.cov-untestable{background:#eaeef2}.cov-open{background:#ddf4ff}
.run{font-size:12px;color:#57606a}.run.r-failed{color:#a40e26;font-weight:600}.run.r-warned{color:#7d4e00}
.badge{display:inline-block;border-radius:10px;padding:0 6px;font-size:11px;font-weight:600}
.s-passed{background:#1f883d;color:#fff}.s-failed{background:#cf222e;color:#fff}.s-warned{background:#bf8700;color:#fff}
.s-skipped{background:#6e7781;color:#fff}.s-not_applicable{background:#8c959f;color:#fff}.s-expected{background:#6e7781;color:#fff}
.st-legend{border:1px solid #d0d7de;border-radius:6px;padding:4px 16px;margin:16px 0;background:#f6f8fa}
.st-legend-list{list-style:none;padding:0}.st-legend-list li{margin:3px 0}
`;
