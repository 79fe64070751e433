// Faults in statuses: a pruned version answered as missing, a server error for bad input, success for
// something missing, and success for a malformed path value.

import { LedgerError } from "../ledger/api.ts";
import { overrideApi, queryValue, type Fault } from "./fault.ts";

/** Runs `read`, turning a 410 version_pruned into a 404 version_not_found. */
function prunedAsMissing<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof LedgerError && error.code === "version_pruned") throw new LedgerError(404, "version_not_found", error.message);
    throw error;
  }
}

const prunedVersionNotFound: Fault = {
  name: "pruned-version-not-found",
  area: "statuses",
  description: "answers a read at a pruned ledger version with 404 version_not_found instead of 410 version_pruned",
  breaks: ["4.2/pruned-version-gone", "4.4/pruned-version-gone", "4.5/pruned-version-gone"],
  engine: (api) =>
    overrideApi(api, {
      getModule: (address, name, version) => prunedAsMissing(() => api.getModule(address, name, version)),
      listModules: (address, options) => prunedAsMissing(() => api.listModules(address, options)),
      getTableItem: (handle, request, version) => prunedAsMissing(() => api.getTableItem(handle, request, version)),
      transactionSummaries: (address, options) => prunedAsMissing(() => api.transactionSummaries(address, options)),
    }),
};

const U64_QUERY_PARAMETERS = ["ledger_version", "start_version", "end_version", "duration_secs"] as const;

const badU64ServerError: Fault = {
  name: "bad-u64-server-error",
  area: "statuses",
  description: "converts u64 query values with BigInt() before validating them, so a non-numeric one is a 500 internal_error",
  breaks: [
    "4.2/malformed-ledger-version-rejected",
    "4.3/malformed-version-rejected",
    "4.4/malformed-ledger-version-rejected",
    "4.5/malformed-ledger-version-rejected",
  ],
  http: (app) => {
    app.addHook("preHandler", async (request) => {
      for (const name of U64_QUERY_PARAMETERS) {
        const value = queryValue(request, name);
        // Throws a SyntaxError for "abc" or "1.5": nobody anticipated it, so it is a 500.
        if (value !== undefined) BigInt(value);
      }
    });
  },
};

const missingTableItemNull: Fault = {
  name: "missing-table-item-null",
  area: "statuses",
  description: "answers a table item that does not exist with 200 and a null body (Option::None) instead of 404",
  breaks: ["4.2/missing-item-not-found"],
  engine: (api) =>
    overrideApi(api, {
      getTableItem: (handle, request, version) => {
        try {
          return api.getTableItem(handle, request, version);
        } catch (error) {
          if (error instanceof LedgerError && error.code === "table_item_not_found") return { bcs: new Uint8Array([0]), json: null };
          throw error;
        }
      },
    }),
};

/** What a lenient address parser keeps of a path address: the 0x prefix and the hex digits. */
const notHexDigit = /[^0-9a-fA-F]/g;

const addressNonHexDropped: Fault = {
  name: "address-non-hex-dropped",
  area: "statuses",
  description:
    "parses path addresses leniently, dropping the characters that are not hex digits, so 0xzz reads account 0x0 instead of being refused",
  breaks: ["4.3/malformed-address-rejected", "4.5/malformed-address-rejected"],
  http: (app) => {
    app.addHook("preValidation", async (request) => {
      const params = request.params as Record<string, string | undefined>;
      const value = params.address;
      if (value === undefined) return;
      const digits = value.replace(/^0x/, "").replace(notHexDigit, "");
      params.address = `0x${digits === "" ? "0" : digits}`;
    });
  },
};

/** u16, u32 or u256 anywhere in a type tag: the forms §2.1's declared pattern leaves out. */
const OUTSIDE_DECLARED_PATTERN = /\b(u16|u32|u256)\b/;

const typeTagsPatternOnly: Fault = {
  name: "type-tags-pattern-only",
  area: "statuses",
  description:
    "refuses table item requests whose key or value type uses u16, u32 or u256 (400 invalid_input): it parses type tags by the declared pattern, which omits them",
  breaks: ["2.1/move-type-forms-read"],
  engine: (api) =>
    overrideApi(api, {
      getTableItem: (handle, request, version) => {
        if (OUTSIDE_DECLARED_PATTERN.test(request.keyType) || OUTSIDE_DECLARED_PATTERN.test(request.valueType))
          throw new LedgerError(400, "invalid_input", `unsupported type tag: ${request.keyType} / ${request.valueType}`);
        return api.getTableItem(handle, request, version);
      },
    }),
};

export const STATUS_FAULTS: readonly Fault[] = [
  prunedVersionNotFound,
  badU64ServerError,
  missingTableItemNull,
  addressNonHexDropped,
  typeTagsPatternOnly,
];
