// Colour for the console report, only on a terminal: never when the output is piped (CI logs, tests)
// or NO_COLOR is set (https://no-color.org), or TERM is dumb. It is applied to text already passed
// through escapeControls, so that what a target sent cannot bring escape codes of its own; the
// colours go by the report's own line starts (FAIL, WARN, the file marks, the verdict).

import { escapeControls } from "./escape-controls.ts";

export interface TerminalStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): boolean;
}

export function colourAllowed(stream: TerminalStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (stream.isTTY !== true) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return env.TERM !== "dumb";
}

const RED = "\u001b[31m";
const GREEN = "\u001b[32m";
const YELLOW = "\u001b[33m";
const BOLD = "\u001b[1m";
const RESET = "\u001b[0m";

/** The colour of a line of the console report, by how it starts; undefined: plain. */
function colourOf(line: string): string | undefined {
  if (/^(FAIL|✗) /.test(line)) return RED;
  if (/^(WARN|!) /.test(line)) return YELLOW;
  if (/^✓ /.test(line)) return GREEN;
  if (/^NOT CONFORMING\b/.test(line)) return BOLD + RED;
  if (/^CONFORMING\b/.test(line)) return BOLD + GREEN;
  if (/^(PARTIAL|NOT RUN)\b/.test(line)) return BOLD + YELLOW;
  return undefined;
}

/** `text` (already escaped) with its lines coloured. */
export function colourLines(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const colour = colourOf(line);
      return colour === undefined ? line : `${colour}${line}${RESET}`;
    })
    .join("\n");
}

/** Console text for `stream`: escaped, and coloured when the stream is a terminal that takes colour. */
export function forTerminal(text: string, stream: TerminalStream = process.stdout, env: NodeJS.ProcessEnv = process.env): string {
  const safe = escapeControls(text);
  return colourAllowed(stream, env) ? colourLines(safe) : safe;
}
