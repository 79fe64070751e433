// §4.2 table item: the body's shape is checked by fastify (a framework error when wrong); whether the
// types and key parse is the engine's call (400 invalid_input).

import type { FastifyInstance } from "fastify";
import { requestLedgerInfo, sendRead, type HttpContext } from "../context.ts";
import { addressParam, optionalU64, type Query } from "../params.ts";
import { JsonBytes, renderedOnce } from "../rendered-json.ts";

interface TableItemRequest {
  key_type: string;
  value_type: string;
  key: unknown;
}

const TABLE_ITEM_REQUEST_SCHEMA = {
  type: "object",
  required: ["key_type", "value_type", "key"],
  properties: {
    key_type: { type: "string" },
    value_type: { type: "string" },
    key: {},
  },
} as const;

export function registerTableRoutes(app: FastifyInstance, { engine, profile }: HttpContext): void {
  // The engine answers a kept item again as the same object: its JSON is rendered once (rendered-json.ts).
  const itemBytes = renderedOnce((item: { readonly json: unknown }) => item.json);

  app.post<{ Params: { table_handle: string }; Querystring: Query; Body: TableItemRequest }>(
    "/v1/tables/:table_handle/item",
    { schema: { body: TABLE_ITEM_REQUEST_SCHEMA } },
    (request, reply) => {
      const handle = addressParam("table_handle", request.params.table_handle, profile.addressForms);
      const requested = optionalU64(request.query, "ledger_version", profile.integerQueryForms);
      const info = requestLedgerInfo(engine, request);
      const { key_type: keyType, value_type: valueType, key } = request.body;
      const item = engine.getTableItem(handle, { keyType, valueType, key }, requested ?? info.ledgerVersion);
      sendRead(request, reply, new JsonBytes(itemBytes(item)), () => item.bcs);
    },
  );
}
