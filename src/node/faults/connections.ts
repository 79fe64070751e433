// How many connections a node's HTTP server has open at once: what the faults of a node that behaves
// only while lightly used (concurrency.ts) switch on.

import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * A node that behaves only while lightly used misbehaves above this many open connections. An idle run
 * of the suite keeps at most about 17 open (its default --concurrency 16, and one more); its load mode's
 * clients keep more than 20 (32 readers, each on connections of its own, and the writers).
 */
export const CONNECTIONS_UNDER_LOAD = 20;

export interface ConnectionGauge {
  /** The connections open now. */
  open(): number;
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
  return { open: () => open, acceptedUnderLoad: (socket) => underLoad.has(socket) };
}
