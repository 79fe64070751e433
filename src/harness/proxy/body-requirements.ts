// Under which requirement the proxy judges a 2xx JSON body against its operation's schema: the
// requirement of the check that validates that body on a live run (the suites' expectBodyMatchesSchema
// calls), so that a body the proxy sees is held to what a run holds it to.

export const BODY_REQUIREMENT: Readonly<Record<string, string>> = {
  spec: "4.1/spec-page-html",
  spec_yaml: "4.1/spec-yaml",
  spec_json: "4.1/spec-json",
  get_table_item: "4.2/item-found",
  get_account_transaction_summaries: "4.3/summaries",
  get_account_module: "4.4/module-record",
  get_account_modules: "4.5/module-list",
  estimate_gas_price: "4.6/gas-estimate-object",
  healthy: "4.7/health-message",
  submit_transaction: "4.8/pending-transaction-hash",
};
