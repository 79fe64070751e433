// §4.6 gas estimate, §4.7 health, and GET /v1 (ledger info: not in the spec, but Aptos clients such as
// the Aptos TS SDK read the chain id from it).

import type { FastifyInstance } from "fastify";
import { LedgerError } from "../../ledger/api.ts";
import { gasEstimateBcs, healthBcs, ledgerInfoBcs } from "../bcs-forms.ts";
import { requestLedgerInfo, sendRead, type HttpContext } from "../context.ts";
import { gasEstimateJson, ledgerInfoJson } from "../json-forms.ts";
import { optionalU32, optionalU64, type Query } from "../params.ts";

export function registerNodeStatusRoutes(app: FastifyInstance, { engine, profile }: HttpContext): void {
  app.get("/v1", (request, reply) => {
    const info = requestLedgerInfo(engine, request);
    sendRead(request, reply, ledgerInfoJson(info), () => ledgerInfoBcs(info));
  });

  app.get("/v1/estimate_gas_price", (request, reply) => {
    requestLedgerInfo(engine, request);
    const estimate = engine.gasEstimate();
    sendRead(request, reply, gasEstimateJson(estimate), () => gasEstimateBcs(estimate));
  });

  app.get<{ Querystring: Query }>("/v1/-/healthy", (request, reply) => {
    const durationSecs =
      profile.healthDurationType === "u32"
        ? optionalU32(request.query, "duration_secs", profile.integerQueryForms)
        : optionalU64(request.query, "duration_secs", profile.integerQueryForms);
    requestLedgerInfo(engine, request);
    if (!engine.isHealthy(durationSecs, { beforeEpoch: profile.healthDurationBeforeEpoch })) {
      throw new LedgerError(
        503,
        "health_check_failed",
        `The latest ledger timestamp is more than ${durationSecs} seconds behind the node's clock`,
      );
    }
    const message = profile.healthMessage;
    sendRead(request, reply, { message }, () => healthBcs(message));
  });
}
