// Faults in how inputs at their edges are read: integer query values through a double or wrapped into
// range, a health threshold wrapped into 16 bits or underflowing, a start_version below the pruning window answered with an
// empty page, MoveType strings with blanks refused, module names resolved whatever their case.

import { LedgerError, type TransactionSummary } from "../ledger/api.ts";
import { overrideApi, queryValue, routeOf, type Fault } from "./fault.ts";

const U64_QUERY_PARAMETERS = ["ledger_version", "start_version", "end_version"] as const;
const DIGITS = /^[0-9]+$/;

const u64ThroughDouble: Fault = {
  name: "u64-through-double",
  area: "versions",
  description:
    "reads u64 query values through a double (Number, then BigInt), so 2^64-1 becomes 2^64 and is refused as out of range, and values past 2^53 are rounded",
  breaks: ["2.1/u64-edges"],
  http: (app) => {
    app.addHook("preHandler", async (request) => {
      const query = request.query as Record<string, unknown>;
      for (const name of U64_QUERY_PARAMETERS) {
        const value = queryValue(request, name);
        if (value !== undefined && DIGITS.test(value)) query[name] = BigInt(Number(value)).toString();
      }
    });
  },
};

const limitWrapsU16: Fault = {
  name: "limit-wraps-u16",
  area: "pagination",
  description: "stores limit in a 16-bit integer without a range check, so 65536 wraps to 0 and 65537 to 1",
  breaks: ["8/limit-edges"],
  http: (app) => {
    app.addHook("preHandler", async (request) => {
      const value = queryValue(request, "limit");
      if (value !== undefined && DIGITS.test(value)) (request.query as Record<string, unknown>).limit = String(BigInt(value) % 65_536n);
    });
  },
};

const healthDurationWrapsU16: Fault = {
  name: "health-duration-wraps-u16",
  area: "health",
  description:
    "stores duration_secs in a 16-bit integer without a range check, so 65536 wraps to 0 and a lagging ledger of a threshold that long is a 503",
  breaks: ["4.7/duration-edges"],
  engine: (api) =>
    overrideApi(api, {
      isHealthy: (durationSecs, options) => api.isHealthy(durationSecs === undefined ? undefined : durationSecs % 65_536n, options),
    }),
};

const healthDurationUnderflow: Fault = {
  name: "health-duration-underflow",
  area: "health",
  description:
    "computes now - duration_secs in unsigned microseconds before it checks the value's type, so a threshold longer than the time since 1970 is a 500 internal_error",
  breaks: ["4.7/duration-edges"],
  http: (app, ctx) => {
    app.addHook("preHandler", async (request) => {
      if (routeOf(request) !== "/v1/-/healthy") return;
      const value = queryValue(request, "duration_secs");
      if (value !== undefined && DIGITS.test(value) && BigInt(value) * 1_000_000n > ctx.clock.nowUsec())
        throw new LedgerError(500, "internal_error", "attempt to subtract with overflow");
    });
  },
};

const summariesPrunedEmpty: Fault = {
  name: "summaries-pruned-empty",
  area: "versions",
  description: "answers transaction summaries from a start_version below the oldest retained version with 200 and an empty page",
  breaks: ["4.3/pruned-start-not-empty"],
  engine: (api) =>
    overrideApi(api, {
      transactionSummaries: (address, options): readonly TransactionSummary[] => {
        if (options.startVersion !== undefined && options.startVersion < api.info().oldestLedgerVersion) return [];
        return api.transactionSummaries(address, options);
      },
    }),
};

const BLANK = /\s/;

/** Whether any MoveType string of a table item request or a JSON submission has a blank in it. */
function typeStringsWithBlanks(route: string | undefined, body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  const object = body as Record<string, unknown>;
  const blank = (value: unknown) => typeof value === "string" && BLANK.test(value);
  if (route === "/v1/tables/:table_handle/item") return blank(object.key_type) || blank(object.value_type);
  if (route !== "/v1/transactions") return false;
  const payload = object.payload as Record<string, unknown> | undefined;
  const inner = payload?.transaction_payload as Record<string, unknown> | undefined;
  return [payload, inner].some((p) => Array.isArray(p?.type_arguments) && (p.type_arguments as unknown[]).some(blank));
}

const typeTagBlanksRefused: Fault = {
  name: "type-tag-blanks-refused",
  area: "submission",
  description:
    "matches MoveType strings against a pattern without blanks, so a type written with blanks (vector< u8 >) is refused with 400",
  breaks: ["2.1/struct-tag-blanks-ignored"],
  http: (app) => {
    app.addHook("preHandler", async (request) => {
      if (typeStringsWithBlanks(routeOf(request), request.body))
        throw new LedgerError(400, "invalid_input", "Invalid type: a MoveType has no blank characters");
    });
  },
};

const namesCaseInsensitive: Fault = {
  name: "names-case-insensitive",
  area: "modules",
  description:
    "looks modules up whatever the case of their name, so a call of 0x1::Aptos_Account::transfer is accepted and committed as a success, and /module/COIN answers coin",
  breaks: ["2.1/entry-function-id-case-sensitive", "4.4/module-name-case-sensitive"],
  engine: (api, ctx) => {
    // Below the HTTP face: the JSON conversion, the executor and the module reads all ask the state.
    const state = ctx.node.ledger.state;
    const exact = state.module.bind(state);
    state.module = (address, name, version) => {
      const found = exact(address, name, version);
      if (found !== undefined) return found;
      const other = state.moduleNamesAt(address).find((n) => n.toLowerCase() === name.toLowerCase());
      return other === undefined ? undefined : exact(address, other, version);
    };
    return api;
  },
};

export const INPUT_FAULTS: readonly Fault[] = [
  u64ThroughDouble,
  limitWrapsU16,
  healthDurationWrapsU16,
  healthDurationUnderflow,
  summariesPrunedEmpty,
  typeTagBlanksRefused,
  namesCaseInsensitive,
];
