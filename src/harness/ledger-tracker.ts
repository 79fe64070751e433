// Per-run shared state: the highest ledger state any response has reported so far, so that every
// response can be checked against what was seen before its request was sent (§2.7: the ledger does
// not go back). A run's workers are threads of one process, and share the mark as memory: the command
// gives each run a buffer before its workers start (shareLedgerTracker, through worker-shared.ts); a
// run of one worker keeps its own. (It was a JSON file in the run's state directory, stat-ed per
// request and replaced whenever the mark rose: ~0.2 ms of CPU a request, a few CPU-seconds of a
// fleet's run.)
//
// Writers take a lock, so a raise is never lost to another worker's; readers take none, and read again
// when a write went on meanwhile (a sequence number, odd while a write is under way). A write is a few
// stores with no await, and its finally releases the lock whatever happens; a worker stopped in the
// middle of one is stopped with the whole run (vitest ends a run's workers together).

import { sharedBuffer, shareWithWorkers } from "./worker-shared.ts";

export interface LedgerMark {
  readonly ledgerVersion: bigint;
  readonly blockHeight: bigint;
  readonly timestampUsec: bigint;
  /** The request whose response set the ledger version mark. */
  readonly curl: string;
}

/** Int32 cells: the writers' lock (0 free, 1 held), the write sequence, whether a mark was set, and the two curl lines' lengths in bytes. */
const LOCK = 0;
const SEQUENCE = 1;
const MARKED = 2;
const MARK_CURL_LENGTH = 3;
const CHAIN_CURL_LENGTH = 4;
/** u64 cells (the ledger headers' type), after the Int32 ones (six, for the alignment): the mark, and the chain id plus one (0: none seen yet). */
const LEDGER_VERSION = 3;
const BLOCK_HEIGHT = 4;
const TIMESTAMP_USEC = 5;
const CHAIN_ID = 6;
const NUMBERS_BYTES = 7 * BigUint64Array.BYTES_PER_ELEMENT;
/**
 * Room for each curl line, in UTF-8 bytes. A line inlines a body of up to 16 KiB, up to four bytes per
 * byte when it is written as printf escapes (curl.ts); a longer line is kept cut, and says so.
 */
const CURL_BYTES = 72 * 1024;

/** A response's ledger headers, as §2.7 types them (u64; the chain id u8). */
export interface ObservedValues {
  readonly ledgerVersion?: bigint;
  readonly blockHeight?: bigint;
  readonly timestampUsec?: bigint;
  readonly chainId?: number;
}

type Raisable = "ledgerVersion" | "blockHeight" | "timestampUsec";
const RAISABLE: readonly Raisable[] = ["ledgerVersion", "blockHeight", "timestampUsec"];
const CELL_OF: Readonly<Record<Raisable, number>> = {
  ledgerVersion: LEDGER_VERSION,
  blockHeight: BLOCK_HEIGHT,
  timestampUsec: TIMESTAMP_USEC,
};

export class LedgerTracker {
  readonly #cells: Int32Array;
  readonly #numbers: BigUint64Array;
  readonly #markCurl: Uint8Array;
  readonly #chainCurl: Uint8Array;

  /** A tracker on `buffer` (LedgerTracker.buffer()): trackers on the same buffer share one mark. */
  constructor(buffer: SharedArrayBuffer = LedgerTracker.buffer()) {
    this.#cells = new Int32Array(buffer, 0, 6);
    this.#numbers = new BigUint64Array(buffer, 0, 7);
    this.#markCurl = new Uint8Array(buffer, NUMBERS_BYTES, CURL_BYTES);
    this.#chainCurl = new Uint8Array(buffer, NUMBERS_BYTES + CURL_BYTES, CURL_BYTES);
  }

  /** A buffer with no mark and no chain id. */
  static buffer(): SharedArrayBuffer {
    return new SharedArrayBuffer(NUMBERS_BYTES + 2 * CURL_BYTES);
  }

  /** The mark as of now; take it just before sending a request. */
  mark(): LedgerMark | undefined {
    return this.#read(() => {
      if (Atomics.load(this.#cells, MARKED) === 0) return undefined;
      return {
        ledgerVersion: Atomics.load(this.#numbers, LEDGER_VERSION),
        blockHeight: Atomics.load(this.#numbers, BLOCK_HEIGHT),
        timestampUsec: Atomics.load(this.#numbers, TIMESTAMP_USEC),
        curl: decoded(this.#markCurl, Atomics.load(this.#cells, MARK_CURL_LENGTH)),
      };
    });
  }

  /** The first chain id seen in this run, with the request that showed it. */
  chainId(): { chainId: number; curl: string } | undefined {
    return this.#read(() => {
      const chainId = Atomics.load(this.#numbers, CHAIN_ID);
      return chainId === 0n
        ? undefined
        : { chainId: Number(chainId - 1n), curl: decoded(this.#chainCurl, Atomics.load(this.#cells, CHAIN_CURL_LENGTH)) };
    });
  }

  /**
   * Raises the mark with a response's values (each field independently). A mark starts at 0 with the
   * first response observed, whose request it names until a later response raises the ledger version.
   */
  observe(values: ObservedValues, curl: string): void {
    // Most responses raise nothing: they take no lock. What they would raise is decided again under it.
    if (!this.#raises(values)) return;
    this.#write(() => {
      const marked = Atomics.load(this.#cells, MARKED) === 1;
      let named = !marked;
      for (const key of RAISABLE) {
        const v = values[key];
        if (v === undefined || v <= (marked ? Atomics.load(this.#numbers, CELL_OF[key]) : 0n)) continue;
        Atomics.store(this.#numbers, CELL_OF[key], v);
        if (key === "ledgerVersion") named = true;
      }
      if (named) Atomics.store(this.#cells, MARK_CURL_LENGTH, encodeInto(curl, this.#markCurl));
      Atomics.store(this.#cells, MARKED, 1);
      if (values.chainId !== undefined && Atomics.load(this.#numbers, CHAIN_ID) === 0n) {
        Atomics.store(this.#numbers, CHAIN_ID, BigInt(values.chainId) + 1n);
        Atomics.store(this.#cells, CHAIN_CURL_LENGTH, encodeInto(curl, this.#chainCurl));
      }
    });
  }

  /** Whether `values` would change the state: a first mark, a higher value, a first chain id. */
  #raises(values: ObservedValues): boolean {
    if (Atomics.load(this.#cells, MARKED) === 0) return values.chainId !== undefined || RAISABLE.some((key) => values[key] !== undefined);
    if (values.chainId !== undefined && Atomics.load(this.#numbers, CHAIN_ID) === 0n) return true;
    return RAISABLE.some((key) => {
      const v = values[key];
      return v !== undefined && v > Atomics.load(this.#numbers, CELL_OF[key]);
    });
  }

  /** `read` on a state no write changed while it read. */
  #read<T>(read: () => T): T {
    for (;;) {
      const before = Atomics.load(this.#cells, SEQUENCE);
      if (before % 2 === 1) {
        Atomics.wait(this.#cells, SEQUENCE, before, 1);
        continue;
      }
      const value = read();
      if (Atomics.load(this.#cells, SEQUENCE) === before) return value;
    }
  }

  #write(write: () => void): void {
    while (Atomics.compareExchange(this.#cells, LOCK, 0, 1) !== 0) Atomics.wait(this.#cells, LOCK, 1, 1);
    try {
      Atomics.add(this.#cells, SEQUENCE, 1);
      write();
    } finally {
      Atomics.add(this.#cells, SEQUENCE, 1);
      Atomics.notify(this.#cells, SEQUENCE);
      Atomics.store(this.#cells, LOCK, 0);
      Atomics.notify(this.#cells, LOCK, 1);
    }
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Writes `text` as UTF-8 into `into`, cut (and saying so) when it does not fit; the bytes written. */
function encodeInto(text: string, into: Uint8Array): number {
  const bytes = encoder.encode(text);
  if (bytes.length <= into.length) {
    into.set(bytes);
    return bytes.length;
  }
  const note = encoder.encode(` … (cut: the whole line is ${bytes.length} bytes)`);
  // Cut on a character's first byte, so that the kept part stays valid UTF-8.
  let end = into.length - note.length;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  into.set(bytes.subarray(0, end));
  into.set(note, end);
  return end + note.length;
}

function decoded(bytes: Uint8Array, length: number): string {
  // TextDecoder reads no shared memory: a copy.
  return decoder.decode(bytes.slice(0, length));
}

/** In the command, before the workers start: one mark for every worker of the run whose state is in `stateDir`. */
export function shareLedgerTracker(stateDir: string): void {
  shareWithWorkers("ledger-mark", stateDir, LedgerTracker.buffer());
}

/** In a worker: the run's mark, as the command shared it. */
export function sharedLedgerTracker(stateDir: string): LedgerTracker {
  return new LedgerTracker(sharedBuffer("ledger-mark", stateDir, "ledger mark"));
}
