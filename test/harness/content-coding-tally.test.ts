// The content-coding tally: answers per coding, asked or unasked by the request's Accept-Encoding,
// merged across checks, bounded, and told in one line.

import { describe, expect, it } from "vitest";
import { ACCEPT_ENCODING } from "../../src/harness/content-coding.ts";
import {
  acceptEncodingOf,
  ContentCodingTally,
  describeContentCodings,
  MAX_DISTINCT_CODINGS,
} from "../../src/harness/content-coding-tally.ts";

describe("ContentCodingTally", () => {
  it("counts each coding of an answer once, asked when Accept-Encoding listed it", () => {
    const tally = new ContentCodingTally();
    tally.addAnswer(["gzip"], ACCEPT_ENCODING);
    tally.addAnswer(["gzip", "br"], ACCEPT_ENCODING);
    tally.addAnswer(["gzip"], undefined);
    tally.addAnswer(["gzip"], "identity");
    expect(tally.seen()).toEqual([
      { coding: "gzip", asked: 2, unasked: 2 },
      { coding: "br", asked: 1, unasked: 0 },
    ]);
  });

  it("merges another tally's data, bounded in names and number, and says nothing when no answer was coded", () => {
    expect(new ContentCodingTally().seen()).toBeUndefined();
    const tally = new ContentCodingTally();
    tally.merge([
      { coding: "GZIP", asked: 3, unasked: 1 },
      { coding: "x\u001b[31m", asked: 0, unasked: 1 },
      { coding: "bad", asked: -1, unasked: 0 },
    ]);
    for (let i = 0; i < 40; i++) tally.addAnswer([`c${i}`], undefined);
    const seen = tally.seen() ?? [];
    expect(seen).toHaveLength(MAX_DISTINCT_CODINGS);
    expect(seen[0]).toEqual({ coding: "gzip", asked: 3, unasked: 1 });
    expect(seen.map((c) => c.coding)).toContain("x?[31m");
  });

  it("tells the counts in one line", () => {
    expect(
      describeContentCodings([
        { coding: "gzip", asked: 1200, unasked: 35 },
        { coding: "br", asked: 4, unasked: 0 },
      ]),
    ).toBe("gzip: 1,200 asked, 35 unasked; br: 4 asked");
  });

  it("finds Accept-Encoding whatever the case of its name", () => {
    expect(acceptEncodingOf({ "Accept-Encoding": "br" })).toBe("br");
    expect(acceptEncodingOf({ accept: "application/json" })).toBeUndefined();
  });
});
