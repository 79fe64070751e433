// The request a route handler serves, for an engine wrapper that answers by it (the connection it came
// on, what a hook found before it): the handlers run inside it (AsyncLocalStorage), as the
// request-context pattern of fastify's ecosystem does, from a preHandler hook that calls `done` in it.

import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyInstance, FastifyRequest } from "fastify";

const scope = new AsyncLocalStorage<FastifyRequest>();

/** Runs `app`'s handlers in the scope of their request; added after the fault's other preHandler hooks. */
export function handlersInRequestScope(app: FastifyInstance): void {
  app.addHook("preHandler", (request, _reply, done) => {
    scope.run(request, done);
  });
}

/** The request whose handler is running, or undefined outside one. */
export function currentRequest(): FastifyRequest | undefined {
  return scope.getStore();
}
