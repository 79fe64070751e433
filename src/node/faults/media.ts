// Faults in media types (§4): BCS not served when asked for, BCS under the wrong label, and JSON without
// its content type.

import type { FastifyReply } from "fastify";
import { replyMediaType, type Fault } from "./fault.ts";

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

export const MEDIA_FAULTS: readonly Fault[] = [acceptIgnored, bcsAsOctetStream, jsonAsTextPlain];
