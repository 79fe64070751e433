// Every property holds against the reference node: one run of all of them (properties/) against a node
// on a free loopback port, exit 0, every requirement of the property catalogs (and the two §2.7 header
// laws they share with the harness) passed, and the run printed its seed.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { conformanceAgainst, expectClean } from "./support/conformance-run.ts";
import { referenceNodeForFile } from "./support/reference-node.ts";

const CATALOG = fileURLToPath(new URL("../../schemas/requirements/", import.meta.url));

/** The ids of the property catalogs (schemas/requirements/*-properties-*.yaml) and the header laws reused from the cross-cutting file. */
function propertyIds(): string[] {
  const files = readdirSync(CATALOG).filter((f) => /-properties-.*\.yaml$/.test(f));
  const ids = files.flatMap((f) => (parse(readFileSync(join(CATALOG, f), "utf8")) as { id: string }[]).map((r) => r.id));
  return [...ids, "2.7/header-consistency", "2.7/ledger-state-monotonic"];
}

const target = referenceNodeForFile();

describe("the properties against the reference node", () => {
  it("all hold: exit 0, every property requirement passed, and the seed printed", async () => {
    const ids = propertyIds();
    expect(ids.length).toBeGreaterThanOrEqual(20);
    const run = await conformanceAgainst(target, "properties");
    expectClean(run, ids);
    expect(run.stdout).toMatch(/properties: seed \d+ \(chosen for this run; replay the whole run with --seed \d+\)/);
  }, 180_000);
});
