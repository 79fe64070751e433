// How busy a node's HTTP server is: what the faults of a node that behaves only while lightly used
// (concurrency.ts) switch on. Two gauges, each above what an idle run of the suite ever reaches.

import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * Open connections above which a node that behaves only while lightly used misbehaves. An idle run of
 * the suite keeps at most 33 open (16 kept alive, up to 16 of their own for submissions and resends,
 * one more); the load mode's self-check opens more than 48 (48 readers, each on connections of its
 * own, and two a writer).
 */
export const CONNECTIONS_UNDER_LOAD = 40;

/**
 * Requests in flight at once (arrived, not yet answered) above which a node misbehaves. An idle run
 * sends at most --concurrency (16) at once; the load mode's readers each keep one in flight.
 */
export const REQUESTS_UNDER_LOAD = 20;

export interface ConnectionGauge {
  /** Whether `socket` was accepted while more than CONNECTIONS_UNDER_LOAD were open (itself included). */
  acceptedUnderLoad(socket: Socket): boolean;
}

/** Counts the connections of `app`'s server from now on ('connection' and 'close'). */
export function connectionGauge(app: FastifyInstance): ConnectionGauge {
  let open = 0;
  const underLoad = new WeakSet<Socket>();
  app.server.on("connection", (socket: Socket) => {
    open += 1;
    if (open > CONNECTIONS_UNDER_LOAD) underLoad.add(socket);
    socket.once("close", () => {
      open -= 1;
    });
  });
  return { acceptedUnderLoad: (socket) => underLoad.has(socket) };
}

export interface RequestGauge {
  /** The requests arrived and not yet answered (or abandoned). */
  inFlight(): number;
}

/** Counts `app`'s requests from arrival to the end of their response (its 'close': sent, or the connection gone). */
export function requestGauge(app: FastifyInstance): RequestGauge {
  let inFlight = 0;
  app.addHook("onRequest", async (_request, reply) => {
    inFlight += 1;
    reply.raw.once("close", () => {
      inFlight -= 1;
    });
  });
  return { inFlight: () => inFlight };
}
