import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parsePackageYaml } from "../../src/parsed-yaml.ts";

const freshCache = () => ({ XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), "parsed-yaml-")) });
const entriesOf = (env: { XDG_CACHE_HOME: string }) => readdirSync(join(env.XDG_CACHE_HOME, "ledger-conformance", "parsed-yaml"));

describe("parsePackageYaml", () => {
  it("gives what yaml's parse gives, first parsed and then read back from the cache", () => {
    const env = freshCache();
    const text = readFileSync("schemas/openapi.yaml", "utf8");
    const first = parsePackageYaml(text, env);
    expect(entriesOf(env)).toHaveLength(1);
    const again = parsePackageYaml(text, env);
    expect(again).toEqual(parse(text));
    expect(first).toEqual(again);
  });

  it("parses an edited text again: entries are named by the text's content", () => {
    const env = freshCache();
    expect(parsePackageYaml("a: 1\n", env)).toEqual({ a: 1 });
    expect(parsePackageYaml("a: 2\n", env)).toEqual({ a: 2 });
    expect(entriesOf(env)).toHaveLength(2);
  });

  it("parses again over a damaged entry", () => {
    const env = freshCache();
    parsePackageYaml("b: [1, 2]\n", env);
    const [entry] = entriesOf(env);
    writeFileSync(join(env.XDG_CACHE_HOME, "ledger-conformance", "parsed-yaml", entry as string), "{not json");
    expect(parsePackageYaml("b: [1, 2]\n", env)).toEqual({ b: [1, 2] });
  });

  it("keeps no entry for data JSON would change (.inf), so it never reads back different", () => {
    const env = freshCache();
    expect(parsePackageYaml("max: .inf\n", env)).toEqual({ max: Infinity });
    expect(entriesOf(env)).toHaveLength(0);
  });

  it("throws yaml's error for text that is not YAML, and caches nothing", () => {
    const env = freshCache();
    expect(() => parsePackageYaml("a: [1, 2\n", env)).toThrow();
    expect(entriesOf(env)).toHaveLength(0);
  });
});
