// Faults that show only under concurrency: a node that behaves while lightly used and misbehaves when
// many clients read and write at once. An idle run of the suite does not see them; its load mode must.
// Those that need many clients at once are switched on above what an idle run reaches (connections.ts).

import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyRequest } from "fastify";
import { decodeSignedTransaction, type SignedTransaction } from "../../codec/index.ts";
import { ledgerHeaders } from "../http/headers.ts";
import type { LedgerInfo } from "../ledger/api.ts";
import type { LedgerEngine } from "../ledger/engine.ts";
import { moduleCursor } from "../ledger/index.ts";
import { replayProtectorOf } from "../ledger/transaction-log.ts";
import { connectionGauge } from "./connections.ts";
import { overrideApi, queryValue, routeOf, type Fault } from "./fault.ts";
import { laggingReplicaEngine } from "./lagging-replica.ts";
import { currentRequest, handlersInRequestScope } from "./request-scope.ts";

/** How long an admission waits for its signature check: a few milliseconds, as long as two racing submissions need. */
const QUEUE_MS = 5;
/**
 * How long a read waits in the storage queue: a fifth of the embedded node's 100 ms blocks, so that
 * under load one torn answer in five straddles a commit (at 5 ms a short load saw as few as four).
 */
const READ_QUEUE_MS = 20;

/** The reads that may be made without ledger_version (§4.2-§4.5); transaction summaries have none. */
const LATEST_READ_ROUTES = new Set([
  "/v1/accounts/:address/modules",
  "/v1/accounts/:address/module/:module_name",
  "/v1/tables/:table_handle/item",
  "/v1/accounts/:address/transaction_summaries",
]);

/**
 * A read at the latest version takes its ledger-state headers when the request arrives and reads its
 * body from storage after a queue (READ_QUEUE_MS). Under load (more than CONNECTIONS_UNDER_LOAD open when it
 * is answered) the headers it sends are those of its arrival: when a block committed meanwhile, they name
 * version V and the body is of a later one (a summary above V, a module published after V). Lightly
 * used, it sends the headers of the snapshot its body was read from, as the node's routes take them
 * (src/node/http/context.ts).
 */
const tornRead: Fault = {
  name: "torn-read",
  area: "concurrency",
  description:
    "under load, a read without ledger_version takes its X-NODE-* headers on arrival and its body after a queue, from the ledger then: the body may be of a later version than the headers name",
  breaks: ["4/snapshot-under-load"],
  racesTheLedger: true,
  http: (app, { node, profile }) => {
    const connections = connectionGauge(app);
    /** The ledger when each queued request arrived: what its headers report under load. */
    const onArrival = new WeakMap<FastifyRequest, LedgerInfo>();
    app.addHook("onRequest", async (request) => {
      const route = routeOf(request);
      if (route === undefined || !LATEST_READ_ROUTES.has(route) || queryValue(request, "ledger_version") !== undefined) return;
      onArrival.set(request, node.info());
    });
    app.addHook("preHandler", async (request) => {
      if (onArrival.has(request)) await sleep(READ_QUEUE_MS);
    });
    // After the app's own onSend, which wrote the headers of the snapshot the body was read from.
    app.addHook("onSend", async (request, reply) => {
      const arrival = onArrival.get(request);
      if (arrival !== undefined && connections.underLoad()) reply.headers(ledgerHeaders(arrival, profile.headerPrefix));
    });
  },
};

/** How far the replica behind connections accepted under load is behind the live ledger, in ledger time. */
const STALE_REPLICA_LAG_USEC = 2_000_000n;

/**
 * A balancer that, under load, sends each new connection for its whole life to a replica 2 s behind
 * (lagging-replica.ts): each connection sees a ledger consistent with itself, but an answer on a new
 * connection reports an older ledger than one already received on another.
 */
const staleReplicaConnections: Fault = {
  name: "stale-replica-connections",
  area: "concurrency",
  description:
    "under load, a new connection is served for its whole life by a replica 2 s behind: the X-NODE-* ledger state goes backwards across connections",
  breaks: ["2.7/monotonic-under-load"],
  racesTheLedger: true,
  engine: (api, { clock }) =>
    laggingReplicaEngine(api, clock, STALE_REPLICA_LAG_USEC, () => {
      const request = currentRequest();
      return request !== undefined && staleConnection.has(request.raw.socket);
    }),
  http: (app) => {
    const connections = connectionGauge(app);
    app.addHook("onRequest", async (request) => {
      if (connections.acceptedUnderLoad(request.raw.socket)) staleConnection.add(request.raw.socket);
    });
    handlersInRequestScope(app);
  },
};

/** The connections served by the stale replica (sockets are each one server's). */
const staleConnection = new WeakSet<object>();

/** No limit on a listing read whole (the engine takes any positive limit). */
const WHOLE_LISTING = Number.MAX_SAFE_INTEGER;

/**
 * The modules cursor names a position rather than a module: the node turns it into an offset in the
 * latest listing and takes the page from that offset in the listing at the page's ledger version. Once a
 * module that sorts before the cursor was published after that version, the offset points one module
 * further and the walk skips one. Until then the offset is the cursor's module's, as it should be: a
 * ledger whose modules do not change shows nothing.
 */
const cursorShiftOnPublish: Fault = {
  name: "cursor-shift-on-publish",
  area: "concurrency",
  description:
    "resolves a module cursor as an offset in the latest listing, applied to the listing at the page's ledger version: a walk skips a module once one was published before the cursor",
  breaks: ["4.5/cursor-walk-under-load"],
  engine: (api) =>
    overrideApi(api, {
      listModules: (address, options) => {
        if (options.start === undefined) return api.listModules(address, options);
        // The engine checks the cursor and finds its module at the page's version.
        const first = api.listModules(address, { ...options, limit: 1 }).modules[0];
        if (first === undefined) return api.listModules(address, options);
        const latest = api.listModules(address, { limit: WHOLE_LISTING }).modules.map((m) => m.abi.name);
        const offset = latest.indexOf(first.abi.name);
        if (offset < 0) return api.listModules(address, options);
        const listing = api.listModules(address, { version: options.version, limit: WHOLE_LISTING }).modules;
        const modules = listing.slice(offset, offset + options.limit);
        const next = listing[offset + options.limit];
        return next === undefined ? { modules } : { modules, nextCursor: moduleCursor(address, next.abi.name) };
      },
    }),
};

/** The signed transaction of a submission's body, or undefined when it has none (the route refuses it). */
function submittedTransaction(node: LedgerEngine, body: unknown): SignedTransaction | undefined {
  try {
    return Buffer.isBuffer(body) ? decodeSignedTransaction(body) : node.signedTransactionFromJson(body);
  } catch {
    return undefined;
  }
}

/** Submissions that found nothing pending under their sender and replay protector when they were checked. */
const foundNothingPending = new WeakSet<FastifyRequest>();

/**
 * Admission checks the mempool, then verifies the signature off the event loop, then inserts: two
 * different transactions of one sender under one sequence number that arrive together both pass the
 * check, both are taken in (the second beside the first, src/node/ledger/mempool.ts addBeside), and the
 * block producer executes both, the second right after the first as validated with it. One after the
 * other, the second finds the first pending and is refused or replaces it, as the node does.
 */
const mempoolDoubleAccept: Fault = {
  name: "mempool-double-accept",
  area: "concurrency",
  description:
    "admits two transactions of one sender with one sequence number that arrive at once, and commits both: the sequence number appears twice in the sender's summaries",
  breaks: ["4.8/committed-at-most-once"],
  engine: (api, { node }) =>
    overrideApi(api, {
      submit: (signed) => {
        const request = currentRequest();
        return request !== undefined && foundNothingPending.has(request) ? node.admitBeside(signed) : api.submit(signed);
      },
    }),
  http: (app, { node }) => {
    app.addHook("preHandler", async (request) => {
      if (request.method !== "POST" || routeOf(request) !== "/v1/transactions") return;
      const signed = submittedTransaction(node, request.body);
      if (signed === undefined) return;
      const pending = node.mempool.pendingUnder(signed.raw_txn.sender, replayProtectorOf(signed));
      // The signature is verified off the event loop: the insert comes after a queue.
      await sleep(QUEUE_MS);
      if (pending === undefined) foundNothingPending.add(request);
    });
    handlersInRequestScope(app);
  },
};

export const CONCURRENCY_FAULTS: readonly Fault[] = [tornRead, staleReplicaConnections, cursorShiftOnPublish, mempoolDoubleAccept];
