// What every route needs: the engine, the wire profile, and the per-request ledger info that keeps the
// §2.7 headers in agreement with the body.

import type { FastifyReply, FastifyRequest } from "fastify";
import type { LedgerApi, LedgerInfo } from "../ledger/api.ts";
import { BCS_MEDIA_TYPE, prefersBcs } from "./accept.ts";
import type { Profile } from "./profile.ts";
import { JsonBytes } from "./rendered-json.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Read once per request (first use wins), so every header and the body describe the same ledger. */
    ledgerInfo: LedgerInfo | null;
  }
}

export interface HttpContext {
  readonly engine: LedgerApi;
  readonly profile: Profile;
  readonly submitEnabled: boolean;
}

export function requestLedgerInfo(engine: LedgerApi, request: FastifyRequest): LedgerInfo {
  request.ledgerInfo ??= engine.info();
  return request.ledgerInfo;
}

/** A 200 body in the media type the client prefers: BCS when it asks for it and the body has a BCS form. */
export function sendRead(request: FastifyRequest, reply: FastifyReply, json: unknown, bcs?: () => Uint8Array): void {
  if (bcs !== undefined && prefersBcs(request.headers.accept)) {
    const bytes = bcs();
    reply.type(BCS_MEDIA_TYPE).send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } else {
    sendJson(reply, json);
  }
}

/** Serialised here (fastify would send a bare string payload as is, unquoted: a table value can be one), unless it already is. */
export function sendJson(reply: FastifyReply, json: unknown): void {
  reply.type("application/json; charset=utf-8").send(json instanceof JsonBytes ? json.bytes : JSON.stringify(json));
}
