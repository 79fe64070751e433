// The gas the engine charges, in external gas units (modelled on Aptos' bounds; the amounts are the
// engine's own, kept small and deterministic).

export const MAX_GAS_UNITS = 2_000_000n;
export const MAX_GAS_UNIT_PRICE = 10_000_000_000n;

/** Every transaction pays this much, plus one unit per started kilobyte beyond the first 600 bytes. */
const INTRINSIC_BASE = 3n;
const FREE_BYTES = 600;

export const GAS = {
  transfer: 5n,
  createAccount: 2n,
  noop: 1n,
  /** publish_package_txn: this much, plus publishPerCodeByte for every byte of module code it publishes. */
  publishPackage: 5n,
  publishPerCodeByte: 1n,
} as const;

/** The gas a transaction of `size` signed bytes costs before it executes anything. */
export function intrinsicGas(size: number): bigint {
  return INTRINSIC_BASE + BigInt(Math.ceil(Math.max(0, size - FREE_BYTES) / 1024));
}
