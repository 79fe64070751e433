// Ledger headers under another prefix than the run's: found per response, bounded, merged, and turned
// into the verdict's hint with the flags that make the run expect them.

import { describe, expect, it } from "vitest";
import {
  flagsFor,
  ForeignPrefixTally,
  foreignLedgerPrefixes,
  foreignPrefixHint,
  MAX_FOREIGN_PREFIXES,
} from "../../src/harness/foreign-header-prefix.ts";
import { buildSummary } from "../../reporters/summary.ts";
import type { RunOutcome } from "../../src/outcome/run-outcome.ts";
import { verdictOf } from "../../src/outcome/verdict.ts";

describe("foreignLedgerPrefixes", () => {
  it("finds the prefixes of ledger-version headers other than the run's, upper case", () => {
    const headers = {
      "x-aptos-ledger-version": "5",
      "x-aptos-epoch": "1",
      "x-node-ledger-version": "5",
      "content-type": "application/json",
    };
    expect(foreignLedgerPrefixes(headers, "X-NODE-")).toEqual(["X-APTOS-"]);
    expect(foreignLedgerPrefixes(headers, "x-aptos-")).toEqual(["X-NODE-"]);
    expect(foreignLedgerPrefixes({ "x-node-ledger-version": "5" }, "X-NODE-")).toEqual([]);
  });

  it("ignores names that are not x-<letters>-ledger-version, and overlong prefixes", () => {
    const headers = {
      "x-a1-ledger-version": "5",
      "ledger-version": "5",
      "x-a-b-ledger-version": "5",
      [`x-${"a".repeat(60)}-ledger-version`]: "5",
    };
    expect(foreignLedgerPrefixes(headers, "X-NODE-")).toEqual([]);
  });
});

describe("ForeignPrefixTally", () => {
  it("merges checks' findings, keeps so many distinct prefixes, and is undefined when none was seen", () => {
    const tally = new ForeignPrefixTally();
    expect(tally.seen()).toBeUndefined();
    tally.add("X-NODE-", []);
    expect(tally.seen()).toBeUndefined();
    tally.merge({ expected: "X-NODE-", seen: ["X-APTOS-"] });
    tally.add("X-NODE-", ["X-APTOS-"]);
    expect(tally.seen()).toEqual({ expected: "X-NODE-", seen: ["X-APTOS-"] });
    for (const p of ["X-A-", "X-B-", "X-C-", "X-D-", "X-E-"]) tally.add("X-NODE-", [p]);
    expect(tally.seen()?.seen).toHaveLength(MAX_FOREIGN_PREFIXES);
    tally.add("X-NODE-", ["not a prefix"]);
    expect(tally.seen()?.seen).not.toContain("NOT A PREFIX");
  });
});

describe("the hint", () => {
  it("names a wire profile's flags, with the aptos-core baseline for the aptos family, else --header-prefix", () => {
    expect(flagsFor("X-APTOS-")).toBe("--profile aptos --baseline baselines/aptos-core.txt");
    expect(flagsFor("X-NODE-")).toBe("--profile node");
    expect(flagsFor("X-SUI-")).toBe("--header-prefix X-SUI-");
    expect(foreignPrefixHint({ expected: "X-APTOS-", seen: ["X-NODE-"] })).toBe(
      "the target sends X-NODE-* ledger headers, not X-APTOS-*: run with --profile node",
    );
  });

  it("ends the verdict's detail and headline, and summary.json carries it beside verdictText", () => {
    const outcome: RunOutcome = {
      requirements: [],
      errors: [],
      requests: 3,
      retries: 0,
      foreignHeaderPrefixes: { expected: "X-NODE-", seen: ["X-APTOS-"] },
    };
    const hint = "the target sends X-APTOS-* ledger headers, not X-NODE-*: run with --profile aptos --baseline baselines/aptos-core.txt";
    const verdict = verdictOf(outcome);
    expect(verdict.hint).toBe(hint);
    expect(verdict.detail.endsWith(`; ${hint}`)).toBe(true);
    expect(verdict.headline.endsWith(`; ${hint}`)).toBe(true);
    const summary = buildSummary(outcome, {
      verdict: verdictOf(outcome),
      target: "http://127.0.0.1:1",
      startedAt: new Date(0),
      durationMs: 1,
    });
    expect(summary.verdictText).toBe(verdict.headline);
    expect(summary.foreignHeaderPrefixes).toEqual({ expected: "X-NODE-", seen: ["X-APTOS-"], hint });
    const without = verdictOf({ ...outcome, foreignHeaderPrefixes: undefined });
    expect(without.hint).toBeUndefined();
    expect(without.headline).not.toContain("ledger headers");
  });
});
