// The benchmark's helpers (no figure is timed or asserted here): percentiles, the seeded versions,
// table layout, the command line, and the pre-signed submissions the throughput run sends.

import { describe, expect, it } from "vitest";
import { renderTable } from "../../bench/format.ts";
import { DEFAULT_OPTIONS, parseCommandLine, UsageError } from "../../bench/options.ts";
import { median, percentile, randomBigIntBetween } from "../../bench/stats.ts";
import { seededRandom } from "../../src/harness/seeded-random.ts";
import { signTransfers } from "../../bench/submissions.ts";
import {
  decodeSignedTransaction,
  Ed25519Account,
  encodeSignedTransaction,
  formatAddress,
  toHex,
  verifyTransactionAuthenticator,
} from "../../src/codec/index.ts";
import type { EngineFixtures } from "../../src/node/ledger/index.ts";

describe("percentile", () => {
  it("interpolates between the nearest ranks, whatever the input order", () => {
    const values = [40, 10, 30, 20, 50];
    expect(percentile(values, 0)).toBe(10);
    expect(percentile(values, 100)).toBe(50);
    expect(median(values)).toBe(30);
    expect(percentile(values, 25)).toBe(20);
    expect(percentile([1, 2], 50)).toBe(1.5);
    expect(percentile(values, 99)).toBeCloseTo(49.6);
  });

  it("is NaN for no samples and rejects a percentile outside 0..100", () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe("seeded versions", () => {
  it("repeat for the same seed and differ for another", () => {
    const draw = (seed: number) => Array.from({ length: 5 }, seededRandom(seed));
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it("stay inside the window, both ends included", () => {
    const random = seededRandom(1);
    const seen = new Set<bigint>();
    for (let i = 0; i < 2_000; i++) {
      const v = randomBigIntBetween(random, 999_000n, 999_009n);
      expect(v >= 999_000n && v <= 999_009n).toBe(true);
      seen.add(v);
    }
    expect(seen.size).toBe(10);
    expect(() => randomBigIntBetween(random, 5n, 4n)).toThrow(RangeError);
  });
});

describe("renderTable", () => {
  it("pads columns to their widest cell, numbers to the right, and prints the notes under it", () => {
    const text = renderTable({
      title: "T",
      columns: [{ header: "name" }, { header: "ms", align: "right" }],
      rows: [
        ["a", "1.5"],
        ["longer", "12.25"],
      ],
      notes: ["a note"],
    });
    expect(text.split("\n")).toEqual(["T", "name       ms", "------  -----", "a         1.5", "longer  12.25", "  a note"]);
  });
});

describe("the bench command line", () => {
  it("runs every part with the defaults when given nothing", () => {
    expect(parseCommandLine([])).toEqual({ help: false, parts: [], options: DEFAULT_OPTIONS });
  });

  it("takes parts as positionals and durations as options", () => {
    const parsed = parseCommandLine(["node", "--duration", "2", "--versions", "10000,20000", "--startup-runs", "1"]);
    expect(parsed.help).toBe(false);
    if (parsed.help) return;
    expect(parsed.parts).toEqual(["node"]);
    expect(parsed.options.durationSeconds).toBe(2);
    expect(parsed.options.versions).toEqual([10_000, 20_000]);
    expect(parsed.options.startupRuns).toBe(1);
    expect(parsed.options.connections).toBe(DEFAULT_OPTIONS.connections);
  });

  it("refuses values the runs cannot use", () => {
    expect(() => parseCommandLine(["--duration", "0"])).toThrow(UsageError);
    expect(() => parseCommandLine(["--connections", "x"])).toThrow(UsageError);
    expect(() => parseCommandLine(["--versions", "500"])).toThrow(/at least 1000/);
    expect(() => parseCommandLine(["--unknown"])).toThrow(UsageError);
  });
});

describe("signTransfers", () => {
  const accounts = [1, 2, 3].map((n) => new Ed25519Account(new Uint8Array(32).fill(n)));
  const fixtures: EngineFixtures = {
    chainId: 4,
    accounts: accounts.map((a) => ({ address: formatAddress(a.address), privateKey: toHex(a.privateKey) })),
    transactionsAccount: "0x5",
    moduleAccount: "0x1",
    moduleName: "coin",
    tables: [],
    table: { handle: "0x6", keyType: "u64", valueType: "address", key: "7" },
    history: {
      modulePublished: { address: "0x1", name: "randomness", version: "10" },
      tableItemInserted: { handle: "0x6", keyType: "u64", valueType: "address", key: "8", version: "11" },
    },
    multisigAccount: { address: "0x7", owner: formatAddress(accounts[2]?.address ?? new Uint8Array(32)) },
  };

  it("signs distinct valid transactions, round-robin over the accounts with sequence numbers counting up", () => {
    const pool = signTransfers(fixtures, 7);
    expect(pool.senders).toBe(3);
    const decoded = pool.bodies.map((body) => decodeSignedTransaction(new Uint8Array(body)));
    expect(new Set(pool.bodies.map((b) => b.toString("hex"))).size).toBe(7);
    decoded.forEach((signed, i) => {
      expect(signed.raw_txn.sender).toEqual(accounts[i % 3]?.address);
      expect(signed.raw_txn.sequence_number).toBe(BigInt(Math.floor(i / 3)));
      expect(signed.raw_txn.chain_id).toBe(4);
      expect(verifyTransactionAuthenticator(signed, "APTOS").ok).toBe(true);
    });
  });

  it("signs the same bytes as the codec's signer (node's ed25519 is only faster)", () => {
    const body = signTransfers(fixtures, 1).take();
    const decoded = decodeSignedTransaction(new Uint8Array(body));
    const bySigner = encodeSignedTransaction((accounts[0] as Ed25519Account).signTransaction(decoded.raw_txn));
    expect(toHex(new Uint8Array(body))).toBe(toHex(bySigner));
  });

  it("hands each transaction out once, then counts the repeats", () => {
    const pool = signTransfers(fixtures, 2);
    const [first, second, third] = [pool.take(), pool.take(), pool.take()];
    expect(first).not.toEqual(second);
    expect(third).toEqual(first);
    expect(pool.repeated).toBe(1);
  });
});
