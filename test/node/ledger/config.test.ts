// The engine's configuration: defaults as documented, and values it cannot run with refused up front.

import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, EngineConfigError, MIN_GENESIS_VERSIONS, resolveConfig } from "../../../src/node/ledger/config.ts";
import { ManualClock, SystemClock } from "../../../src/node/ledger/clock.ts";

describe("resolveConfig", () => {
  it("fills in the defaults: chain 4, minimum gas price 100, domain APTOS, submission on, real time", () => {
    const config = resolveConfig();
    expect(config).toMatchObject({ chainId: 4, minGasUnitPrice: 100n, domain: "APTOS", submissionEnabled: true });
    expect(config.pruneWindow).toBeLessThan(BigInt(config.genesisVersions)); // prunes from the start
    expect(config.clock).toBeInstanceOf(SystemClock);
    expect(resolveConfig({ seed: undefined }).seed).toBe(DEFAULT_CONFIG.seed);
  });

  it("takes numbers or bigints for the window and the minimum price", () => {
    const config = resolveConfig({ pruneWindow: 500, minGasUnitPrice: 150n, clock: new ManualClock(0) });
    expect(config.pruneWindow).toBe(500n);
    expect(config.minGasUnitPrice).toBe(150n);
  });

  it("refuses values the engine cannot run with, naming each", () => {
    const bad = [
      { chainId: 256 },
      { chainId: -1 },
      { pruneWindow: 0 },
      { blockIntervalMs: 0 },
      { mempoolCapacity: 1.5 },
      { genesisVersions: MIN_GENESIS_VERSIONS - 1 },
      { minGasUnitPrice: 0 },
      { domain: "A::B" },
      { seed: "" },
      { backgroundTransfersPerBlock: -1 },
    ];
    for (const input of bad) {
      expect(() => resolveConfig(input), JSON.stringify(input)).toThrow(EngineConfigError);
    }
    expect(() => resolveConfig({ chainId: 300, blockIntervalMs: -5 })).toThrow(/chainId.*blockIntervalMs/);
  });
});

describe("ManualClock", () => {
  it("moves only when told to", () => {
    const clock = new ManualClock(1_000);
    expect(clock.nowUsec()).toBe(1_000_000n);
    clock.advance(0.5);
    expect(clock.nowUsec()).toBe(1_000_500n);
    clock.set(5_000);
    expect(clock.nowUsec()).toBe(5_000_000n);
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });
});
