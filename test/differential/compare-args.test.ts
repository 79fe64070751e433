// The flags of the comparison modes on the run command: --compare-to, --compare-fixtures, --fail-on-diff, --record.

import { describe, expect, it } from "vitest";
import { parseConformanceArgs } from "../../src/cli/args.ts";

describe("comparison flags", () => {
  it("parses them, and leaves them out when not given", () => {
    expect(
      parseConformanceArgs(["--compare-to", "http://127.0.0.1:9/v1", "--compare-fixtures", "b.json", "--fail-on-diff", "--record"], {}),
    ).toMatchObject({
      compareTo: "http://127.0.0.1:9/v1",
      compareFixtures: "b.json",
      failOnDiff: true,
      record: true,
    });
    const none = parseConformanceArgs([], {});
    for (const member of ["compareTo", "compareFixtures", "failOnDiff", "record"]) expect(none).not.toHaveProperty(member);
  });

  it("refuses a --compare-to that is not an http URL, and --fail-on-diff or --compare-fixtures without it", () => {
    expect(() => parseConformanceArgs(["--compare-to", "node-b"], {})).toThrow(/--compare-to must be a URL/);
    expect(() => parseConformanceArgs(["--compare-to", "ftp://x/v1"], {})).toThrow(/--compare-to must be http or https/);
    expect(() => parseConformanceArgs(["--fail-on-diff"], {})).toThrow(/need --compare-to/);
    expect(() => parseConformanceArgs(["--compare-fixtures", "b.json"], {})).toThrow(/need --compare-to/);
  });
});
