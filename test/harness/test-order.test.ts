// npm test runs its longest files first (test/support/longest-first.ts): each listed file exists, and
// the order moves them to the front in the list's order while every other file keeps its place.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { longestFirst, LONGEST_TEST_FILES } from "../support/longest-first.ts";
import { ROOT } from "../support/test-build.ts";

describe("npm test's order", () => {
  it("names test files that exist", () => {
    for (const path of LONGEST_TEST_FILES) expect(existsSync(join(ROOT, path)), path).toBe(true);
  });

  it("puts the longest files first, in the list's order, and keeps the others' order", () => {
    const files = [
      "/r/test/codec/hex.test.ts",
      "/r/test/cli/command.test.ts",
      "/r/test/node/a.test.ts",
      "/r/test/self-check/faults.test.ts",
      "/r/test/node/b.test.ts",
    ];
    expect(longestFirst(files, (f) => f)).toEqual([
      "/r/test/self-check/faults.test.ts",
      "/r/test/cli/command.test.ts",
      "/r/test/codec/hex.test.ts",
      "/r/test/node/a.test.ts",
      "/r/test/node/b.test.ts",
    ]);
  });

  it("matches a whole path, not a file that merely ends the same way", () => {
    const files = [
      "/r/test/other/cli/command.test.ts.bak",
      "/r/test/xcli/command.test.ts",
      "/r/xtest/cli/command.test.ts",
      "/r/test/cli/command.test.ts",
    ];
    expect(longestFirst(files, (f) => f)[0]).toBe("/r/test/cli/command.test.ts");
  });
});
