// How busy a node's HTTP server is: what the faults of a node that behaves only while lightly used
// (concurrency.ts) switch on: its open connections, above what an idle run of the suite ever reaches.
// Connections, not requests in flight: a client slowed by its own machine keeps its connections open
// but has fewer requests in flight, and a node with many clients is under load either way.

import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * Open connections above which a node that behaves only while lightly used misbehaves. An idle run of
 * the suite keeps at most 33 open (16 kept alive, up to 16 of their own for submissions and resends,
 * one more); the load mode's self-check opens more than 48 (48 readers, each on connections of its
 * own, and two a writer).
 */
export const CONNECTIONS_UNDER_LOAD = 40;

export interface ConnectionGauge {
  /** Whether `socket` was accepted while more than CONNECTIONS_UNDER_LOAD were open (itself included). */
  acceptedUnderLoad(socket: Socket): boolean;
  /** Whether more than CONNECTIONS_UNDER_LOAD are open now. */
  underLoad(): boolean;
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
  return { acceptedUnderLoad: (socket) => underLoad.has(socket), underLoad: () => open > CONNECTIONS_UNDER_LOAD };
}
