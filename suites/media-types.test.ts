// §4 media types, across the endpoints: "A 200 response offers two media types: application/json and
// application/x-bcs (except /spec). How the media type is selected: not shown." The family fills in the
// selection (Accept: application/x-bcs gives BCS, anything else JSON) and the BCS layouts (src/codec).
// So, on every read endpoint: asking for BCS should give BCS that decodes (SHOULD); whatever is served,
// its label must say what it is (MUST); and an error stays the JSON error object of §2.6 even when BCS
// was asked for (MUST). /spec, /spec.yaml and /spec.json offer no BCS (§4.1) and are left out.
//
// Fixture-free where the resource is: modules of 0x1, gas, health, and every provoked error. Summaries
// need the transactions account and the table item the table fixture.

import {
  GasEstimationBcs,
  HealthBcs,
  ModuleBytecodeBcs,
  ModuleMapBcs,
  TransactionSummaryListBcs,
  decodeMoveValue,
  parseTypeTag,
} from "../src/codec/index.ts";
import { check, describeEndpoint, type CheckContext, type HttpResponse, type RequestSpec } from "../src/harness/index.ts";
import { tableItemBody } from "./support/table-values.ts";

interface ReadEndpoint {
  readonly operation: string;
  /** A request that answers 200 (may call t.needsFixture). Its `accept` is set by the check. */
  readonly ok: (t: CheckContext) => RequestSpec;
  /** Decodes a BCS 200 body exactly (failing the check otherwise). */
  readonly decode: (t: CheckContext, res: HttpResponse) => void;
  /** A request that the endpoint must answer with an error, if its parameters allow one. */
  readonly error?: { readonly what: string; readonly request: RequestSpec };
}

const READ_ENDPOINTS: readonly ReadEndpoint[] = [
  {
    operation: "get_table_item",
    ok: (t) => {
      const table = t.needsFixture("table");
      return {
        method: "POST",
        path: `/tables/${table.handle}/item`,
        json: tableItemBody(table),
      };
    },
    decode: (t, res) => {
      const valueType = t.needsFixture("table").valueType;
      // Struct values need their layouts, which only the node knows: then the body must at least be there.
      if (valueType.includes("::")) {
        t.expect(res.body.length > 0, `the BCS bytes of a ${valueType} value`, res);
        return;
      }
      let problem: string | undefined;
      try {
        decodeMoveValue(parseTypeTag(valueType), res.body);
      } catch (e) {
        problem = (e as Error).message;
      }
      t.expect(problem === undefined, `exactly one BCS ${valueType} value`, res, problem);
    },
    error: {
      what: "a table handle that is not hex",
      request: { method: "POST", path: "/tables/0xzz/item", json: { key_type: "u64", value_type: "u64", key: "1" } },
    },
  },
  {
    operation: "get_account_transaction_summaries",
    ok: (t) => ({ path: `/accounts/${t.needsFixture("transactionsAccount")}/transaction_summaries`, query: { limit: 5 } }),
    decode: (t, res) => void t.decodeBcs(res, TransactionSummaryListBcs),
    error: { what: "an address that is not hex", request: { path: "/accounts/0xzz/transaction_summaries" } },
  },
  {
    operation: "get_account_module",
    ok: () => ({ path: "/accounts/0x1/module/aptos_account" }),
    decode: (t, res) => void t.decodeBcs(res, ModuleBytecodeBcs),
    error: { what: "a module 0x1 does not have", request: { path: "/accounts/0x1/module/no_such_module_here" } },
  },
  {
    operation: "get_account_modules",
    ok: () => ({ path: "/accounts/0x1/modules", query: { limit: 2 } }),
    decode: (t, res) => void t.decodeBcs(res, ModuleMapBcs),
    error: { what: "an address that is not hex", request: { path: "/accounts/0xzz/modules" } },
  },
  {
    // §4.6 takes no parameters: nothing provokes an error on purpose.
    operation: "estimate_gas_price",
    ok: () => ({ path: "/estimate_gas_price" }),
    decode: (t, res) => void t.decodeBcs(res, GasEstimationBcs),
  },
  {
    operation: "healthy",
    ok: () => ({ path: "/-/healthy" }),
    decode: (t, res) => void t.decodeBcs(res, HealthBcs),
    error: { what: "a duration_secs that is not a number", request: { path: "/-/healthy", query: { duration_secs: "soon" } } },
  },
];

/** Endpoints that offer no BCS body but can still be asked for one on an error. */
const ERROR_ONLY: readonly { operation: string; what: string; request: RequestSpec }[] = [
  {
    operation: "submit_transaction",
    what: "a JSON submission that is not JSON",
    request: { method: "POST", path: "/transactions", body: "{", contentType: "application/json" },
  },
];

function expectJsonError(t: CheckContext, res: HttpResponse, what: string): void {
  t.expect(res.status >= 400 && res.status < 600, `an error status for ${what}`, res, `status ${res.status}`);
  // The rule 2.6/error-object judges every error body by (src/harness/error-object.ts): one body, one verdict.
  t.expectErrorObject(res);
}

for (const endpoint of READ_ENDPOINTS) {
  describeEndpoint(endpoint.operation, () => {
    check("4/bcs-served-on-request", { variant: endpoint.operation }, async (t) => {
      const res = await t.request({ ...endpoint.ok(t), accept: "bcs" });
      t.expectStatus(res, 200);
      t.expectMediaType(res, "application/x-bcs");
      endpoint.decode(t, res);
    });

    check("4/bcs-body-labelled", { variant: endpoint.operation }, async (t) => {
      for (const accept of ["bcs", "json"] as const) {
        const res = await t.request({ ...endpoint.ok(t), accept });
        t.expectStatus(res, 200);
        if (res.contentType === "application/json") {
          t.expect(res.json !== undefined, "a body served as application/json to be JSON", res, "a body that does not parse as JSON");
        } else {
          t.expectMediaType(res, "application/x-bcs");
        }
      }
    });

    const error = endpoint.error;
    if (error !== undefined) {
      check("4/errors-json-when-bcs-asked", { variant: endpoint.operation }, async (t) => {
        const res = await t.request({ ...error.request, accept: "bcs" });
        expectJsonError(t, res, error.what);
      });
    }
  });
}

for (const { operation, what, request } of ERROR_ONLY) {
  describeEndpoint(operation, () => {
    check("4/errors-json-when-bcs-asked", { variant: operation }, async (t) => {
      const res = await t.request({ ...request, accept: "bcs" });
      expectJsonError(t, res, what);
    });
  });
}
