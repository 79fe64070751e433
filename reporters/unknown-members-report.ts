// The members the run saw that the contract does not declare ("Objects" in schemas/openapi.yaml: never
// a failure), as each report shows them: console lines, a markdown list, a small HTML section. Names
// come from the target: the console's caller escapes its text (escapeControls), markdown goes through
// cell(), HTML through escapeHtml. Long lists are cut; summary.json keeps every member the tally kept.

import { describeUnknownMember, type UnknownMembersSeen } from "../src/harness/unknown-member-tally.ts";
import { escapeHtml as esc } from "./escape-controls.ts";

/** Members listed on the console and in summary.md; the HTML page and summary.json list all. */
const SHOWN = 20;

export const UNKNOWN_MEMBERS_HEADING = "Not in the contract (members the schemas do not declare; never a failure):";

function more(seen: UnknownMembersSeen, shown: number): string | undefined {
  const rest = seen.members.length - shown;
  const parts = [
    ...(rest > 0 ? [`${rest} more member${rest === 1 ? "" : "s"}`] : []),
    ...(seen.leftOut > 0 ? [`${seen.leftOut} occurrences of members past the report's bound`] : []),
  ];
  return parts.length === 0 ? undefined : `… and ${parts.join(", and ")}`;
}

const isEmpty = (seen: UnknownMembersSeen | undefined): seen is undefined => seen === undefined || seen.members.length + seen.leftOut === 0;

/** Console lines (without a leading blank line); [] when there is nothing to say. */
export function unknownMemberLines(seen: UnknownMembersSeen | undefined): string[] {
  if (isEmpty(seen)) return [];
  const shown = seen.members.slice(0, SHOWN);
  const tail = more(seen, shown.length);
  return [
    UNKNOWN_MEMBERS_HEADING,
    ...shown.map((m) => `  ${describeUnknownMember(m)}`),
    ...(tail === undefined ? [] : [`  ${tail}${seen.members.length > SHOWN ? " in summary.json" : ""}`]),
  ];
}

/** A markdown list, each item through `cell` (markdown-summary.ts); [] when there is nothing to say. */
export function unknownMemberMarkdown(seen: UnknownMembersSeen | undefined, cell: (text: string) => string): string[] {
  if (isEmpty(seen)) return [];
  const shown = seen.members.slice(0, SHOWN);
  const tail = more(seen, shown.length);
  return [
    `**${cell(UNKNOWN_MEMBERS_HEADING)}**`,
    "",
    ...shown.map((m) => `- ${cell(describeUnknownMember(m))}`),
    ...(tail === undefined ? [] : [`- ${cell(tail)}`]),
  ];
}

/** The HTML section; "" when there is nothing to say. */
export function unknownMemberSection(seen: UnknownMembersSeen | undefined, prefix: string): string {
  if (isEmpty(seen)) return "";
  const rows = seen.members
    .map((m) => `<tr><td><code>${esc(m.schema)}</code></td><td><code>${esc(m.member)}</code></td><td class="num">${m.count}</td></tr>`)
    .join("");
  const tail = more(seen, seen.members.length);
  return `<section class="unknown-members" id="${esc(prefix)}unknown-members"><h2>Not in the contract</h2>
<p>Members the responses carried that the schemas do not declare. Every object is open, so none of them fails a requirement; a misspelt optional member shows here.</p>
<table class="matrix"><thead><tr><th>schema</th><th>member</th><th>seen</th></tr></thead><tbody>${rows}</tbody></table>${tail === undefined ? "" : `<p>${esc(tail)}</p>`}</section>`;
}
