// The two wire profiles (the family's convention) as data: their names and the wire facts that both the reference
// node (which speaks them) and the suite (which expects them) need. Everything else a profile changes
// in the node's behaviour stays in src/node/http/profile.ts; the suite learns it from the target.

export type ProfileName = "node" | "aptos";

export interface WireProfile {
  readonly name: ProfileName;
  /** Prefix of the §2.7 ledger-state headers, always ending in "-", e.g. "X-NODE-". */
  readonly headerPrefix: string;
  /** Content type of a BCS-encoded signed transaction in a submission (§4.8). */
  readonly bcsSubmissionType: string;
}

export const WIRE_PROFILES: Readonly<Record<ProfileName, WireProfile>> = {
  node: { name: "node", headerPrefix: "X-NODE-", bcsSubmissionType: "application/x.node.signed_transaction+bcs" },
  aptos: { name: "aptos", headerPrefix: "X-APTOS-", bcsSubmissionType: "application/x.aptos.signed_transaction+bcs" },
};

export function isProfileName(value: string): value is ProfileName {
  return value === "node" || value === "aptos";
}

/** "x-node" and "X-NODE-" both become "X-NODE-". */
export function normalizeHeaderPrefix(prefix: string): string {
  const upper = prefix.trim().toUpperCase();
  return upper.endsWith("-") ? upper : `${upper}-`;
}
