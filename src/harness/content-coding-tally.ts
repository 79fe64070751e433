// How many answers came in each content coding, and whether the request had asked for it: kept by a
// check (its trace), carried to the reporter in the check's task meta, summed there for the run, and
// shown in every report as a fact of the run. A coding the request did not list is read all the same
// (RFC 9110 §12.5.3), never a failure; the count says a node or its gateway sends one. Coding names
// come from the target: bounded in length and number here, escaped by the reports.

import { codingAsked, codingName } from "./content-coding.ts";

/** Answers that came in one coding: `asked` when the request's Accept-Encoding listed it, `unasked` otherwise. */
export interface ContentCodingCount {
  readonly coding: string;
  readonly asked: number;
  readonly unasked: number;
}

/** Distinct codings kept: a node uses a few; more is a target sending junk. */
export const MAX_DISTINCT_CODINGS = 16;

export class ContentCodingTally {
  readonly #counts = new Map<string, { asked: number; unasked: number }>();

  /** One answer in `codings` (Content-Encoding's members) to a request whose Accept-Encoding was `accept`. */
  addAnswer(codings: readonly string[], accept: string | undefined): void {
    for (const coding of new Set(codings)) {
      const asked = codingAsked(accept, coding);
      this.#add(codingName(coding), asked ? 1 : 0, asked ? 0 : 1);
    }
  }

  /** Another tally's data (one check's, read from its task meta). */
  merge(seen: readonly ContentCodingCount[]): void {
    for (const c of seen) this.#add(codingName(c.coding), c.asked, c.unasked);
  }

  #add(coding: string, asked: number, unasked: number): void {
    if (!Number.isSafeInteger(asked) || !Number.isSafeInteger(unasked) || asked < 0 || unasked < 0 || asked + unasked === 0) return;
    const known = this.#counts.get(coding);
    if (known !== undefined) {
      known.asked += asked;
      known.unasked += unasked;
    } else if (this.#counts.size < MAX_DISTINCT_CODINGS) this.#counts.set(coding, { asked, unasked });
  }

  /** Most seen first; undefined when no answer was coded. */
  seen(): readonly ContentCodingCount[] | undefined {
    if (this.#counts.size === 0) return undefined;
    return [...this.#counts.entries()]
      .map(([coding, c]) => ({ coding, ...c }))
      .sort((a, b) => b.asked + b.unasked - (a.asked + a.unasked) || a.coding.localeCompare(b.coding));
  }
}

/** The Accept-Encoding of request headers whatever the case of their names. */
export function acceptEncodingOf(headers: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === "accept-encoding") return value;
  return undefined;
}

/** "gzip: 1,200 answers (asked), 35 unasked; br: 4 answers (asked)": one line for the console and markdown. */
export function describeContentCodings(counts: readonly ContentCodingCount[]): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return counts
    .map((c) => {
      const parts = [...(c.asked > 0 ? [`${n(c.asked)} asked`] : []), ...(c.unasked > 0 ? [`${n(c.unasked)} unasked`] : [])];
      return `${c.coding}: ${parts.join(", ")}`;
    })
    .join("; ");
}
