// §4.7 health: without duration_secs always healthy; with it, healthy while the latest ledger timestamp
// is within duration_secs of the node's clock.

import { describe, expect, it } from "vitest";
import { testEngine } from "./helpers.ts";

describe("isHealthy", () => {
  it("is healthy without a duration, however far the ledger lags", () => {
    const { engine, clock } = testEngine({ autoTick: false });
    clock.advance(3_600_000);
    expect(engine.isHealthy()).toBe(true);
  });

  it("compares the latest ledger timestamp with the clock", () => {
    const { engine, clock } = testEngine({ autoTick: false });
    expect(engine.isHealthy(0n)).toBe(true); // genesis ends at the clock's time
    clock.advance(10_000);
    expect(engine.isHealthy(9n)).toBe(false);
    expect(engine.isHealthy(10n)).toBe(true);
    expect(engine.isHealthy(11n)).toBe(true);
    expect(engine.isHealthy(2n ** 64n - 1n)).toBe(true);
    engine.tick(); // the producer catches up: ten blocks, the last at the clock's time
    expect(engine.isHealthy(0n)).toBe(true);
  });

  it("lags by less than a block interval while the producer keeps up", () => {
    const { engine, clock } = testEngine({ blockIntervalMs: 1_000 });
    clock.advance(1_500);
    engine.info();
    expect(engine.isHealthy(0n)).toBe(false);
    expect(engine.isHealthy(1n)).toBe(true);
  });
});
