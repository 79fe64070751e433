// Who may import what (docs/architecture.md, "Who may import what"), held by reading every .ts file's
// import specifiers under src/, reporters/, suites/ and properties/ with TypeScript's own pre-processor:
// static `import … from` and `export … from`, type-only ones too, and `import("…")` with a literal.
// A rule broken names the file and the import.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/test-build.ts";

const SCANNED = ["src", "reporters", "suites", "properties"] as const;

/** A layer rule: files under one of `from` (and not under `except`) import nothing under `forbidden`. */
interface LayerRule {
  readonly rule: string;
  readonly from: readonly string[];
  readonly except?: readonly string[];
  readonly forbidden: readonly string[];
}

const RULES: readonly LayerRule[] = [
  {
    rule: "reporters render outcomes and events: they import neither the run, the fleet, the proxy nor the command layer",
    from: ["reporters"],
    forbidden: ["src/run", "src/fleet", "src/proxy", "src/cli"],
  },
  {
    rule: "nothing below the command layer imports it",
    from: [...SCANNED],
    except: ["src/cli"],
    forbidden: ["src/cli"],
  },
  {
    rule: "the outcome is the engine's, beneath the run, the fleet, the proxy, the command layer and the reporters",
    from: ["src/outcome"],
    forbidden: ["src/run", "src/fleet", "src/proxy", "src/cli", "reporters"],
  },
  {
    rule: "the reference node meets the suite over HTTP only: it imports no harness, reporter, suite or property",
    from: ["src/node"],
    forbidden: ["src/harness", "reporters", "suites", "properties"],
  },
  {
    rule: "the suite works the same against any URL: the harness, suites, properties and reporters import no node",
    from: ["src/harness", "suites", "properties", "reporters"],
    forbidden: ["src/node"],
  },
];

/** The relative module specifiers a source imports or re-exports, static and dynamic. */
function importSpecifiers(source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles.map((f) => f.fileName).filter((name) => name.startsWith("."));
}

/** `path` (relative to the root, "/"-separated) is `folder` or inside it. */
const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** "file imports target (rule)" for every import of `file` (relative to the root) that a rule forbids. */
function brokenRules(file: string, source: string): string[] {
  const applying = RULES.filter((r) => r.from.some((f) => under(file, f)) && !(r.except ?? []).some((f) => under(file, f)));
  if (applying.length === 0) return [];
  return importSpecifiers(source).flatMap((specifier) => {
    const target = relative(ROOT, resolve(ROOT, dirname(file), specifier))
      .split(sep)
      .join("/");
    return applying.filter((r) => r.forbidden.some((f) => under(target, f))).map((r) => `${file} imports ${specifier} (${r.rule})`);
  });
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => `${folder}/${name.split(sep).join("/")}`);
}

describe("the layers", () => {
  it("reads static imports, re-exports, type-only imports and literal dynamic imports", () => {
    const source = [
      'import { a } from "./a.ts";',
      'import type { B } from "../b.ts";',
      'export { c } from "./c.ts";',
      'export * from "./d.ts";',
      'const e = await import("./e.ts");',
      'import { f } from "vitest";',
    ].join("\n");
    expect(importSpecifiers(source)).toEqual(["./a.ts", "../b.ts", "./c.ts", "./d.ts", "./e.ts"]);
  });

  it("names the file, the import and the rule it breaks", () => {
    expect(brokenRules("reporters/x.ts", 'import type { P } from "../src/run/phases.ts";')).toEqual([
      `reporters/x.ts imports ../src/run/phases.ts (${RULES[0]?.rule})`,
    ]);
    expect(brokenRules("src/fleet/x.ts", 'const { U } = await import("../cli/args.ts");')).toHaveLength(1);
    expect(brokenRules("src/cli/x.ts", 'import { U } from "./args.ts";')).toEqual([]);
    expect(brokenRules("src/node/x.ts", 'import { h } from "../harness/results.ts";')).toHaveLength(1);
  });

  it("holds in every source file", () => {
    const files = SCANNED.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    const broken = files.flatMap((file) => brokenRules(file, readFileSync(join(ROOT, file), "utf8")));
    expect(broken, broken.join("\n")).toEqual([]);
  });
});
