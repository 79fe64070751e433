// The alias table: every old id names a requirement of today's catalog and is no longer in it, a baseline
// or --only naming an old id reads as the new one, and a malformed table is rejected.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseBaseline } from "../../reporters/aggregate.ts";
import { ApiContract } from "../../src/harness/openapi.ts";
import { currentId, loadRequirementAliases, parseRequirementAliases } from "../../src/harness/requirement-aliases.ts";
import { CatalogError, loadRequirements } from "../../src/harness/requirements.ts";

const catalog = loadRequirements(ApiContract.load().operations.map((o) => o.id));
const aliases = loadRequirementAliases();

describe("requirement aliases", () => {
  it("map every old id, gone from the catalog, to an id of the catalog", () => {
    expect(aliases.size).toBeGreaterThan(0);
    for (const [from, to] of aliases) {
      expect(catalog.has(from), `${from} is still in the catalog`).toBe(false);
      expect(catalog.has(to), `${from} -> ${to}: not in the catalog`).toBe(true);
    }
    expect(currentId("4.5/cursor-unissued-law", aliases)).toBe("4.5/unissued-cursor-rejected");
    expect(currentId("4.3/summaries-order-law", aliases)).toBe("4.3/ascending-order");
    expect(currentId("4.3/ascending-order", aliases)).toBe("4.3/ascending-order");
  });

  it("let a baseline name an old id: it reads as the new one", () => {
    const ids = parseBaseline("4.7/health-lag-code-law  # the old spelling\n4.3/summary-list\n", "b.txt", aliases);
    expect(ids).toEqual(["4.7/unhealthy-code", "4.3/summary-list"]);
    expect(parseBaseline('["4.8/random-bcs-law"]', "b.json", aliases)).toEqual(["4.8/broken-bcs-rejected"]);
  });

  it("read baselines/aptos-core.txt as catalog ids, and the same ids when an entry is spelled the old way", () => {
    const text = readFileSync(new URL("../../baselines/aptos-core.txt", import.meta.url), "utf8");
    const ids = parseBaseline(text, "aptos-core.txt", aliases);
    for (const id of ids) expect(catalog.has(id), id).toBe(true);
    // Every alias target, written as any of its old ids, comes back as the same catalog id.
    const old = [...aliases.keys()];
    expect(parseBaseline(`${text}\n${old.join("\n")}\n`, "aptos-core.txt", aliases)).toEqual([...ids, ...old.map((o) => aliases.get(o))]);
  });

  it("reject a table that is no mapping of ids, or maps an id to an alias", () => {
    expect(() => parseRequirementAliases("- a\n- b\n")).toThrow(CatalogError);
    expect(() => parseRequirementAliases("4.3/a: not an id\n")).toThrow(/is no requirement id/);
    expect(() => parseRequirementAliases("4.3/a: 4.3/b\n4.3/b: 4.3/c\n")).toThrow(/is itself an alias/);
    expect(parseRequirementAliases("4.3/a: 4.3/b\n").get("4.3/a")).toBe("4.3/b");
  });
});
