// Every property holds against the reference node: one run of all of them (properties/) against a node
// on a free loopback port, exit 0, every requirement a law of properties/ checks passed, and the run
// printed its seed.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { conformanceAgainst, expectClean } from "./support/conformance-run.ts";
import { referenceNodeForFile } from "./support/reference-node.ts";

const PROPERTIES = fileURLToPath(new URL("../../properties/", import.meta.url));

/** The requirement ids the laws of properties/*.test.ts name: law("id", …). The run selects only these files, so their status is the laws'. */
function propertyIds(): string[] {
  const files = readdirSync(PROPERTIES).filter((f) => f.endsWith(".test.ts"));
  const ids = files.flatMap((f) =>
    [...readFileSync(join(PROPERTIES, f), "utf8").matchAll(/\blaw\(\s*"([^"]+)"/g)].map((m) => m[1] as string),
  );
  return [...new Set(ids)];
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
