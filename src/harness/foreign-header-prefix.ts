// Ledger-state headers (§2.7) under a prefix other than the run's: a node of the family answering with
// X-APTOS-* to a run that expects X-NODE-* (or the reverse) fails every header requirement for a reason
// one flag mends. Seen per response by a check (its trace), carried to the reporter in the check's task
// meta, merged there for the run, and said in the verdict's headline with the flags to use. Prefixes
// come from the target: only names of the form x-<letters>-ledger-version count, and so many are kept.

import { WIRE_PROFILES } from "../codec/wire-profiles.ts";

/** What a run saw, as data (task meta, summary.json): the prefix it expected and the others it met. */
export interface ForeignHeaderPrefixes {
  /** The run's prefix, e.g. "X-NODE-". */
  readonly expected: string;
  /** Other prefixes of ledger-version headers, upper case, sorted, e.g. ["X-APTOS-"]. */
  readonly seen: readonly string[];
}

/** Distinct prefixes kept: a node sends one; more is a target sending junk. */
export const MAX_FOREIGN_PREFIXES = 4;
/** A prefix's length in a report, in characters ("X-" + letters + "-"). */
const MAX_PREFIX_LENGTH = 40;
const LEDGER_VERSION_HEADER = /^(x-[a-z]+-)ledger-version$/;

/** The prefixes of the ledger-version headers `headers` (lower-case names) carries, other than `expected`. */
export function foreignLedgerPrefixes(headers: Readonly<Record<string, unknown>>, expected: string): string[] {
  const own = expected.toUpperCase();
  const found = new Set<string>();
  for (const name of Object.keys(headers)) {
    const prefix = LEDGER_VERSION_HEADER.exec(name)?.[1]?.toUpperCase();
    if (prefix !== undefined && prefix !== own && prefix.length <= MAX_PREFIX_LENGTH) found.add(prefix);
  }
  return [...found].sort();
}

export class ForeignPrefixTally {
  readonly #seen = new Set<string>();
  #expected: string | undefined;

  add(expected: string, prefixes: readonly string[]): void {
    this.#expected ??= expected.toUpperCase();
    for (const p of prefixes) {
      if (this.#seen.size >= MAX_FOREIGN_PREFIXES) return;
      if (LEDGER_VERSION_HEADER.test(`${p.toLowerCase()}ledger-version`) && p.length <= MAX_PREFIX_LENGTH) this.#seen.add(p.toUpperCase());
    }
  }

  /** Another tally's data (one check's, read from its task meta). */
  merge(other: ForeignHeaderPrefixes): void {
    this.add(other.expected, other.seen);
  }

  /** Undefined when no response carried another prefix. */
  seen(): ForeignHeaderPrefixes | undefined {
    if (this.#expected === undefined || this.#seen.size === 0) return undefined;
    return { expected: this.#expected, seen: [...this.#seen].sort() };
  }
}

/**
 * The flags that make a run expect `prefix`: a wire profile's name when it is one (the aptos profile with
 * the baseline of aptos-core's known deviations), else --header-prefix.
 */
export function flagsFor(prefix: string): string {
  if (prefix === WIRE_PROFILES.aptos.headerPrefix) return "--profile aptos --baseline baselines/aptos-core.txt";
  if (prefix === WIRE_PROFILES.node.headerPrefix) return "--profile node";
  return `--header-prefix ${prefix}`;
}

/** "the target sends X-APTOS-* ledger headers, not X-NODE-*: run with --profile aptos --baseline …". */
export function foreignPrefixHint(found: ForeignHeaderPrefixes): string {
  const seen = found.seen.map((p) => `${p}*`).join(", ");
  const flags = found.seen.map(flagsFor).join(", or ");
  return `the target sends ${seen} ledger headers, not ${found.expected}*: run with ${flags}`;
}
