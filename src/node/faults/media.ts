// Faults in media types (§4): BCS not served when asked for, BCS under the wrong label, and JSON without
// its content type.

import { bcs } from "@mysten/bcs";
import type { FastifyReply } from "fastify";
import {
  AccountAddress,
  Bytes,
  decodeBcs,
  encodeBcs,
  ModuleBytecodeBcs,
  ModuleMapBcs,
  ReplayProtectorBcs,
  TransactionSummaryListBcs,
  U64,
} from "../../codec/index.ts";
import { replyMediaType, routeOf, type Fault } from "./fault.ts";

const acceptIgnored: Fault = {
  name: "accept-ignored",
  area: "media",
  description: "ignores the Accept header: every 200 body is JSON, BCS is never served",
  breaks: ["4.2/item-bcs", "4.3/summary-bcs", "4.4/module-bcs", "4.5/module-list-bcs", "4.6/gas-estimate-bcs", "4.7/health-bcs"],
  http: (app) => {
    app.addHook("onRequest", async (request) => {
      delete request.headers.accept;
    });
  },
};

/** An onSend hook relabelling BCS bodies as `type`. */
function relabelBcs(type: string) {
  return async (_request: unknown, reply: FastifyReply) => {
    if (replyMediaType(reply) === "application/x-bcs") reply.type(type);
  };
}

const bcsAsOctetStream: Fault = {
  name: "bcs-as-octet-stream",
  area: "media",
  description: "serves BCS bodies with Content-Type application/octet-stream instead of application/x-bcs",
  breaks: ["4/media-type-declared", "4.6/gas-estimate-bcs"],
  http: (app) => {
    app.addHook("onSend", relabelBcs("application/octet-stream"));
  },
};

const jsonAsTextPlain: Fault = {
  name: "json-as-text-plain",
  area: "media",
  description: "sends successful JSON bodies as text/plain (a serialised string sent without setting the type)",
  breaks: ["4/media-type-declared", "4.6/gas-estimate-object"],
  http: (app) => {
    app.addHook("onSend", async (_request, reply) => {
      if (reply.statusCode < 300 && replyMediaType(reply) === "application/json") reply.type("text/plain; charset=utf-8");
    });
  },
};

/** The summary as a node writes it that BCS-encodes its JSON shape: no version enum, the hash as [u8; 32]. */
const FlatSummaryList = bcs.vector(
  bcs.struct("FlatSummary", {
    sender: AccountAddress,
    version: U64,
    transaction_hash: bcs.fixedArray(32, bcs.u8()),
    replay_protector: ReplayProtectorBcs,
  }),
);

/** The flat layout of each listing body, from aptos-core's. */
const FLAT_LAYOUTS: Readonly<Record<string, (body: Uint8Array) => Uint8Array>> = {
  "/v1/accounts/:address/module/:module_name": (body) => encodeBcs(Bytes, decodeBcs(ModuleBytecodeBcs, body)),
  "/v1/accounts/:address/modules": (body) =>
    encodeBcs(
      bcs.vector(Bytes),
      decodeBcs(ModuleMapBcs, body).map((e) => e.value),
    ),
  "/v1/accounts/:address/transaction_summaries": (body) =>
    encodeBcs(
      FlatSummaryList,
      decodeBcs(TransactionSummaryListBcs, body).map(({ V1: s }) => ({
        ...s,
        transaction_hash: Array.from(s.transaction_hash),
        replay_protector:
          s.replay_protector.$kind === "Nonce"
            ? { Nonce: s.replay_protector.Nonce }
            : { SequenceNumber: s.replay_protector.SequenceNumber },
      })),
    ),
};

const bcsLayoutsFlat: Fault = {
  name: "bcs-layouts-flat",
  area: "media",
  description:
    "BCS-encodes the JSON shapes instead of aptos-core's layouts: a module length-prefixed, the listing a vector of bytecodes, summaries without their version enum",
  breaks: ["4.3/summary-bcs", "4.4/module-bcs", "4.5/module-list-bcs"],
  http: (app) => {
    app.addHook("onSend", async (request, reply, payload) => {
      const flat = FLAT_LAYOUTS[routeOf(request) ?? ""];
      if (flat === undefined || replyMediaType(reply) !== "application/x-bcs" || !Buffer.isBuffer(payload)) return payload;
      return Buffer.from(flat(new Uint8Array(payload)));
    });
  },
};

export const MEDIA_FAULTS: readonly Fault[] = [acceptIgnored, bcsAsOctetStream, jsonAsTextPlain, bcsLayoutsFlat];
