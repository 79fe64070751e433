// Faults in the §2.7 ledger-state headers: missing where required, in the wrong form, a timestamp that
// is not the ledger's, a version one short of what the reads reflect, a cursor where none may be, and
// values that go backwards.

import { cursorHeader } from "../http/headers.ts";
import { queryValue, routeOf, type Fault } from "./fault.ts";
import { laggingReplicaEngine } from "./lagging-replica.ts";

const missingBlockHeightHeaders: Fault = {
  name: "missing-block-height-headers",
  area: "headers",
  description: "leaves out X-NODE-BLOCK-HEIGHT and X-NODE-OLDEST-BLOCK-HEIGHT, as if they were optional",
  breaks: ["2.7/required-headers-on-api-success"],
  http: (app, { profile }) => {
    app.addHook("onSend", async (_request, reply) => {
      reply.removeHeader(`${profile.headerPrefix}BLOCK-HEIGHT`);
      reply.removeHeader(`${profile.headerPrefix}OLDEST-BLOCK-HEIGHT`);
    });
  },
};

const timestampHeaderInSeconds: Fault = {
  name: "timestamp-header-in-seconds",
  area: "headers",
  description: "writes X-NODE-LEDGER-TIMESTAMPUSEC as seconds with a fraction (1700000000.123456) instead of integer microseconds",
  breaks: ["2.7/header-integer-forms"],
  http: (app, { profile }) => {
    const name = `${profile.headerPrefix}LEDGER-TIMESTAMPUSEC`;
    app.addHook("onSend", async (_request, reply) => {
      const value = reply.getHeader(name);
      if (typeof value !== "string" || !/^[0-9]+$/.test(value)) return;
      const usec = BigInt(value);
      reply.header(name, `${usec / 1_000_000n}.${(usec % 1_000_000n).toString().padStart(6, "0")}`);
    });
  },
};

const timestampHeaderWallClock: Fault = {
  name: "timestamp-header-wall-clock",
  area: "headers",
  description:
    "writes X-NODE-LEDGER-TIMESTAMPUSEC from the node's wall clock (Date.now() in µs) instead of the timestamp of the ledger version it reports",
  breaks: ["2.7/timestamp-of-ledger-version"],
  http: (app, { profile }) => {
    const name = `${profile.headerPrefix}LEDGER-TIMESTAMPUSEC`;
    app.addHook("onSend", async (_request, reply) => {
      if (reply.hasHeader(name)) reply.header(name, (BigInt(Date.now()) * 1000n).toString());
    });
  },
};

const ledgerVersionHeaderBehind: Fault = {
  name: "ledger-version-header-behind",
  area: "headers",
  description:
    "reports X-NODE-LEDGER-VERSION one below the version its reads reflect (the count of versions after the first written as the latest)",
  breaks: ["4/future-version-law"],
  http: (app, { profile }) => {
    const name = `${profile.headerPrefix}LEDGER-VERSION`;
    const oldestName = `${profile.headerPrefix}LEDGER-OLDEST-VERSION`;
    app.addHook("onSend", async (_request, reply) => {
      const value = reply.getHeader(name);
      const oldest = reply.getHeader(oldestName);
      if (typeof value !== "string" || !/^[0-9]+$/.test(value)) return;
      // Never below the oldest version: the window stays a window, only its top is one short.
      if (typeof oldest === "string" && /^[0-9]+$/.test(oldest) && BigInt(value) <= BigInt(oldest)) return;
      if (BigInt(value) > 0n) reply.header(name, (BigInt(value) - 1n).toString());
    });
  },
};

const cursorOnErrors: Fault = {
  name: "cursor-on-errors",
  area: "headers",
  description: "echoes the start cursor of a module listing in X-NODE-CURSOR on its error responses too",
  breaks: ["2.7/no-cursor-on-error"],
  http: (app, { profile }) => {
    app.addHook("onSend", async (request, reply) => {
      if (reply.statusCode < 400 || routeOf(request) !== "/v1/accounts/:address/modules") return;
      const start = queryValue(request, "start");
      if (start !== undefined) reply.header(cursorHeader(profile.headerPrefix), start);
    });
  },
};

/** How far the lagging replica is behind the live ledger, in ledger time. */
const REPLICA_LAG_USEC = 3_000_000n;

/**
 * Two replicas behind a round-robin balancer, one of them 3 s behind the other (lagging-replica.ts):
 * every other request sees the older ledger, in its headers and in what it reads (a version the live
 * replica reported is in the lagging one's future). Each replica is consistent with itself; together
 * they go backwards.
 */
const laggingReplica: Fault = {
  name: "lagging-replica",
  area: "headers",
  description: "every other request is served by a replica 3 s behind: the X-NODE-* ledger state goes backwards between responses",
  breaks: ["2.7/ledger-state-monotonic"],
  racesTheLedger: true,
  engine: (api, { clock }) => {
    let requests = 0;
    return laggingReplicaEngine(api, clock, REPLICA_LAG_USEC, () => ++requests % 2 === 0);
  },
};

export const HEADER_FAULTS: readonly Fault[] = [
  missingBlockHeightHeaders,
  timestampHeaderInSeconds,
  timestampHeaderWallClock,
  ledgerVersionHeaderBehind,
  cursorOnErrors,
  laggingReplica,
];
