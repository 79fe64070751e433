// The next sequence number each sender may use, as far as the run knows (taken by a transaction it got
// accepted, committed or pending), kept by all of a run's workers together in memory they share. Two
// files that send from one account in two workers at once would otherwise each ask for the number the
// other just took, be refused (the number is pending in the mempool, or already used), and give up
// after a few tries: a skipped check, or behind a slow link one judged on the suite's own race. The
// command gives each run a buffer before its workers start (shareSequenceBook, through
// worker-shared.ts); a harness outside a run keeps a book of its own.
//
// A fixed table of SLOTS senders, each slot two BigInt64 cells: a key folded from the address (never 0:
// an empty slot) and the next number. A slot is claimed with a compare-and-swap of its key; numbers
// only go up (markUsed), but for forget, which takes back the last number marked. Two addresses that
// fold to one key share a slot: the cost is a refusal and a retry, never a wrong verdict.

import { shareWithWorkers, sharedBuffer } from "./worker-shared.ts";

/** Senders a run can book: the fixtures' accounts and the multisig owner, with room to spare. */
const SLOTS = 256;
const CELLS_PER_SLOT = 2;

export class SequenceBook {
  readonly #cells: BigInt64Array;

  constructor(buffer: SharedArrayBuffer = SequenceBook.buffer()) {
    this.#cells = new BigInt64Array(buffer);
  }

  static buffer(): SharedArrayBuffer {
    return new SharedArrayBuffer(SLOTS * CELLS_PER_SLOT * BigInt64Array.BYTES_PER_ELEMENT);
  }

  /** The next number the run knows `address` may use: 0 when it has booked none. */
  next(address: Uint8Array): bigint {
    const slot = this.#slot(address, false);
    return slot === undefined ? 0n : Atomics.load(this.#cells, slot + 1);
  }

  /** `sequenceNumber` is taken (its transaction was accepted, or is pending elsewhere): the next is after it. */
  markUsed(address: Uint8Array, sequenceNumber: bigint): void {
    const slot = this.#slot(address, true);
    if (slot === undefined) return;
    for (;;) {
      const known = Atomics.load(this.#cells, slot + 1);
      if (sequenceNumber + 1n <= known) return;
      if (Atomics.compareExchange(this.#cells, slot + 1, known, sequenceNumber + 1n) === known) return;
    }
  }

  /** Takes back markUsed of `sequenceNumber` when it was the last number marked (its transaction may have been dropped). */
  forget(address: Uint8Array, sequenceNumber: bigint): void {
    const slot = this.#slot(address, false);
    if (slot !== undefined) Atomics.compareExchange(this.#cells, slot + 1, sequenceNumber + 1n, sequenceNumber);
  }

  /** The first cell of `address`'s slot, claimed if `claim`; undefined when it has none (or the table is full). */
  #slot(address: Uint8Array, claim: boolean): number | undefined {
    const key = keyOf(address);
    const start = Number(key % BigInt(SLOTS));
    for (let i = 0; i < SLOTS; i++) {
      const slot = ((start + i) % SLOTS) * CELLS_PER_SLOT;
      const held = Atomics.load(this.#cells, slot);
      if (held === key) return slot;
      if (held !== 0n) continue;
      if (!claim) return undefined;
      const before = Atomics.compareExchange(this.#cells, slot, 0n, key);
      if (before === 0n || before === key) return slot;
    }
    return undefined;
  }
}

/** The address's bytes folded into a positive 63-bit key, never 0. */
function keyOf(address: Uint8Array): bigint {
  let key = 0xcbf29ce484222325n;
  for (const byte of address) key = ((key ^ BigInt(byte)) * 0x100000001b3n) & 0x7fffffffffffffffn;
  return key === 0n ? 1n : key;
}

/** In the command, before the workers start: one book for every worker of the run whose state is in `stateDir`. */
export function shareSequenceBook(stateDir: string): void {
  shareWithWorkers("sequences", stateDir, SequenceBook.buffer());
}

/** In a worker: the run's book, as the command shared it. */
export function sharedSequenceBook(stateDir: string): SequenceBook {
  return new SequenceBook(sharedBuffer("sequences", stateDir, "sequence book"));
}
