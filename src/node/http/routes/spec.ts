// §4.1: the spec page (offline Swagger UI served by the node) and the machine-readable forms.

import type { FastifyInstance } from "fastify";
import { requestLedgerInfo, type HttpContext } from "../context.ts";
import type { SpecDocument } from "../spec-document.ts";
import { SPEC_ASSETS_PATH, SPEC_PAGE_HTML, specAsset } from "../spec-ui.ts";

export function registerSpecRoutes(app: FastifyInstance, { engine, profile }: HttpContext, spec: SpecDocument): void {
  app.get("/v1/spec", (request, reply) => {
    requestLedgerInfo(engine, request);
    reply.type("text/html; charset=utf-8").send(SPEC_PAGE_HTML);
  });
  app.get("/v1/spec.yaml", (request, reply) => {
    requestLedgerInfo(engine, request);
    reply.type(profile.specYamlType).send(spec.yaml);
  });
  app.get("/v1/spec.json", (request, reply) => {
    requestLedgerInfo(engine, request);
    reply.type("application/json; charset=utf-8").send(spec.json);
  });
  app.get<{ Params: { name: string } }>(`${SPEC_ASSETS_PATH}/:name`, async (request, reply) => {
    const asset = await specAsset(request.params.name);
    if (asset === undefined) return reply.callNotFound();
    return reply.type(asset.contentType).send(asset.body);
  });
}
