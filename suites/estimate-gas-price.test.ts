// §4.6 Estimate gas price: GET /v1/estimate_gas_price takes no parameters and answers 200 with the gas
// estimate object of §2.5 (three unsigned integers), offered as JSON and as BCS (§4). The family gives
// the member names and the order deprioritized <= gas_estimate <= prioritized, which the spec's names
// ("low", "regular", "aggressive") suggest but no statement states: that order is a SHOULD. The two media types are
// one answer (§4), so the BCS form must say what the JSON form says at the same ledger version.
//
// Every response below is also checked by the harness against the observed-status contract (status in
// the endpoint's set, ledger headers on the 200, error object on an error), under its own ids.

import { isDeepStrictEqual } from "node:util";
import { GasEstimationBcs } from "../src/codec/index.ts";
import { check, CheckNotApplicable, describeEndpoint, type CheckContext, type HttpResponse } from "../src/harness/index.ts";

/** The three estimates of an answer as decimal strings; null for an estimate the answer does not give (a BCS None). */
interface Estimates {
  readonly deprioritized_gas_estimate: string | null;
  readonly gas_estimate: string;
  readonly prioritized_gas_estimate: string | null;
}

const decimal = (value: unknown): string | null => (value === undefined || value === null ? null : BigInt(value as bigint).toString());

function jsonEstimates(t: CheckContext, res: HttpResponse): Estimates {
  t.expectStatus(res, 200);
  const body = t.expectBodyMatchesSchema(res);
  return {
    deprioritized_gas_estimate: decimal(body.deprioritized_gas_estimate),
    gas_estimate: decimal(body.gas_estimate) ?? "",
    prioritized_gas_estimate: decimal(body.prioritized_gas_estimate),
  };
}

function bcsEstimates(t: CheckContext, res: HttpResponse): Estimates {
  t.expectStatus(res, 200);
  const estimate = t.decodeBcs(res, GasEstimationBcs);
  return {
    deprioritized_gas_estimate: decimal(estimate.deprioritized_gas_estimate),
    gas_estimate: decimal(estimate.gas_estimate) ?? "",
    prioritized_gas_estimate: decimal(estimate.prioritized_gas_estimate),
  };
}

/** JSON, BCS, JSON asked this many times at most, until a JSON answer can be held beside the BCS one. */
const TWIN_ATTEMPTS = 4;

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

  check("4.6/bcs-matches-json", async (t) => {
    // The estimate may change whenever blocks commit, so a BCS answer is held to a JSON answer at its own
    // ledger version (the estimate is computed over the committed blocks: one version, one estimate), or,
    // when the ledger moved between every two answers, to one of the JSON answers around it if it equals
    // one; neither is decided wrong by a change between two requests.
    const latest = t.headerName("LEDGER-VERSION");
    for (let attempt = 0; attempt < TWIN_ATTEMPTS; attempt++) {
      const before = await t.request({ path: "/estimate_gas_price" });
      const bcs = await t.request({ path: "/estimate_gas_price", accept: "bcs" });
      const after = await t.request({ path: "/estimate_gas_price" });
      const fromBcs = bcsEstimates(t, bcs);
      const version = t.ledgerState(bcs).ledgerVersion;
      const jsons = [before, after].map((res) => ({ res, estimates: jsonEstimates(t, res), version: t.ledgerState(res).ledgerVersion }));
      const atVersion = jsons.find((j) => version !== undefined && j.version === version);
      if (atVersion !== undefined) {
        t.expectEqual(fromBcs, atVersion.estimates, `the BCS estimates = the JSON ones at the same ${latest} ${version} (§4)`, bcs);
        return;
      }
      const equal = jsons.find((j) => isDeepStrictEqual(j.estimates, fromBcs));
      if (equal !== undefined) {
        t.expectEqual(fromBcs, equal.estimates, "the BCS estimates = the JSON ones asked just before or after", bcs);
        return;
      }
    }
    throw new CheckNotApplicable(
      `no JSON answer at the ${latest} of a BCS one in ${TWIN_ATTEMPTS} tries, and the estimates changed around each: the ledger moved between every two answers`,
    );
  });
});
