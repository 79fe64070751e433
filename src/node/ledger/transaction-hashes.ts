// The hashes a committed user transaction carries in aptos-core's TransactionInfo (api/types/src/
// transaction.rs: state_change_hash, event_root_hash, accumulator_root_hash). The node keeps no
// Merkle accumulator, no state tree and no events, so these are not aptos-core's values: each is a
// real SHA3-256 of something stated here, the same for the same transaction on every run.

import { sha3_256 } from "../../codec/index.ts";
import type { StateWrite } from "./state.ts";

const u64le = (value: bigint): Uint8Array => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
};

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/**
 * SHA3-256 of the write set as the executor applied it, in its order: per write a kind byte, then an
 * account as address ‖ sequence_number (u64 LE) ‖ authentication_key ‖ balance (u64 LE); a module as
 * address ‖ u64 LE name length ‖ name ‖ bytecode length ‖ bytecode; a table item as handle ‖ key
 * length ‖ key ‖ value length ‖ value (a deletion: no value part); a multisig account as address ‖
 * last executed and next sequence numbers (u64 LE) ‖ the number of its proposals (u64 LE).
 */
export function writeSetHash(writes: readonly StateWrite[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const write of writes) {
    switch (write.kind) {
      case "account":
        parts.push(
          Uint8Array.of(0),
          write.address,
          u64le(write.value.sequenceNumber),
          write.value.authenticationKey,
          u64le(write.value.balance),
        );
        break;
      case "module": {
        const name = utf8(write.name);
        parts.push(
          Uint8Array.of(1),
          write.address,
          u64le(BigInt(name.length)),
          name,
          u64le(BigInt(write.value.bytecode.length)),
          write.value.bytecode,
        );
        break;
      }
      case "table_item":
        parts.push(Uint8Array.of(2), write.handle, u64le(BigInt(write.key.length)), write.key);
        if (write.value !== undefined) parts.push(u64le(BigInt(write.value.length)), write.value);
        break;
      case "multisig":
        parts.push(
          Uint8Array.of(3),
          write.address,
          u64le(write.value.lastExecutedSequenceNumber),
          u64le(write.value.nextSequenceNumber),
          u64le(BigInt(write.value.transactions.size)),
        );
        break;
    }
  }
  return sha3_256(concat(parts));
}

/**
 * The root of an event accumulator without events: aptos-core's ACCUMULATOR_PLACEHOLDER_HASH
 * (crates/aptos-crypto/src/hash.rs: the bytes of "ACCUMULATOR_PLACEHOLDER_HASH", zero-padded to 32),
 * what aptos-core gives a transaction that emits none. The node emits no events.
 */
export const EMPTY_EVENT_ROOT_HASH: Uint8Array = (() => {
  const bytes = new Uint8Array(32);
  bytes.set(utf8("ACCUMULATOR_PLACEHOLDER_HASH"));
  return bytes;
})();

/** Stands in for the accumulator root after the transaction: SHA3-256 of version (u64 LE) ‖ transaction hash. */
export function accumulatorPlaceholderHash(version: bigint, transactionHash: Uint8Array): Uint8Array {
  return sha3_256(concat([u64le(version), transactionHash]));
}
