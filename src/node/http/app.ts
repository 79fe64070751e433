// The reference node's HTTP face: a fastify app over a LedgerApi. Every response, success or error,
// carries the §2.7 headers; every error is a §2.6 error object (the family's statuses and codes).
// Unknown paths and unknown methods on known paths are both 404 web_framework_error (the spec's status
// sets have no 405).

import { Ajv } from "ajv";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { ActiveFaults } from "../faults/index.ts";
import type { LedgerApi } from "../ledger/api.ts";
import { requestLedgerInfo, type HttpContext } from "./context.ts";
import { FrameworkRefusal, profileErrorBody, routeNotFound, toErrorReply, type ErrorReply } from "./errors.ts";
import { cursorHeader, ledgerHeaders } from "./headers.ts";
import type { Profile } from "./profile.ts";
import { registerAccountRoutes } from "./routes/accounts.ts";
import { registerNodeStatusRoutes } from "./routes/node-status.ts";
import { registerSpecRoutes } from "./routes/spec.ts";
import { registerTableRoutes } from "./routes/tables.ts";
import { registerTransactionRoutes } from "./routes/transactions.ts";
import type { SpecDocument } from "./spec-document.ts";

export const DEFAULT_BODY_LIMIT = 8 * 1024 * 1024;
/** How much of an oversized body the node reads and discards after its 413, and for how long, before it closes the connection. */
export const OVERSIZED_DISCARD_LIMIT = { bytes: 64 * 1024 * 1024, ms: 10_000 } as const;

/** /v1/spec, /v1/spec.yaml, /v1/spec.json and the spec page's assets. */
function isSpecPage(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith("/v1/spec") === true;
}

export interface HttpOptions {
  readonly engine: LedgerApi;
  readonly profile: Profile;
  readonly spec: SpecDocument;
  /** Request body limit in bytes; a larger body is 413. */
  readonly bodyLimit?: number;
  /** When false, submission is 403 api_disabled. */
  readonly submitEnabled?: boolean;
  /** Where a 500 (a bug) is reported; stderr by default. */
  readonly onInternalError?: (error: unknown, request: FastifyRequest) => void;
  /** Named faults (src/node/faults/) switched on: they wrap the engine and add hooks. */
  readonly faults?: ActiveFaults;
}

/**
 * The 413 goes out at once, but the connection stays open while the rest of the body arrives, read and
 * thrown away (up to OVERSIZED_DISCARD_LIMIT, then it is closed). Closing at once, as fastify
 * does, makes the kernel reset the connection over the unread bytes, and a client still writing its
 * body (Node.js `http` always, undici often) loses the answer to EPIPE or ECONNRESET.
 */
function discardRestOfBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.complete) return;
  reply.removeHeader("connection");
  const giveUp = setTimeout(() => raw.socket.destroy(), OVERSIZED_DISCARD_LIMIT.ms).unref();
  raw.once("end", () => clearTimeout(giveUp));
  raw.once("close", () => clearTimeout(giveUp));
  let discarded = 0;
  raw.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > OVERSIZED_DISCARD_LIMIT.bytes) raw.socket.destroy();
  });
  raw.resume();
}

/**
 * The validator of the routes' body schemas, one per process instead of fastify's own per app: ajv keeps
 * what it compiled by schema, so the apps after the first (a test process starts many nodes) compile
 * nothing. The schemas check shapes only (no formats, defaults or removed members), and must not
 * quietly turn a number into a type tag string: no coercion.
 */
const BODY_SCHEMAS = new Ajv({ coerceTypes: false });

export function buildApp(options: HttpOptions): FastifyInstance {
  const { profile } = options;
  const engine = options.faults?.wrapEngine(options.engine) ?? options.engine;
  const context: HttpContext = { engine, profile, submitEnabled: options.submitEnabled ?? true };
  const onInternalError =
    options.onInternalError ?? ((error, request) => console.error(`internal error on ${request.method} ${request.url}:`, error));

  /** Headers are best effort on an error: if even the ledger info fails, the error still goes out. */
  function setLedgerHeaders(request: FastifyRequest, reply: FastifyReply): void {
    if (!profile.specPagesLedgerHeaders && isSpecPage(request)) return;
    try {
      reply.headers(ledgerHeaders(requestLedgerInfo(engine, request), profile.headerPrefix));
    } catch (error) {
      onInternalError(error, request);
    }
  }

  function sendError(request: FastifyRequest, reply: FastifyReply, { status, body }: ErrorReply): void {
    reply.removeHeader(cursorHeader(profile.headerPrefix));
    setLedgerHeaders(request, reply);
    reply
      .code(status)
      .type("application/json; charset=utf-8")
      .send(JSON.stringify(profileErrorBody(body, profile)));
  }

  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    routerOptions: {
      // The Aptos TS SDK asks for the ledger info at "/v1/".
      ignoreTrailingSlash: true,
      // Long path values reach the parameter parsers, which answer 400 rather than fastify's 414.
      maxParamLength: 4096,
    },
    // Requests refused before routing (undecodable URL, over-long parameter).
    frameworkErrors: (error, request, reply) => {
      sendError(request, reply, toErrorReply(error, profile));
    },
  });

  app.setValidatorCompiler(({ schema }) => BODY_SCHEMAS.compile(schema));
  app.decorateRequest("ledgerInfo", null);
  // Only JSON bodies (and, on the submission route, the profile's BCS type) are accepted.
  app.removeContentTypeParser("text/plain");

  app.addHook("onSend", async (request, reply) => {
    setLedgerHeaders(request, reply);
  });

  // Refusals before any route reads the body, where the profile makes them (src/node/http/profile.ts).
  app.addHook("onRequest", async (request) => {
    if (request.method !== "POST") return;
    if (profile.postNeedsContentLength && request.headers["content-length"] === undefined)
      throw new FrameworkRefusal(411, "A POST request needs a Content-Length header");
    if (profile.unsupportedMediaTypeStatus === 415 && request.headers["content-type"] === undefined)
      throw new FrameworkRefusal(415, "The request does not include the Content-Type header");
  });

  app.setErrorHandler((error, request, reply) => {
    const errorReply = toErrorReply(error, profile);
    if (errorReply.status >= 500 && errorReply.body.error_code === "internal_error") onInternalError(error, request);
    if (errorReply.status === 413) discardRestOfBody(request, reply);
    sendError(request, reply, errorReply);
  });

  app.setNotFoundHandler((request, reply) => {
    sendError(request, reply, routeNotFound(request.method, request.url));
  });

  // After the app's own hooks, so a fault's onSend sees the reply as the node would send it.
  options.faults?.install(app);

  registerSpecRoutes(app, context, options.spec);
  registerNodeStatusRoutes(app, context);
  registerAccountRoutes(app, context);
  registerTableRoutes(app, context);
  registerTransactionRoutes(app, context);
  return app;
}
