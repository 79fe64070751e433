// A genesis of a million versions must start in seconds and modest memory (the quiet part of its
// history is laid down in bulk). The time is logged, not asserted: machines differ.

import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/node/ledger/clock.ts";
import { createEngine } from "../../../src/node/ledger/index.ts";

describe("a genesis of 1,000,000 versions", () => {
  it("starts, with the latest version at 999,999", () => {
    const started = performance.now();
    const heapBefore = process.memoryUsage().heapUsed;
    const { engine } = createEngine({
      genesisVersions: 1_000_000,
      clock: new ManualClock(1_750_000_000_000),
      backgroundTransfersPerBlock: 0,
    });
    const info = engine.info();
    const ms = Math.round(performance.now() - started);
    const heapMb = Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e6);
    console.log(
      `genesis of 1,000,000 versions: ${ms} ms, heap +${heapMb} MB, oldest version ${info.oldestLedgerVersion}, block height ${info.blockHeight}`,
    );
    expect(info.ledgerVersion).toBe(999_999n);
  }, 120_000);
});
