// How often each member the contract does not declare was seen, per schema: kept by a check (its trace),
// carried to the reporter in the check's task meta, and summed there for the run. Member names come
// from the target, so they are untrusted: cut to a bounded length, and only so many distinct members
// are kept; the occurrences of the rest are counted as left out. Escaping is the reports' job.

import type { UnknownMember } from "./unknown-members.ts";

export interface UnknownMemberCount {
  readonly schema: string;
  readonly member: string;
  readonly count: number;
}

/** What a tally holds, as data (task meta, summary.json). */
export interface UnknownMembersSeen {
  readonly members: readonly UnknownMemberCount[];
  /** Occurrences of members past the bound on distinct members. */
  readonly leftOut: number;
}

/** Distinct members kept; enough for every member a node could add, not for a target that sends junk. */
export const MAX_DISTINCT_UNKNOWN_MEMBERS = 200;
/** A member name's length in a report, in characters. */
export const MAX_UNKNOWN_MEMBER_LENGTH = 100;

export class UnknownMemberTally {
  readonly #counts = new Map<string, { schema: string; member: string; count: number }>();
  #leftOut = 0;

  add(found: Pick<UnknownMemberCount, "schema" | "member"> & { count?: number }): void {
    const count = found.count ?? 1;
    if (!Number.isSafeInteger(count) || count <= 0) return;
    const schema = cut(found.schema);
    const member = cut(found.member);
    const key = JSON.stringify([schema, member]);
    const known = this.#counts.get(key);
    if (known !== undefined) known.count += count;
    else if (this.#counts.size < MAX_DISTINCT_UNKNOWN_MEMBERS) this.#counts.set(key, { schema, member, count });
    else this.#leftOut += count;
  }

  addAll(members: readonly UnknownMember[]): void {
    for (const m of members) this.add(m);
  }

  /** Another tally's data (one check's, read from its task meta). */
  merge(seen: UnknownMembersSeen): void {
    for (const m of seen.members) this.add(m);
    if (Number.isSafeInteger(seen.leftOut) && seen.leftOut > 0) this.#leftOut += seen.leftOut;
  }

  get size(): number {
    return this.#counts.size + (this.#leftOut > 0 ? 1 : 0);
  }

  /** Most seen first, then by schema and member. */
  seen(): UnknownMembersSeen {
    const members = [...this.#counts.values()]
      .map((m) => ({ ...m }))
      .sort((a, b) => b.count - a.count || a.schema.localeCompare(b.schema) || a.member.localeCompare(b.member));
    return { members, leftOut: this.#leftOut };
  }
}

function cut(text: string): string {
  return text.length > MAX_UNKNOWN_MEMBER_LENGTH ? `${text.slice(0, MAX_UNKNOWN_MEMBER_LENGTH)}…` : text;
}

/** "MoveStruct.x_future, seen 12 times": one line per member, for the console and markdown. */
export function describeUnknownMember(m: UnknownMemberCount): string {
  return `${m.schema}.${m.member}, seen ${m.count} time${m.count === 1 ? "" : "s"}`;
}
