// Fixtures files, accounts from the environment, profiles and the loopback rule that guards submissions.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkTimeoutMs,
  defaultClockToleranceMs,
  isLoopbackUrl,
  normalizeHeaderPrefix,
  normalizeTarget,
  workersSharingSlots,
} from "../../src/harness/config.ts";
import { accountsFromEnvironment, FixturesError, loadFixturesFile, parseFixtures } from "../../src/harness/fixtures.ts";
import { parseConformanceArgs } from "../../src/cli/args.ts";
import { UsageError } from "../../src/harness/usage-error.ts";

describe("fixtures", () => {
  const full = {
    chainId: 4,
    accounts: [{ address: "0xa1", privateKey: "0x01" }],
    transactionsAccount: "0xb2",
    moduleAccount: "0x1",
    moduleName: "coin",
    table: { handle: "0xc3", keyType: "u64", valueType: "address", key: "7" },
  };

  it("accepts the fixtures file's members, each optional", () => {
    expect(parseFixtures(full)).toEqual(full);
    expect(parseFixtures({})).toEqual({});
  });

  it("accepts the history extension, and names a version that is not a u64 string", () => {
    const history = {
      modulePublished: { address: "0x1", name: "randomness", version: "1500" },
      tableItemInserted: { handle: "0xc3", keyType: "u64", valueType: "address", key: "120", version: "1375" },
    };
    expect(parseFixtures({ ...full, history })).toEqual({ ...full, history });
    expect(parseFixtures({ history: {} })).toEqual({ history: {} });
    expect(() => parseFixtures({ history: { modulePublished: { address: "0x1", name: "randomness", version: 1500 } } })).toThrow(
      /\/history\/modulePublished\/version/,
    );
    expect(() =>
      parseFixtures({ history: { tableItemInserted: { handle: "0xc3", keyType: "u64", valueType: "address", key: "1" } } }),
    ).toThrow(/version/);
  });

  it("rejects wrong member types with every problem named", () => {
    expect(() => parseFixtures({ chainId: 300, moduleAccount: "1", table: { handle: "0x1" } })).toThrow(
      /\/chainId.*\/moduleAccount.*\/table/s,
    );
    expect(() => parseFixtures({ accounts: [{ address: "0x1" }] })).toThrow(FixturesError);
  });

  it("reads a file, and says what is wrong with an unreadable or non-JSON one", () => {
    const dir = mkdtempSync(join(tmpdir(), "fixtures-"));
    writeFileSync(join(dir, "ok.json"), JSON.stringify(full));
    writeFileSync(join(dir, "bad.json"), "{ nope");
    expect(loadFixturesFile(join(dir, "ok.json")).moduleName).toBe("coin");
    expect(() => loadFixturesFile(join(dir, "bad.json"))).toThrow(/is not JSON/);
    expect(() => loadFixturesFile(join(dir, "missing.json"))).toThrow(/cannot read fixtures file/);
  });

  it("takes accounts from LEDGER_CONFORMANCE_ACCOUNTS", () => {
    expect(accountsFromEnvironment(undefined)).toBeUndefined();
    expect(accountsFromEnvironment('[{"address":"0x1","privateKey":"0xff"}]')).toEqual([{ address: "0x1", privateKey: "0xff" }]);
    expect(() => accountsFromEnvironment("[{]")).toThrow(/not JSON/);
    expect(() => accountsFromEnvironment('[{"address":"0x1"}]')).toThrow(FixturesError);
  });
});

describe("target rules", () => {
  it("treats only loopback hosts as loopback", () => {
    for (const url of ["http://127.0.0.1:8080/v1", "http://127.5.6.7/v1", "http://localhost:1/v1", "http://[::1]:80/v1"])
      expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of ["http://10.0.0.1/v1", "https://fullnode.example.com/v1", "http://127.0.0.1.example.com/v1", "not a url"])
      expect(isLoopbackUrl(url), url).toBe(false);
  });

  it("normalizes header prefixes and targets", () => {
    expect(normalizeHeaderPrefix("x-aptos")).toBe("X-APTOS-");
    expect(normalizeHeaderPrefix("X-NODE-")).toBe("X-NODE-");
    expect(normalizeTarget("http://h/v1/")).toBe("http://h/v1");
  });
});

describe("command-line flags", () => {
  it("has defaults for everything but the target", () => {
    expect(parseConformanceArgs([], {})).toEqual({
      reportDir: "reports",
      profile: "node",
      allowSubmit: false,
      only: [],
      skip: [],
      level: "all",
      secretHeaders: {},
      timeoutMs: 10_000,
      maxDurationMs: 300_000,
      depth: 1,
      concurrency: 16,
      quiet: false,
    });
  });

  it("parses every flag", () => {
    const args = parseConformanceArgs(
      [
        "--target",
        "https://n.example/v1",
        "--fixtures",
        "f.json",
        "--report-dir",
        "out",
        "--profile",
        "aptos",
        "--header-prefix",
        "X-APTOS-",
        "--allow-submit",
        "--only",
        "4.6",
        "--baseline",
        "b.txt",
        "--timeout",
        "500",
        "--max-duration",
        "9000",
        "--seed=-3",
        "--path",
        "1:2",
        "--depth",
        "2.5",
        "--rate-limit",
        "5",
        "--quiet",
        "--clock-tolerance",
        "0",
        "--concurrency",
        "4",
      ],
      {},
    );
    expect(args).toEqual({
      target: "https://n.example/v1",
      fixtures: "f.json",
      reportDir: "out",
      profile: "aptos",
      headerPrefix: "X-APTOS-",
      allowSubmit: true,
      only: ["4.6"],
      skip: [],
      level: "all",
      secretHeaders: {},
      baseline: "b.txt",
      timeoutMs: 500,
      maxDurationMs: 9000,
      seed: -3,
      replayPath: "1:2",
      depth: 2.5,
      rateLimit: 5,
      concurrency: 4,
      concurrencyGiven: true,
      clockToleranceMs: 0,
      quiet: true,
    });
  });

  it("takes the clock tolerance from the flag, else from LEDGER_CONFORMANCE_CLOCK_TOLERANCE_MS, else leaves it to the target's default", () => {
    const env = { LEDGER_CONFORMANCE_CLOCK_TOLERANCE_MS: "750" };
    expect(parseConformanceArgs(["--clock-tolerance", "40"], env)).toMatchObject({ clockToleranceMs: 40 });
    expect(parseConformanceArgs([], env)).toMatchObject({ clockToleranceMs: 750 });
    expect(parseConformanceArgs([], {})).not.toHaveProperty("clockToleranceMs");
    expect(() => parseConformanceArgs([], { LEDGER_CONFORMANCE_CLOCK_TOLERANCE_MS: "5s" })).toThrow(
      /LEDGER_CONFORMANCE_CLOCK_TOLERANCE_MS needs a whole number of milliseconds, got '5s'/,
    );
    expect(defaultClockToleranceMs("http://127.0.0.1:8080/v1")).toBe(25);
    expect(defaultClockToleranceMs("https://node.example/v1")).toBe(5_000);
  });

  it.each([
    [["--target", "ftp://x/v1"]],
    [["--target", "nope"]],
    [["--timeout", "0"]],
    [["--depth", "-1"]],
    [["--seed", "1.5"]],
    [["--path", "1:2"]],
    [["--header-prefix", "X NODE"]],
    [["--clock-tolerance", "-1"]],
    [["--clock-tolerance", "1.5"]],
    [["--concurrency", "0"]],
    [["--concurrency", "2.5"]],
    [["--bogus"]],
    [["positional"]],
  ])("rejects %j as a usage error", (argv) => {
    expect(() => parseConformanceArgs(argv, {})).toThrow(UsageError);
  });
});

describe("checkTimeoutMs", () => {
  it("gives a check six requests' worth of the timeout and a margin, times the workers whose requests it may wait behind", () => {
    expect(checkTimeoutMs(10_000)).toBe(65_000);
    expect(checkTimeoutMs(10_000, workersSharingSlots({ sharedInFlight: true, workers: 4 }))).toBe(260_000);
    // A worker with its own limit waits behind its own requests only.
    expect(workersSharingSlots({ workers: 4 })).toBe(1);
    expect(workersSharingSlots(undefined)).toBe(1);
  });
});
