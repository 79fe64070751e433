// Failures of one requirement grouped by their shape, so that one systematic deviation (a renamed member
// seen by twenty checks) reads as one block with a count rather than twenty near-identical ones. The
// shape is the message with what varies from request to request taken out: the body, headers, curl and
// replay lines, and the numbers and hex strings in what is left (names stay: a missing `abi` is not a
// missing `bytecode`).

import type { Failure } from "../src/harness/results.ts";

export interface FailureGroup {
  /** The normalized message all failures of the group share. */
  readonly shape: string;
  /** In the order they were recorded; the first one stands for the group. */
  readonly failures: readonly Failure[];
}

/** Lines whose content varies with the request rather than with the deviation. */
const VARYING_LINE = /^\s*(replay|body|headers|seed|path|counterexample):|^\s+(\d{3}|no answer) ← /;

export function groupFailures(failures: readonly Failure[]): FailureGroup[] {
  const groups = new Map<string, Failure[]>();
  for (const f of failures) {
    const shape = failureShape(f.message);
    groups.set(shape, [...(groups.get(shape) ?? []), f]);
  }
  return [...groups.entries()].map(([shape, list]) => ({ shape, failures: list }));
}

export function failureShape(message: string): string {
  // A body runs over several lines up to the replay line that follows it (failure-message.ts).
  let inBody = false;
  const kept = message.split("\n").filter((line) => {
    if (/^\s*body:/.test(line)) inBody = true;
    else if (/^\s*replay:/.test(line)) inBody = false;
    return !inBody && !VARYING_LINE.test(line);
  });
  return kept
    .join("\n")
    .replace(/curl .*$/gm, "curl …")
    .replace(/0x[0-9a-fA-F]+/g, "0x…")
    .replace(/\d+/g, "N")
    .trim();
}

/**
 * The message without its `replay: <curl>` line when that line repeats the failure's curl, so that a
 * report can show the curl once, in its own block. `curlShown` says whether the curl is still in the text
 * (a property's failure lists its requests' curl lines): then no separate block is needed.
 */
export function messageWithoutCurl(f: Failure): { readonly text: string; readonly curlShown: boolean } {
  if (f.curl === null) return { text: f.message, curlShown: true };
  const replayLine = `  replay:   ${f.curl}`;
  const text = f.message
    .split("\n")
    .filter((line) => line !== replayLine)
    .join("\n");
  return { text, curlShown: text.includes(f.curl) };
}
