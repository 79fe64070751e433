// Under which requirement a 2xx JSON body is judged against its operation's schema, apart from any
// check (the validation proxy, judge-answer.ts): the requirement of the check that validates that body
// on a live run (the suites' expectBodyMatchesSchema calls), and the body as that check reads it, so
// that a body is held to what a run holds it to, and a deviation judged by a requirement of its own is
// not counted again here.

export interface BodyRule {
  readonly requirement: string;
  /** The body as the run's check reads it before its schema; absent: as it came. */
  readonly asRead?: (json: unknown) => unknown;
}

/**
 * A list of summaries as its schema is to read it for 4.3/summaries: a bare u64 replay_protector
 * (aptos-core's form, 4.3/replay-protector-object's to judge) put in a tagged form, so that the rest is
 * judged. Either tag fits the schema alike; the number is kept, so a bare value that is no u64 still fails.
 */
export function withBareReplayProtectorsTagged(json: unknown): unknown {
  if (!Array.isArray(json)) return json;
  return json.map((s: unknown) => {
    const rp = (s as { replay_protector?: unknown } | null)?.replay_protector;
    return typeof rp === "string" ? { ...(s as object), replay_protector: { type: "sequence_number", sequence_number: rp } } : s;
  });
}

export const BODY_RULES: Readonly<Record<string, BodyRule>> = {
  spec: { requirement: "4.1/spec-page-html" },
  spec_yaml: { requirement: "4.1/spec-yaml" },
  spec_json: { requirement: "4.1/spec-json" },
  get_table_item: { requirement: "4.2/item-found" },
  get_account_transaction_summaries: { requirement: "4.3/summaries", asRead: withBareReplayProtectorsTagged },
  get_account_module: { requirement: "4.4/module-record" },
  get_account_modules: { requirement: "4.5/module-list" },
  estimate_gas_price: { requirement: "4.6/gas-estimate-object" },
  healthy: { requirement: "4.7/health-message" },
  submit_transaction: { requirement: "4.8/pending-transaction-hash" },
};
