// The two wire profiles of the reference node (design §5): the neutral one the spec describes, and the
// one the Aptos family of nodes speaks, so Aptos clients (e.g. the Aptos TS SDK) can talk to it.

export type ProfileName = "node" | "aptos";

export interface Profile {
  readonly name: ProfileName;
  /** Prefix of the §2.7 ledger-state headers, e.g. "X-NODE-". */
  readonly headerPrefix: string;
  /** Content type of a BCS-encoded signed transaction in a submission (§4.8). */
  readonly bcsSubmissionType: string;
  /** Message of the health success object. */
  readonly healthMessage: string;
}

const PROFILES: Record<ProfileName, Profile> = {
  node: {
    name: "node",
    headerPrefix: "X-NODE-",
    bcsSubmissionType: "application/x.node.signed_transaction+bcs",
    healthMessage: "ledger-node:ok",
  },
  aptos: {
    name: "aptos",
    headerPrefix: "X-APTOS-",
    bcsSubmissionType: "application/x.aptos.signed_transaction+bcs",
    healthMessage: "aptos-node:ok",
  },
};

export function isProfileName(value: string): value is ProfileName {
  return value === "node" || value === "aptos";
}

/** The profile's settings, with an optional header prefix override. */
export function profileSettings(name: ProfileName, headerPrefix?: string): Profile {
  const base = PROFILES[name];
  return headerPrefix === undefined ? base : { ...base, headerPrefix };
}
