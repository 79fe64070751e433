// Faults in the §4.6 gas estimate: members in the wrong JSON type, and the estimates out of order.

import { overrideApi, payloadText, replyMediaType, routeOf, type Fault } from "./fault.ts";

const GAS_ROUTE = "/v1/estimate_gas_price";

const gasEstimatesAsStrings: Fault = {
  name: "gas-estimates-as-strings",
  area: "gas",
  description: "writes the gas estimates as decimal strings, as u64 values are elsewhere, instead of JSON integers",
  breaks: ["4.6/gas-estimate-object"],
  http: (app) => {
    app.addHook("onSend", async (request, reply, payload) => {
      const text = payloadText(payload);
      if (routeOf(request) !== GAS_ROUTE || reply.statusCode !== 200 || text === undefined || replyMediaType(reply) !== "application/json")
        return payload;
      const estimate = JSON.parse(text) as Record<string, unknown>;
      return JSON.stringify(Object.fromEntries(Object.entries(estimate).map(([member, value]) => [member, String(value)])));
    });
  },
};

const gasEstimatesOutOfOrder: Fault = {
  name: "gas-estimates-out-of-order",
  area: "gas",
  description: "swaps the low and the aggressive estimate: deprioritized_gas_estimate above prioritized_gas_estimate",
  breaks: ["4.6/estimates-ordered"],
  engine: (api) =>
    overrideApi(api, {
      gasEstimate: () => {
        const estimate = api.gasEstimate();
        return { deprioritized: estimate.prioritized, market: estimate.market, prioritized: estimate.deprioritized };
      },
    }),
};

export const GAS_FAULTS: readonly Fault[] = [gasEstimatesAsStrings, gasEstimatesOutOfOrder];
