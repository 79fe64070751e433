// §4.6 Estimate gas price: GET /v1/estimate_gas_price takes no parameters and answers 200 with the gas
// estimate object of §2.5 (three unsigned integers), offered as JSON and as BCS (§4). The family gives
// the member names and the order deprioritized <= gas_estimate <= prioritized, which the spec implies
// ("low", "regular", "aggressive") but does not state: that order is a SHOULD.
//
// Every response below is also checked by the harness against the observed-status contract (status in
// the endpoint's set, ledger headers on the 200, error object on an error), under its own ids.

import { GasEstimationBcs } from "../src/codec/index.ts";
import { check, describeEndpoint } from "../src/harness/index.ts";

describeEndpoint("estimate_gas_price", () => {
  check("4.6/gas-estimate-object", async (t) => {
    const res = await t.request({ path: "/estimate_gas_price" });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/json");
    t.expectBodyMatchesSchema(res);
  });

  check("4.6/gas-estimate-bcs", async (t) => {
    const res = await t.request({ path: "/estimate_gas_price", accept: "bcs" });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/x-bcs");
    // Decodes to exactly the body: nothing missing, nothing after it.
    t.decodeBcs(res, GasEstimationBcs);
  });

  check("4.6/estimates-ordered", async (t) => {
    const res = await t.request({ path: "/estimate_gas_price" });
    t.expectStatus(res, 200);
    const body = t.expectBodyMatchesSchema(res);
    t.expect(body.deprioritized_gas_estimate <= body.gas_estimate, "deprioritized_gas_estimate <= gas_estimate", res);
    t.expect(body.gas_estimate <= body.prioritized_gas_estimate, "gas_estimate <= prioritized_gas_estimate", res);
  });

  check("4.6/estimates-ordered", { variant: "BCS" }, async (t) => {
    const res = await t.request({ path: "/estimate_gas_price", accept: "bcs" });
    t.expectStatus(res, 200);
    const estimate = t.decodeBcs(res, GasEstimationBcs);
    const market = BigInt(estimate.gas_estimate);
    const low = estimate.deprioritized_gas_estimate;
    const high = estimate.prioritized_gas_estimate;
    t.expect(low === null || BigInt(low) <= market, "deprioritized_gas_estimate (when present) <= gas_estimate", res);
    t.expect(high === null || market <= BigInt(high), "gas_estimate <= prioritized_gas_estimate (when present)", res);
  });
});
