// Faults in the §4.6 gas estimate: members in the wrong JSON type, and a BCS form that does not say
// what the JSON form says.

import { decodeBcs, encodeBcs, GasEstimationBcs } from "../../codec/index.ts";
import { replyMediaType, rewriteJsonSuccess, routeOf, type Fault } from "./fault.ts";

const GAS_ROUTE = "/v1/estimate_gas_price";

const gasEstimatesAsStrings: Fault = {
  name: "gas-estimates-as-strings",
  area: "gas",
  description: "writes the gas estimates as decimal strings, as u64 values are elsewhere, instead of JSON integers",
  breaks: ["4.6/gas-estimate-object"],
  http: (app) => {
    app.addHook(
      "onSend",
      rewriteJsonSuccess([GAS_ROUTE], (estimate) =>
        Object.fromEntries(Object.entries(estimate as Record<string, unknown>).map(([member, value]) => [member, String(value)])),
      ),
    );
  },
};

const gasEstimateBcsDiffers: Fault = {
  name: "gas-estimate-bcs-differs",
  area: "gas",
  description:
    "writes the prioritized estimate as gas_estimate in the BCS form only (a BCS encoder fed the wrong field); the JSON form is right",
  breaks: ["4.6/bcs-matches-json"],
  http: (app) => {
    app.addHook("onSend", async (request, reply, payload) => {
      if (routeOf(request) !== GAS_ROUTE || reply.statusCode !== 200 || replyMediaType(reply) !== "application/x-bcs") return payload;
      if (!Buffer.isBuffer(payload)) return payload;
      const estimate = decodeBcs(GasEstimationBcs, payload);
      const prioritized = estimate.prioritized_gas_estimate;
      if (prioritized === null) return payload;
      return Buffer.from(encodeBcs(GasEstimationBcs, { ...estimate, gas_estimate: prioritized }));
    });
  },
};

export const GAS_FAULTS: readonly Fault[] = [gasEstimatesAsStrings, gasEstimateBcsDiffers];
