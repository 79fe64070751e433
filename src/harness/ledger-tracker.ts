// Per-run shared state: the highest ledger state any response has reported so far, so that every
// response can be checked against what was seen before its request was sent (§2.7: the ledger does
// not go back). Workers share it through one small JSON file in the run's state directory. Races
// between workers can only lower the mark (a write may replace a higher one), never invent one, so the
// check can miss a regression but never report a false one. Every write replaces the file (rename), so
// a file whose inode and mtime are those last read holds what was read: one stat instead of a read and
// a parse per request (two, with the mark).

import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface LedgerMark {
  readonly ledgerVersion: bigint;
  readonly blockHeight: bigint;
  readonly timestampUsec: bigint;
  /** The request whose response set the ledger version mark. */
  readonly curl: string;
}

interface StoredState {
  ledgerVersion: string;
  blockHeight: string;
  timestampUsec: string;
  curl: string;
  chainId?: number;
  chainIdCurl?: string;
}

export class LedgerTracker {
  readonly #file: string | undefined;
  #state: StoredState | undefined;
  /** Inode and mtime of the file when it was last read. */
  #readVersion: string | undefined;

  /** Without a directory the state lives in this process only. */
  constructor(stateDir?: string) {
    this.#file = stateDir === undefined ? undefined : join(stateDir, "ledger-state.json");
  }

  /** The mark as of now; take it just before sending a request. */
  mark(): LedgerMark | undefined {
    const s = this.#load();
    if (!s) return undefined;
    return { ledgerVersion: BigInt(s.ledgerVersion), blockHeight: BigInt(s.blockHeight), timestampUsec: BigInt(s.timestampUsec), curl: s.curl };
  }

  /** The first chain id seen in this run, with the request that showed it. */
  chainId(): { chainId: number; curl: string } | undefined {
    const s = this.#load();
    return s?.chainId === undefined ? undefined : { chainId: s.chainId, curl: s.chainIdCurl ?? "" };
  }

  /** Raises the mark with a response's values (each field independently). */
  observe(values: { ledgerVersion?: bigint; blockHeight?: bigint; timestampUsec?: bigint; chainId?: number }, curl: string): void {
    const s: StoredState = this.#load() ?? { ledgerVersion: "0", blockHeight: "0", timestampUsec: "0", curl };
    let changed = false;
    const raise = (key: "ledgerVersion" | "blockHeight" | "timestampUsec", v: bigint | undefined) => {
      if (v !== undefined && v > BigInt(s[key])) {
        s[key] = v.toString();
        if (key === "ledgerVersion") s.curl = curl;
        changed = true;
      }
    };
    raise("ledgerVersion", values.ledgerVersion);
    raise("blockHeight", values.blockHeight);
    raise("timestampUsec", values.timestampUsec);
    if (s.chainId === undefined && values.chainId !== undefined) {
      s.chainId = values.chainId;
      s.chainIdCurl = curl;
      changed = true;
    }
    if (changed) this.#store(s);
  }

  #load(): StoredState | undefined {
    if (this.#file === undefined) return this.#state;
    try {
      const stat = statSync(this.#file, { throwIfNoEntry: false, bigint: true });
      if (stat === undefined) return this.#state;
      const version = `${stat.ino}:${stat.mtimeNs}:${stat.size}`;
      if (version === this.#readVersion) return this.#state;
      this.#state = JSON.parse(readFileSync(this.#file, "utf8")) as StoredState;
      this.#readVersion = version;
    } catch {
      // Not written yet (or mid-rename on a slow filesystem): keep what this process knew.
    }
    return this.#state;
  }

  #store(s: StoredState): void {
    this.#state = s;
    if (this.#file === undefined) return;
    const tmp = `${this.#file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, JSON.stringify(s));
    renameSync(tmp, this.#file);
  }
}
