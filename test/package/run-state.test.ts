// A run's state lives on its harness (src/harness/run-memory.ts), never in a suite module's own
// variables: a worker serves several runs with the same support modules (src/run/run-folders.ts links
// them), so a module-level variable would carry one run's state into another's. Read with TypeScript's
// parser: a suite or support module's top-level `let` or `var`, or a top-level `const` holding a new Map,
// Set or Array not declared read-only, is named with its file and line.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/test-build.ts";

const SCANNED = ["suites", "properties"] as const;
/** WeakMap and WeakSet are left out: keyed by objects one run made, they cannot reach another run. */
const MUTABLE_CONTAINERS = new Set(["Map", "Set", "Array"]);

function moduleStateOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of list.declarations) {
      const init = declaration.initializer;
      // A table declared read-only (`ReadonlySet<…>`, `ReadonlyMap<…>`) is data, not state.
      const readOnly = /^Readonly/.test(declaration.type?.getText() ?? "");
      const holdsContainer =
        !readOnly &&
        init !== undefined &&
        ts.isNewExpression(init) &&
        ts.isIdentifier(init.expression) &&
        MUTABLE_CONTAINERS.has(init.expression.text);
      if (!isConst || holdsContainer) {
        const { line } = source.getLineAndCharacterOfPosition(declaration.getStart());
        found.push(`${file}:${line + 1} ${declaration.name.getText()}`);
      }
    }
  }
  return found;
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `${dir}/${f}`);
}

describe("a run's state", () => {
  it("is kept on the run's harness: no suite or support module holds state of its own", () => {
    const found = SCANNED.flatMap(tsFiles).flatMap((file) => moduleStateOf(file, readFileSync(join(ROOT, file), "utf8")));
    expect(found, found.join("\n")).toEqual([]);
  });

  it("sees a module-level Map, a top-level let and a new Set", () => {
    const text =
      'const a = new Map<string, number>();\nlet b: number | undefined;\nconst c = new Set();\nconst d = 3;\nconst e: ReadonlySet<string> = new Set(["x"]);';
    expect(moduleStateOf("x.ts", text)).toEqual(["x.ts:1 a", "x.ts:2 b", "x.ts:3 c"]);
  });
});
