// Each command's --help, generated from the flag table (flags.ts): the synopsis, the operands, a line
// per flag (its value's placeholder, its description broken where the table breaks it, its default
// filled in), and the text after them. What a command says beyond its flags is here; its flags are not.

import { CONFIG_FILE_NAME, descriptionOf, flagsOf, type Command, type Flag } from "./flags.ts";

interface CommandText {
  readonly synopsis: readonly string[];
  /** Operands, formatted as flags are: the name, then its description. */
  readonly operands?: readonly { readonly name: string; readonly description: string }[];
  readonly after: readonly string[];
  /** Where the descriptions start; ledger-node's usage has always been a column further. */
  readonly column: number;
}

const TEXTS: Readonly<Record<Command, CommandText>> = {
  run: {
    column: 24,
    synopsis: [
      "usage: ledger-conformance [options]",
      "       ledger-conformance merge [--report-dir OUT] DIR...   one matrix report from runs made elsewhere",
    ],
    after: [
      "subcommands: ledger-conformance diff RUN_A RUN_B (two recorded runs); ledger-conformance proxy --upstream",
      "URL --port P (judges live traffic); each with --help",
      "examples:",
      "  ledger-conformance                                           (the reference node, in-process)",
      "  ledger-conformance --target http://127.0.0.1:8080/v1 --fixtures fixtures.json",
      "  ledger-conformance --target https://node.example/v1 --header 'Authorization: Bearer ${NODE_TOKEN}'",
      "  ledger-conformance --only get-table-item --only healthy      (two suite files)",
      "  ledger-conformance --skip properties/ --level must           (a fast MUST-only gate)",
      "  ledger-conformance --baseline known-failures.txt             (listed failures do not fail the gate)",
      `  ${CONFIG_FILE_NAME}: {"target": "https://node.example/v1", "fixtures": "fixtures.json",`,
      '    "headers": {"Authorization": "Bearer ${NODE_TOKEN}"}, "baseline": "known-failures.txt"}',
      "exit status: 0 every MUST holds; 1 some MUST failed (or a baseline entry passed, or the run was cut",
      "short by --max-duration); 2 usage or configuration error, or the target cannot be tested at all",
      "(unreachable, not HTTP, or it requires authentication); 130/143 stopped by SIGINT/SIGTERM (the reports",
      "are written first)",
    ],
  },
  diff: {
    column: 24,
    synopsis: ["usage: ledger-conformance diff RUN_A RUN_B [--report-dir DIR]"],
    operands: [
      { name: "RUN_A, RUN_B", description: "report directories of two runs (summary.json; exchanges.jsonl when run with --record)" },
    ],
    after: [
      "lists the requirements whose verdict changed and, for recorded runs, the requests whose answer changed",
      "shape (status, JSON members and their types; not values such as versions or timestamps)",
      "exit status: 1 some requirement went from passed to failed; 0 otherwise; 2 usage error or unreadable run",
    ],
  },
  merge: {
    column: 24,
    synopsis: ["usage: ledger-conformance merge [--report-dir OUT] DIR..."],
    operands: [{ name: "DIR", description: "a run's report directory (its summary.json); a fleet's brings each of its nodes" }],
    after: [
      "exit status: the worst node's (0 every node passes the gate, 1 some node does not, 2 some node could not be",
      "tested at all); 2 for a usage error or a DIR whose summary.json cannot be read",
    ],
  },
  proxy: {
    column: 24,
    synopsis: ["usage: ledger-conformance proxy --upstream URL [options]"],
    after: [
      "Point the client at the printed URL. Every answer of an operation of the interface is judged by the",
      "same contract as a run (statuses, error objects, §2.7 headers, media types, body schemas); the",
      "requirements no answer gave evidence for are reported skipped. Stop with SIGINT or SIGTERM.",
      "exit status: 1 some MUST requirement failed on the traffic seen; 0 otherwise; 2 usage error",
    ],
  },
  node: {
    column: 25,
    synopsis: ["usage: ledger-node [options]"],
    after: [],
  },
};

/** A flag as the usage and the README name it: --name VALUE. */
export function flagSignature(flag: Flag): string {
  return flag.value === undefined ? `--${flag.name}` : `--${flag.name} ${flag.value}`;
}

/** A name and its description's lines, the description from `column` on (two spaces after a name that reaches it). */
function entry(name: string, lines: readonly string[], column: number): string[] {
  const head = `  ${name}`;
  const first = head.length < column ? head.padEnd(column) : `${head}  `;
  return lines.map((line, i) => `${i === 0 ? first : " ".repeat(column)}${line}`);
}

/** The --help text of a command. */
export function usageOf(command: Command): string {
  const text = TEXTS[command];
  return [
    ...text.synopsis,
    ...(text.operands ?? []).flatMap((o) => entry(o.name, [o.description], text.column)),
    ...flagsOf(command).flatMap((flag) => entry(flagSignature(flag), descriptionOf(flag), text.column)),
    ...text.after,
  ].join("\n");
}
