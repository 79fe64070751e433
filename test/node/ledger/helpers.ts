// Shared by the ledger engine's unit tests: an engine on a ManualClock, and signed transfers.

import {
  encodeMoveValue,
  formatAddress,
  parseAddress,
  parseTypeTag,
  type Ed25519Account,
  type EntryFunctionInput,
  type RawTransactionInput,
  type TransactionPayloadInput,
} from "../../../src/codec/index.ts";
import { ManualClock } from "../../../src/node/ledger/clock.ts";
import type { EngineConfigInput } from "../../../src/node/ledger/config.ts";
import { createEngine, type CreatedEngine } from "../../../src/node/ledger/index.ts";
import { LedgerError } from "../../../src/node/ledger/api.ts";

export const START_MS = 1_750_000_000_000;
export const SEED = "unit-tests";

export interface TestEngine extends CreatedEngine {
  readonly clock: ManualClock;
  /** Moves the clock by one block interval and produces the block. */
  nextBlock(): void;
}

/** An engine on a ManualClock, without background transfers unless asked. */
export function testEngine(overrides: EngineConfigInput = {}): TestEngine {
  const clock = new ManualClock(START_MS);
  const created = createEngine({ seed: SEED, backgroundTransfersPerBlock: 0, clock, ...overrides });
  return {
    ...created,
    clock,
    nextBlock() {
      clock.advance(created.config.blockIntervalMs);
      created.engine.tick();
    },
  };
}

const FRAMEWORK = parseAddress("0x1");

/** A call of `0x1::<module>::<fn><typeArgs>(to: address, amount: u64)`. */
export function entryCall(
  module: string,
  fn: string,
  to: Uint8Array,
  amount: bigint,
  typeArgs: readonly string[] = [],
): EntryFunctionInput {
  return {
    module: { address: FRAMEWORK, name: module },
    function: fn,
    ty_args: typeArgs.map((t) => parseTypeTag(t)),
    args: [encodeMoveValue(parseTypeTag("address"), formatAddress(to)), encodeMoveValue(parseTypeTag("u64"), amount.toString())],
  };
}

export function entryPayload(
  module: string,
  fn: string,
  to: Uint8Array,
  amount: bigint,
  typeArgs: readonly string[] = [],
): TransactionPayloadInput {
  return { EntryFunction: entryCall(module, fn, to, amount, typeArgs) };
}

export function transferPayload(to: Uint8Array, amount: bigint): TransactionPayloadInput {
  return entryPayload("aptos_account", "transfer", to, amount);
}

export interface RawOptions {
  readonly sender: Uint8Array;
  readonly sequenceNumber: bigint;
  readonly nowSeconds: bigint;
  readonly payload?: TransactionPayloadInput;
  readonly to?: Uint8Array;
  readonly amount?: bigint;
  readonly gasUnitPrice?: bigint;
  readonly maxGasAmount?: bigint;
  readonly expirationSecs?: bigint;
  readonly chainId?: number;
}

export function rawTransaction(options: RawOptions): RawTransactionInput {
  return {
    sender: options.sender,
    sequence_number: options.sequenceNumber,
    payload: options.payload ?? transferPayload(options.to ?? FRAMEWORK, options.amount ?? 1_000n),
    max_gas_amount: options.maxGasAmount ?? 1_000n,
    gas_unit_price: options.gasUnitPrice ?? 100n,
    expiration_timestamp_secs: options.expirationSecs ?? options.nowSeconds + 600n,
    chain_id: options.chainId ?? 4,
  };
}

/** A transfer signed by `account` (legacy Ed25519 authenticator). */
export function signedTransfer(account: Ed25519Account, options: Omit<RawOptions, "sender">) {
  return account.signTransaction(rawTransaction({ sender: account.address, ...options }));
}

/** The LedgerError `fn` throws (fails the test when it throws nothing or something else). */
export function ledgerErrorOf(fn: () => unknown): LedgerError {
  try {
    fn();
  } catch (error) {
    if (error instanceof LedgerError) return error;
    throw error;
  }
  throw new Error("expected a LedgerError, but nothing was thrown");
}

export function nowSeconds(engine: CreatedEngine["engine"]): bigint {
  return engine.ledger.nowSeconds;
}
