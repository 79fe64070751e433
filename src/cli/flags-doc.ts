// The README's flag reference, generated from the flag table (flags.ts): the run's flags, a row each,
// written between the README's flags markers by `npm run docs:flags` (scripts/flags-doc.ts). A test
// compares the README's block with what this writes, so the reference cannot drift from the parser.

import { descriptionOf, flagsOf, type Flag } from "./flags.ts";
import { flagSignature } from "./usage.ts";

export const FLAGS_BEGIN = "<!-- flags:begin -->";
export const FLAGS_END = "<!-- flags:end -->";

/** A table cell: a pipe would end it. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}

function row(flag: Flag): string {
  const meaning = flag.readme ?? `${descriptionOf(flag).join(" ")}.`;
  return `| \`${cell(flagSignature(flag))}\` | ${cell(meaning)} |`;
}

/** The markdown table of the run's flags. */
export function flagsMarkdown(): string {
  return ["| flag | meaning |", "|---|---|", ...flagsOf("run").map(row)].join("\n");
}

/** `readme` with the block between the markers replaced by the table; throws when the markers are missing. */
export function withFlagsBlock(readme: string): string {
  const begin = readme.indexOf(FLAGS_BEGIN);
  const end = readme.indexOf(FLAGS_END);
  if (begin === -1 || end < begin) throw new Error(`README.md has no ${FLAGS_BEGIN} … ${FLAGS_END} block`);
  return `${readme.slice(0, begin + FLAGS_BEGIN.length)}\n${flagsMarkdown()}\n${readme.slice(end)}`;
}
