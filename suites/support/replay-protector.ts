// Reading the replay_protector of a transaction summary (§2.3) where a check only needs its number.
//
// §2.3 makes it one of two objects tagged by type (the family's convention: {type: "sequence_number",
// sequence_number} or {type: "nonce", nonce}); 4.3/replay-protector-object and 4.3/replay-protector-tags
// judge that form. aptos-core renders it as the bare u64 string instead: its ReplayProtector is a poem Union of
// two U64 newtypes (api/types/src/transaction.rs), and poem-openapi inserts the discriminator only
// into object values (poem-openapi-derive/src/union.rs), so "replay_protector": "5". Checks about
// other things (the next sequence number to submit with, which summary is the committed transaction)
// read both forms, so that this one deviation fails its own requirements and no others.

export interface ReplayProtectorValue {
  /** undefined for the bare form, which does not say which kind it is. */
  readonly kind: "sequence_number" | "nonce" | undefined;
  readonly value: bigint;
}

const U64 = /^[0-9]{1,20}$/;

/** The kind and number of a replay_protector in either form, or undefined when it is neither. */
export function readReplayProtector(rp: unknown): ReplayProtectorValue | undefined {
  if (typeof rp === "string") return U64.test(rp) ? { kind: undefined, value: BigInt(rp) } : undefined;
  if (typeof rp !== "object" || rp === null) return undefined;
  const { type } = rp as { type?: unknown };
  if (type !== "sequence_number" && type !== "nonce") return undefined;
  const value = (rp as Record<string, unknown>)[type];
  return typeof value === "string" && U64.test(value) ? { kind: type, value: BigInt(value) } : undefined;
}

/** The sequence number a summary's replay_protector carries: the tagged sequence_number, or the bare form (which an account that submits only sequence-number transactions sends). */
export function sequenceNumberOf(rp: unknown): bigint | undefined {
  const read = readReplayProtector(rp);
  return read !== undefined && read.kind !== "nonce" ? read.value : undefined;
}
