// §4.3 transaction summaries, §4.4 one module, §4.5 module listing; and, beyond the spec, the account
// itself (sequence number and authentication key), which Aptos clients read before they submit.

import type { FastifyInstance } from "fastify";
import { accountBcs, moduleBcs, moduleListBcs, transactionSummariesBcs } from "../bcs-forms.ts";
import { requestLedgerInfo, sendRead, type HttpContext } from "../context.ts";
import type { ModuleRecord, TransactionSummary } from "../../ledger/api.ts";
import { badRequest } from "../errors.ts";
import { cursorHeader } from "../headers.ts";
import { accountJson, moduleJson, transactionSummaryJson } from "../json-forms.ts";
import { addressParam, limitParam, moduleNameParam, optionalString, optionalU64, type Query } from "../params.ts";
import { JsonBytes, renderedOnce, RenderedPages } from "../rendered-json.ts";

/** The family's default and maximum page sizes. */
export const SUMMARIES_MAX_LIMIT = 100;
export const MODULES_MAX_LIMIT = 9999;

/** Listings kept whole per route: a page of 0x1's modules is ~140 KB of JSON, so at most ~9 MB. */
const KEPT_PAGES = 64;

/** The cursor is opaque but hex (§2.1); anything else cannot be one the node issued. */
const HEX_CURSOR = /^(?:0x)?[0-9a-fA-F]+$/;

export function registerAccountRoutes(app: FastifyInstance, { engine, profile }: HttpContext): void {
  // Records and committed transactions are immutable: each one's JSON is rendered once, and the last
  // listings served are kept whole while they hold the same objects (rendered-json.ts).
  const moduleBytes = renderedOnce((record: ModuleRecord) => moduleJson(record, profile));
  const modulePages = new RenderedPages(moduleBytes, KEPT_PAGES);
  const summaryPages = new RenderedPages(
    renderedOnce((summary: TransactionSummary) => transactionSummaryJson(summary, profile)),
    KEPT_PAGES,
  );

  app.get<{ Params: { address: string }; Querystring: Query }>("/v1/accounts/:address", (request, reply) => {
    const address = addressParam("address", request.params.address, profile.addressForms);
    const requested = optionalU64(request.query, "ledger_version", profile.integerQueryForms);
    const info = requestLedgerInfo(engine, request);
    const account = engine.account(address, requested ?? info.ledgerVersion);
    sendRead(request, reply, accountJson(account), () => accountBcs(address, account));
  });

  app.get<{ Params: { address: string }; Querystring: Query }>("/v1/accounts/:address/transaction_summaries", (request, reply) => {
    const address = addressParam("address", request.params.address, profile.addressForms);
    const startVersion = optionalU64(request.query, "start_version", profile.integerQueryForms);
    const endVersion = optionalU64(request.query, "end_version", profile.integerQueryForms);
    const limit = limitParam(request.query, SUMMARIES_MAX_LIMIT, profile.integerQueryForms, profile.summariesLimitZero);
    requestLedgerInfo(engine, request);
    const belowOldest = profile.summariesBelowOldest;
    const summaries = engine.transactionSummaries(address, { startVersion, endVersion, limit, belowOldest });
    sendRead(request, reply, summaryPages.body(`${request.params.address} ${startVersion} ${endVersion} ${limit}`, summaries), () =>
      transactionSummariesBcs(summaries),
    );
  });

  app.get<{ Params: { address: string; module_name: string }; Querystring: Query }>(
    "/v1/accounts/:address/module/:module_name",
    (request, reply) => {
      const address = addressParam("address", request.params.address, profile.addressForms);
      const name = moduleNameParam(request.params.module_name);
      const requested = optionalU64(request.query, "ledger_version", profile.integerQueryForms);
      const info = requestLedgerInfo(engine, request);
      // The latest version is pinned to the one the headers report.
      const record = engine.getModule(address, name, requested ?? info.ledgerVersion);
      sendRead(request, reply, new JsonBytes(moduleBytes(record)), () => moduleBcs(record));
    },
  );

  app.get<{ Params: { address: string }; Querystring: Query }>("/v1/accounts/:address/modules", (request, reply) => {
    const address = addressParam("address", request.params.address, profile.addressForms);
    const requested = optionalU64(request.query, "ledger_version", profile.integerQueryForms);
    const start = optionalString(request.query, "start");
    if (start !== undefined && !HEX_CURSOR.test(start)) throw badRequest(`Invalid start: not a hex cursor`);
    const limit = limitParam(request.query, MODULES_MAX_LIMIT, profile.integerQueryForms, profile.modulesLimitZero);
    const info = requestLedgerInfo(engine, request);
    const page = engine.listModules(address, { version: requested ?? info.ledgerVersion, start, limit });
    if (page.nextCursor !== undefined) reply.header(cursorHeader(profile.headerPrefix), page.nextCursor);
    sendRead(request, reply, modulePages.body(`${request.params.address} ${start} ${limit}`, page.modules), () =>
      moduleListBcs(address, page.modules),
    );
  });
}
