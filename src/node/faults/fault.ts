// What a named fault is: a realistic deviation from the spec that a node team could ship, switched on
// with `ledger-node --fault NAME`. A fault changes the node where such a team would make the mistake:
// in the engine the HTTP face serves (a wrapper around the LedgerApi, for semantic mistakes) or in the
// HTTP face itself (fastify hooks, for mistakes in headers, statuses, error bodies and media types).
// Each declares the requirement ids of schemas/requirements/ it is meant to break; the self-check
// (test/self-check/) proves the conformance suite fails every one of them.

import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { LedgerApi } from "../ledger/api.ts";
import type { Clock } from "../ledger/clock.ts";
import type { LedgerEngine } from "../ledger/engine.ts";
import type { Profile } from "../http/profile.ts";

/** The areas of the interface the faults are spread over (one file each in this folder). */
export type FaultArea =
  | "headers"
  | "statuses"
  | "errors"
  | "pagination"
  | "versions"
  | "media"
  | "submission"
  | "signatures"
  | "payload-forms"
  | "gas"
  | "health"
  | "spec-pages"
  | "modules"
  | "concurrency";

/** What a fault may need to know about the node it breaks. */
export interface FaultContext {
  readonly profile: Profile;
  readonly clock: Clock;
  /** The signing and hashing domain ("APTOS"). */
  readonly domain: string;
  /**
   * The engine below the HTTP face, unwrapped: for a fault whose mistake lies below the LedgerApi (an
   * admission that races itself) or that reads the ledger outside a route (in a hook).
   */
  readonly node: LedgerEngine;
}

export interface Fault {
  /** Lower-case words joined by hyphens; what `--fault` takes. */
  readonly name: string;
  readonly area: FaultArea;
  /** One line: what the node does wrong. */
  readonly description: string;
  /** Requirement ids (schemas/requirements/) the fault is meant to break; at least one is a MUST. */
  readonly breaks: readonly string[];
  /**
   * What the fault does to a check depends on where the ledger is when the check's requests arrive:
   * the checks it fails beyond `breaks` differ from run to run, and from one profile to the other.
   */
  readonly racesTheLedger?: true;
  /** Wraps the engine the HTTP face serves. */
  readonly engine?: (api: LedgerApi, ctx: FaultContext) => LedgerApi;
  /** Adds hooks to the app; called after the app's own hooks and before its routes. */
  readonly http?: (app: FastifyInstance, ctx: FaultContext) => void;
}

/** A LedgerApi that answers like `inner` except for the methods given. */
export function overrideApi(inner: LedgerApi, overrides: Partial<LedgerApi>): LedgerApi {
  return {
    info: overrides.info ?? (() => inner.info()),
    getModule: overrides.getModule ?? ((address, name, version) => inner.getModule(address, name, version)),
    listModules: overrides.listModules ?? ((address, options) => inner.listModules(address, options)),
    getTableItem: overrides.getTableItem ?? ((handle, request, version) => inner.getTableItem(handle, request, version)),
    transactionSummaries: overrides.transactionSummaries ?? ((address, options) => inner.transactionSummaries(address, options)),
    gasEstimate: overrides.gasEstimate ?? (() => inner.gasEstimate()),
    isHealthy: overrides.isHealthy ?? ((durationSecs, options) => inner.isHealthy(durationSecs, options)),
    submit: overrides.submit ?? ((signed) => inner.submit(signed)),
    signedTransactionFromJson: overrides.signedTransactionFromJson ?? ((body) => inner.signedTransactionFromJson(body)),
    account: overrides.account ?? ((address, version) => inner.account(address, version)),
    transactionByHash: overrides.transactionByHash ?? ((hash) => inner.transactionByHash(hash)),
  };
}

/** The route pattern a request matched, e.g. "/v1/accounts/:address/modules" (undefined when none did). */
export function routeOf(request: FastifyRequest): string | undefined {
  return request.routeOptions.url;
}

/** The media type of a reply, lower-case, without parameters. */
export function replyMediaType(reply: FastifyReply): string {
  const value = reply.getHeader("content-type");
  return (
    String(value ?? "")
      .split(";")[0]
      ?.trim()
      .toLowerCase() ?? ""
  );
}

/**
 * A text payload as an onSend hook receives it: the node sends text as a string, or as bytes when the
 * body was rendered once and kept (src/node/http/rendered-json.ts); undefined for any other payload (a
 * stream).
 */
export function payloadText(payload: unknown): string | undefined {
  if (typeof payload === "string") return payload;
  return Buffer.isBuffer(payload) ? payload.toString("utf8") : undefined;
}

/**
 * An onSend hook that rewrites the JSON body of every 200 answer to the routes given (route patterns,
 * as routeOf names them), as a layer written against another convention would: `rewrite` takes the
 * parsed body and returns the body to send.
 */
export function rewriteJsonSuccess(routes: readonly string[], rewrite: (body: unknown) => unknown) {
  const wanted = new Set(routes);
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const route = routeOf(request);
    const text = payloadText(payload);
    if (route === undefined || !wanted.has(route) || reply.statusCode !== 200 || text === undefined) return payload;
    if (replyMediaType(reply) !== "application/json") return payload;
    return JSON.stringify(rewrite(JSON.parse(text)));
  };
}

/** The JSON error object of an error reply's payload, or undefined when it is not one. */
export function errorBodyOf(reply: FastifyReply, payload: unknown): Record<string, unknown> | undefined {
  const text = payloadText(payload);
  if (reply.statusCode < 400 || text === undefined || replyMediaType(reply) !== "application/json") return undefined;
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The query parameter `name` when it was given once. */
export function queryValue(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}
