// §4.8 submission: JSON (the family's member names) or the profile's BCS content type. Any other content
// type is a framework-level refusal (web_framework_error, 400 or by profile 415), and so is a missing body.

import type { FastifyInstance } from "fastify";
import { decodeSignedTransaction, encodeSignedTransaction, fromHex, type SignedTransaction } from "../../../codec/index.ts";
import { LedgerError } from "../../ledger/api.ts";
import { prefersBcs } from "../accept.ts";
import { transactionByHashBcs } from "../bcs-forms.ts";
import { requestLedgerInfo, sendJson, sendRead, type HttpContext } from "../context.ts";
import { badRequest } from "../errors.ts";
import { pendingTransactionJson, transactionByHashJson } from "../json-forms.ts";

/** Decodes a BCS signed transaction; refuses non-canonical bytes too, since the hash is over the bytes. */
function decodeSubmission(bytes: Uint8Array): SignedTransaction {
  const signed = decodeSignedTransaction(bytes);
  if (!Buffer.from(encodeSignedTransaction(signed)).equals(Buffer.from(bytes))) {
    throw new LedgerError(400, "invalid_input", "Invalid BCS signed transaction: non-canonical encoding");
  }
  return signed;
}

/** A transaction hash in a path: 64 hex digits, 0x optional (aptos-core api/types/src/hash.rs `FromStr`). */
function hashParam(value: string): Uint8Array {
  const digits = value.startsWith("0x") ? value.slice(2) : value;
  if (!/^[0-9a-fA-F]{64}$/.test(digits)) throw badRequest(`Invalid txn_hash: expected 64 hex digits`);
  return fromHex(`0x${digits}`);
}

export function registerTransactionRoutes(app: FastifyInstance, { engine, profile, submitEnabled }: HttpContext): void {
  // Beyond the spec (§3 names it without its contract): the pending, then committed, transaction, which
  // Aptos clients poll to wait for a submission; under Accept: application/x-bcs, aptos-core's TransactionData.
  app.get<{ Params: { hash: string } }>("/v1/transactions/by_hash/:hash", (request, reply) => {
    const hash = hashParam(request.params.hash);
    requestLedgerInfo(engine, request);
    const found = engine.transactionByHash(hash);
    sendRead(request, reply, transactionByHashJson(found, profile), () => transactionByHashBcs(found));
  });

  // Encapsulated, so the BCS body parser exists for this route only.
  void app.register(async (scope) => {
    scope.addContentTypeParser(profile.bcsSubmissionType, { parseAs: "buffer" }, (_request, body, done) => {
      done(null, body);
    });

    scope.post<{ Body: unknown }>(
      "/v1/transactions",
      {
        // Refused before the body is read: nothing about the body matters when submission is off.
        onRequest: async () => {
          if (!submitEnabled) throw new LedgerError(403, "api_disabled", "Transaction submission is disabled on this node");
        },
      },
      (request, reply) => {
        const body = request.body;
        if (body === undefined) throw badRequest("A submission needs a body");
        const signed = Buffer.isBuffer(body) ? decodeSubmission(body) : engine.signedTransactionFromJson(body);
        requestLedgerInfo(engine, request);
        const result = engine.submit(signed);
        reply.code(202);
        if (prefersBcs(request.headers.accept)) reply.send();
        else sendJson(reply, pendingTransactionJson(result.pendingJson, profile));
      },
    );
  });
}
