// The alias table: every old id names requirements of today's catalog and is no longer in it, a baseline
// or --only naming an old id reads as the ids that hold it now (all the parts of a split one), and a
// malformed table is rejected.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseBaseline, parseBaselineEntries } from "../../src/outcome/baseline-list.ts";
import { ApiContract } from "../../src/harness/openapi.ts";
import { currentIds, loadRequirementAliases, parseRequirementAliases } from "../../src/harness/requirement-aliases.ts";
import { CatalogError, loadRequirements } from "../../src/harness/requirements.ts";
import { selectionOf } from "../../src/run/selection.ts";

const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));
const aliases = loadRequirementAliases();

describe("requirement aliases", () => {
  it("map every old id, gone from the catalog, to ids of the catalog", () => {
    expect(aliases.size).toBeGreaterThan(0);
    for (const [from, targets] of aliases) {
      expect(catalog.has(from), `${from} is still in the catalog`).toBe(false);
      for (const to of targets) expect(catalog.has(to), `${from} -> ${to}: not in the catalog`).toBe(true);
    }
    expect(currentIds("4.5/cursor-unissued-law", aliases)).toEqual(["4.5/unissued-cursor-rejected"]);
    expect(currentIds("4.3/summaries-order-law", aliases)).toEqual(["4.3/ascending-order"]);
    expect(currentIds("4.3/ascending-order", aliases)).toEqual(["4.3/ascending-order"]);
  });

  it("map a split id to all its parts", () => {
    expect(currentIds("7.1/status-in-endpoint-set", aliases)).toEqual(["7.1/listed-status", "7.1/unsupported-body-status"]);
    expect(parseRequirementAliases("4.3/a: [4.3/b, 4.3/c]\n").get("4.3/a")).toEqual(["4.3/b", "4.3/c"]);
  });

  it("let a baseline name an old id: it reads as the new ones, grouped by the entry", () => {
    const ids = parseBaseline("4.7/health-lag-code-law  # the old spelling\n4.3/ascending-order\n", "b.txt", aliases);
    expect(ids).toEqual(["4.7/unhealthy-code", "4.3/ascending-order"]);
    expect(parseBaseline('["4.8/random-bcs-law"]', "b.json", aliases)).toEqual(["4.8/broken-bcs-rejected"]);
    expect(parseBaselineEntries("4.3/summary-list\n", "b.txt", aliases)).toEqual([
      { listed: "4.3/summary-list", ids: ["4.3/summaries", "4.3/replay-protector-object"] },
    ]);
  });

  it("let --only name a split id: it selects every part", () => {
    const selection = selectionOf({ only: ["2.7/required-headers-on-success"], skip: [], level: "all" }, [], aliases);
    expect(selection.only.map((p) => p.text)).toEqual(["2.7/required-headers-on-api-success", "2.7/required-headers-on-spec-pages"]);
  });

  it("read the shipped and the old aptos-core baselines as catalog ids", () => {
    for (const file of ["../../baselines/aptos-core.txt", "../fixtures/baselines/aptos-core-before-split.txt"]) {
      const text = readFileSync(new URL(file, import.meta.url), "utf8");
      for (const id of parseBaseline(text, file, aliases)) expect(catalog.has(id), `${file}: ${id}`).toBe(true);
    }
    // Every old id comes back as the same catalog ids its alias names.
    const old = [...aliases.keys()];
    expect(parseBaseline(old.join("\n"), "old.txt", aliases)).toEqual([...new Set(old.flatMap((o) => aliases.get(o) ?? []))]);
  });

  it("reject a table that is no mapping of ids, or maps an id to an alias", () => {
    expect(() => parseRequirementAliases("- a\n- b\n")).toThrow(CatalogError);
    expect(() => parseRequirementAliases("4.3/a: not an id\n")).toThrow(/is no requirement id/);
    expect(() => parseRequirementAliases("4.3/a: []\n")).toThrow(/is no requirement id/);
    expect(() => parseRequirementAliases("4.3/a: [4.3/b, 4.3/b]\n")).toThrow(/distinct/);
    expect(() => parseRequirementAliases("4.3/a: 4.3/b\n4.3/b: 4.3/c\n")).toThrow(/is itself an alias/);
    expect(() => parseRequirementAliases("4.3/a: [4.3/c, 4.3/b]\n4.3/b: 4.3/d\n")).toThrow(/is itself an alias/);
    expect(parseRequirementAliases("4.3/a: 4.3/b\n").get("4.3/a")).toEqual(["4.3/b"]);
  });
});
