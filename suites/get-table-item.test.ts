// §4.2 Get table item: POST /v1/tables/{table_handle}/item with the table item request of §2.2
// ({key_type, value_type, key}, the family's convention) answers 200 with the item at the given ledger_version
// (default: the latest), as JSON or as BCS (§4). The spec lists 400, 403, 404, 410, 500, 503 and states
// only one condition: 410 when the version was pruned. What the spec's types make malformed (the
// handle, a u64, the required body, a type tag, a key of its type) must be 400; which error code goes
// with each case is the family's convention and a SHOULD (4.2/case-error-codes; 4.2/unsupported-body-400 for a request without a body).
//
// The present key comes from the `table` fixture; versions come from the ledger headers of the node's
// own answers. Every response is also checked by the harness against the observed-status contract.

import { bytesEqual, decodeMoveValue, encodeMoveValue, sha3_256, toHex, type TypeTag } from "../src/codec/index.ts";
import {
  check,
  CheckNotApplicable,
  CheckSkipped,
  describeEndpoint,
  errorCodeOf,
  type CheckContext,
  type HttpResponse,
  type TableFixture,
} from "../src/harness/index.ts";
import { knownChange } from "./support/known-history.ts";
import { expectValueOf, fixtureType, FRAMEWORK, selfDescribing, tableItemBody } from "./support/table-values.ts";
import { ledgerWindow, notApplicableIfPrunedSince, U64_MAX, versionAt } from "./support/ledger-window.ts";

/** A handle no table has: 32 bytes derived from a label, so failures replay exactly. */
const UNKNOWN_HANDLE = toHex(sha3_256(new TextEncoder().encode("ledger-conformance/unknown-table-handle")));
/** A well-formed request for checks that need no present item. */
const PLAIN_REQUEST = { key_type: "u64", value_type: "u64", key: "1" } as const;

const itemPath = (handle: string) => `/tables/${handle}/item`;

interface ItemQuery {
  readonly handle?: string;
  readonly ledgerVersion?: bigint | string;
  readonly accept?: "json" | "bcs";
  readonly json?: unknown;
}

/** POST the fixture's request (or `json`) to the fixture's table (or `handle`). */
function readItem(t: CheckContext, table: TableFixture, q: ItemQuery = {}): Promise<HttpResponse> {
  return t.request({
    method: "POST",
    path: itemPath(q.handle ?? table.handle),
    query: { ledger_version: q.ledgerVersion },
    json: q.json ?? tableItemBody(table),
    accept: q.accept ?? "json",
  });
}

/**
 * The §2.1 MoveType forms a table's key or value type can use. signer is none: it has no store
 * ability, so no table holds one.
 */
const TABLE_TYPE_FORMS = ["bool", "u8", "u16", "u32", "u64", "u128", "u256", "address", "vector", "struct", "generic struct"] as const;
type TableTypeForm = (typeof TABLE_TYPE_FORMS)[number];

function typeFormsOf(tag: TypeTag, into: Set<TableTypeForm>): void {
  switch (tag.$kind) {
    case "Vector":
      into.add("vector");
      typeFormsOf(tag.Vector, into);
      return;
    case "Struct":
      into.add(tag.Struct.type_args.length > 0 ? "generic struct" : "struct");
      for (const arg of tag.Struct.type_args) typeFormsOf(arg, into);
      return;
    case "Signer":
      return;
    default:
      into.add(tag.$kind.toLowerCase() as TableTypeForm);
  }
}

/** Reads of the oldest version before 4.2/window-versions-readable gives up on a pruner that keeps passing it. */
const BOUNDARY_READS = 5;

/** A 200 for the fixture's key at the latest version: the window the checks pick versions from. */
async function currentWindow(t: CheckContext, table: TableFixture) {
  const res = await readItem(t, table);
  t.expectStatus(res, 200);
  return ledgerWindow(t, res);
}

/** A key of `keyType` that no table is likely to hold; undefined when the suite cannot make one. */
function unlikelyKey(keyType: TypeTag): unknown {
  const digest = sha3_256(new TextEncoder().encode("ledger-conformance/absent-table-key"));
  switch (keyType.$kind) {
    case "U16":
      return 0xffff;
    case "U32":
      return 0xffffffff;
    case "U64":
      return U64_MAX.toString();
    case "U128":
      return ((1n << 128n) - 1n).toString();
    case "U256":
      return ((1n << 256n) - 1n).toString();
    case "Address":
      return toHex(digest);
    case "Vector":
      return keyType.Vector.$kind === "U8" ? toHex(digest) : undefined;
    case "Struct": {
      const s = keyType.Struct;
      return bytesEqual(s.address, FRAMEWORK) && s.module === "string" && s.name === "String"
        ? "ledger-conformance: absent key"
        : undefined;
    }
    default:
      return undefined; // bool and u8 have too few values to be sure one is absent
  }
}

// --- Error cases: each is checked twice, what the spec gives its status (a MUST) and the status and code the
// family's nodes give it (a SHOULD).

/**
 * What the MUST accepts: the statuses the spec ties to the case (410 for a pruned version, §4.2), or a
 * client error where the spec lists the endpoint's error statuses but leaves their conditions "not
 * shown" (§7.1), optionally but one the spec ties to another case.
 */
type MustStatus = { readonly statuses: readonly number[] } | { readonly clientErrorExcept: readonly number[] };

const CLIENT_ERROR: MustStatus = { clientErrorExcept: [] };
/** A version above the latest is not a pruned one: any client error but 410, which §4.2 gives to pruned versions. */
const CLIENT_ERROR_NOT_PRUNED: MustStatus = { clientErrorExcept: [410] };

interface ErrorCase {
  /** The MUST requirement the status belongs to. */
  readonly requirement: string;
  readonly variant: string;
  readonly must: MustStatus;
  /** Status and code(s) the family's nodes give the case. */
  readonly design: { readonly status: number; readonly codes: readonly string[] };
  readonly send: (t: CheckContext) => Promise<HttpResponse>;
}

/** The fixture's table and request when there is one, else a well-formed request to a table-less handle. */
function anyTable(t: CheckContext): TableFixture {
  return (
    t.fixtures.table ?? {
      handle: UNKNOWN_HANDLE,
      keyType: PLAIN_REQUEST.key_type,
      valueType: PLAIN_REQUEST.value_type,
      key: PLAIN_REQUEST.key,
    }
  );
}

const post = (t: CheckContext, handle: string, body: { body?: string; contentType?: string }) =>
  t.request({ method: "POST", path: itemPath(handle), ...body });

const BODY_400 = { status: 400, codes: ["web_framework_error", "invalid_input"] } as const;
const FRAMEWORK_400 = { status: 400, codes: ["web_framework_error"] } as const;
const INPUT_400 = { status: 400, codes: ["invalid_input"] } as const;

const ERROR_CASES: readonly ErrorCase[] = [
  // Missing items.
  {
    requirement: "4.2/missing-item-not-found",
    variant: "the fixture's key in a table-less handle",
    must: CLIENT_ERROR,
    design: { status: 404, codes: ["table_item_not_found"] },
    send: (t) => readItem(t, t.needsFixture("table"), { handle: UNKNOWN_HANDLE }),
  },
  {
    requirement: "4.2/missing-item-not-found",
    variant: "an absent key in the fixture's table",
    must: CLIENT_ERROR,
    design: { status: 404, codes: ["table_item_not_found"] },
    send: async (t) => {
      const table = t.needsFixture("table");
      const key = unlikelyKey(fixtureType(table.keyType, "keyType"));
      if (key === undefined) throw new CheckNotApplicable(`cannot make an absent key of type ${table.keyType}`);
      const res = await readItem(t, table, { json: { ...tableItemBody(table), key } });
      // The table may really hold this key; the table-less handle case still covers a node that finds everything.
      if (res.status === 200) throw new CheckNotApplicable(`the key ${JSON.stringify(key)} chosen as absent is present in the table`);
      return res;
    },
  },
  // Versions outside the window.
  {
    requirement: "4.2/future-version-rejected",
    variant: "X-NODE-LEDGER-VERSION + 1000000",
    must: CLIENT_ERROR_NOT_PRUNED,
    design: { status: 404, codes: ["version_not_found"] },
    send: async (t) => {
      const table = t.needsFixture("table");
      const { latest } = await currentWindow(t, table);
      const ahead = latest + 1_000_000n > U64_MAX ? U64_MAX : latest + 1_000_000n;
      return readItem(t, table, { ledgerVersion: ahead });
    },
  },
  {
    requirement: "4.2/future-version-rejected",
    variant: "2^64-1",
    must: CLIENT_ERROR_NOT_PRUNED,
    design: { status: 404, codes: ["version_not_found"] },
    send: (t) => readItem(t, t.needsFixture("table"), { ledgerVersion: U64_MAX }),
  },
  ...(["just below the oldest", "0"] as const).map(
    (variant): ErrorCase => ({
      requirement: "4.2/pruned-version-gone",
      variant: `ledger_version ${variant}`,
      must: { statuses: [410] },
      design: { status: 410, codes: ["version_pruned"] },
      send: async (t) => {
        const table = t.needsFixture("table");
        const { oldest } = await currentWindow(t, table);
        if (oldest === 0n) {
          throw new CheckNotApplicable(
            "X-NODE-LEDGER-OLDEST-VERSION is 0: the node has pruned nothing, so no version lies below the oldest",
          );
        }
        return readItem(t, table, { ledgerVersion: variant === "0" ? 0n : oldest - 1n });
      },
    }),
  ),
  // Malformed path and query values. Not "0x": a handle is written like an address (every leading zero
  // may be stripped, §2.1), and aptos-core reads 0x alone as 0x0.
  ...[
    { what: "not hex", handle: "0xzz" },
    { what: "longer than 32 bytes", handle: `0x1${"0".repeat(64)}` },
  ].map(
    ({ what, handle }): ErrorCase => ({
      requirement: "4.2/malformed-handle-rejected",
      variant: `table_handle ${what}`,
      must: CLIENT_ERROR,
      design: FRAMEWORK_400,
      send: (t) => readItem(t, anyTable(t), { handle }),
    }),
  ),
  ...[
    { what: "non-numeric", value: "ten" },
    { what: "negative", value: "-1" },
    { what: "above 2^64-1", value: (U64_MAX + 1n).toString() },
    { what: "fractional", value: "1.5" },
  ].map(
    ({ what, value }): ErrorCase => ({
      requirement: "4.2/malformed-ledger-version-rejected",
      variant: `ledger_version ${what}`,
      must: CLIENT_ERROR,
      design: FRAMEWORK_400,
      send: (t) => readItem(t, anyTable(t), { ledgerVersion: value }),
    }),
  ),
  // The body.
  {
    requirement: "4.2/body-required",
    variant: "no body, no Content-Type",
    must: CLIENT_ERROR,
    design: BODY_400,
    send: (t) => post(t, anyTable(t).handle, {}),
  },
  {
    requirement: "4.2/body-required",
    variant: "empty body, Content-Type application/json",
    must: CLIENT_ERROR,
    design: BODY_400,
    send: (t) => post(t, anyTable(t).handle, { body: "", contentType: "application/json" }),
  },
  ...[
    { what: "not JSON", body: '{"key_type": "u64", "value_type": "u64", "key": ' },
    { what: "a JSON array", body: '["u64", "u64", "1"]' },
    { what: "without key", body: '{"key_type": "u64", "value_type": "u64"}' },
    { what: "without key_type", body: '{"value_type": "u64", "key": "1"}' },
    { what: "key_type a number", body: '{"key_type": 5, "value_type": "u64", "key": "1"}' },
    { what: "value_type an object", body: '{"key_type": "u64", "value_type": {"type": "u64"}, "key": "1"}' },
  ].map(
    ({ what, body }): ErrorCase => ({
      requirement: "4.2/malformed-body-rejected",
      variant: `body ${what}`,
      must: CLIENT_ERROR,
      design: BODY_400,
      send: (t) => post(t, anyTable(t).handle, { body, contentType: "application/json" }),
    }),
  ),
  // Type tags and keys.
  ...[
    { variant: "key_type not a type", keyType: "not a type" },
    { variant: "key_type unclosed vector", keyType: "vector<u64" },
    { variant: "key_type struct without name", keyType: "0x1::table" },
  ].map(
    ({ variant, keyType }): ErrorCase => ({
      requirement: "4.2/invalid-type-rejected",
      variant,
      must: CLIENT_ERROR,
      design: INPUT_400,
      send: (t) => readItem(t, anyTable(t), { json: { ...PLAIN_REQUEST, key_type: keyType } }),
    }),
  ),
  {
    // The key is present, so a node that parses value_type only after finding the item still meets it.
    requirement: "4.2/invalid-type-rejected",
    variant: "value_type not a type, for a present key",
    must: CLIENT_ERROR,
    design: INPUT_400,
    send: (t) => {
      const table = t.needsFixture("table");
      return readItem(t, table, { json: { ...tableItemBody(table), value_type: "not a type" } });
    },
  },
  ...[
    { variant: "u64 key given as a boolean", keyType: "u64", key: true },
    { variant: "u64 key above 2^64-1", keyType: "u64", key: (U64_MAX + 1n).toString() },
    { variant: "u8 key 256", keyType: "u8", key: 256 },
    { variant: "address key not hex", keyType: "address", key: "0xzz" },
  ].map(
    ({ variant, keyType, key }): ErrorCase => ({
      requirement: "4.2/key-mismatch-rejected",
      variant,
      must: CLIENT_ERROR,
      design: INPUT_400,
      send: (t) => readItem(t, anyTable(t), { json: { ...PLAIN_REQUEST, key_type: keyType, key } }),
    }),
  ),
];

describeEndpoint("get_table_item", () => {
  check("4.2/item-found", async (t) => {
    const table = t.needsFixture("table");
    const res = await readItem(t, table);
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/json");
    expectValueOf(t, table.valueType, t.expectBodyMatchesSchema(res), res);
  });

  // Every MoveType form a table can use (§2.1), sent as a key or value type of a table that holds it:
  // the fixture's table and the fixtures' `tables`. A node that parses only the declared pattern's
  // forms (it omits u16, u32 and u256) refuses some of them.
  check("2.1/move-type-forms-read", async (t) => {
    const tables = [t.needsFixture("table"), ...(t.fixtures.tables ?? [])];
    const sent = new Set<TableTypeForm>();
    for (const table of tables) {
      const res = await readItem(t, table);
      t.expectStatus(res, 200);
      expectValueOf(t, table.valueType, res.json, res);
      typeFormsOf(fixtureType(table.keyType, "keyType"), sent);
      typeFormsOf(fixtureType(table.valueType, "valueType"), sent);
    }
    const unsent = TABLE_TYPE_FORMS.filter((form) => !sent.has(form));
    if (unsent.length > 0)
      throw new CheckNotApplicable(
        `no table of the fixtures (table, tables) has ${unsent.join(", ")} in its key or value type; the ${sent.size} forms sent were read`,
      );
  });

  check("4.2/item-at-ledger-version", async (t) => {
    const table = t.needsFixture("table");
    // The latest version at which the key was just read: present there, and inside the window.
    const { latest } = await currentWindow(t, table);
    const res = await readItem(t, table, { ledgerVersion: latest });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/json");
    expectValueOf(t, table.valueType, t.expectBodyMatchesSchema(res), res);
  });

  check("4.2/item-at-ledger-version", { variant: "before and at a known insert (fixture history.tableItemInserted)" }, async (t) => {
    const { fixture, at, before } = await knownChange(t, "tableItemInserted");
    const inserted = await readItem(t, fixture, { ledgerVersion: at });
    notApplicableIfPrunedSince(t, inserted, at);
    t.expectStatus(inserted, 200);
    expectValueOf(t, fixture.valueType, t.expectBodyMatchesSchema(inserted), inserted);
    // One version earlier the item did not exist yet: an answer from the latest state would have it.
    const earlier = await readItem(t, fixture, { ledgerVersion: before });
    notApplicableIfPrunedSince(t, earlier, before);
    t.expectError(earlier, 404, "table_item_not_found");
  });

  check("4.2/item-bcs", async (t) => {
    const table = t.needsFixture("table");
    const tag = fixtureType(table.valueType, "valueType");
    if (!selfDescribing(tag)) throw new CheckNotApplicable(`values of ${table.valueType} cannot be decoded without the struct's layout`);
    // Both forms at one explicit version, so a block committed in between changes neither.
    const { latest } = await currentWindow(t, table);
    const json = await readItem(t, table, { ledgerVersion: latest });
    t.expectStatus(json, 200);
    const bcs = await readItem(t, table, { ledgerVersion: latest, accept: "bcs" });
    t.expectStatus(bcs, 200);
    t.expectMediaType(bcs, "application/x-bcs");
    try {
      decodeMoveValue(tag, bcs.body);
    } catch (e) {
      t.fail(`the BCS body is exactly one value of ${table.valueType}`, bcs, (e as Error).message);
    }
    let fromJson: Uint8Array;
    try {
      fromJson = encodeMoveValue(tag, json.json);
    } catch (e) {
      return t.fail(`the JSON body is a value of ${table.valueType}`, json, (e as Error).message);
    }
    // Same value: the JSON form encodes to exactly the BCS body (address forms and the like aside).
    t.expectEqual(
      toHex(bcs.body),
      toHex(fromJson),
      `the BCS body = BCS of the JSON value ${JSON.stringify(json.json)} at ledger_version ${latest}`,
      bcs,
    );
  });

  check("4.2/window-versions-readable", async (t) => {
    const table = t.needsFixture("table");
    // The middle of the window has room to spare; the oldest version is the boundary a node may get wrong by one.
    /** Whether the read at `version` was readable, or refused as pruned when pruning had passed it since. */
    const expectReadable = async (res: HttpResponse, version: bigint): Promise<"read" | "pruned since"> => {
      if (res.status === 410) {
        const now = await currentWindow(t, table);
        t.expect(now.oldest > version, `410 only once ledger_version ${version} is below the oldest version (now ${now.oldest})`, res);
        return "pruned since";
      }
      t.expectStatus(res, 200, 404);
      if (res.status === 404 && errorCodeOf(res) === "version_not_found") {
        // Refused as unknown: wrong for a version still in the window, but a version pruning had passed
        // before the node answered is no longer in it, and its status is 4.2/pruned-version-gone's to judge.
        const now = await currentWindow(t, table);
        if (now.oldest > version) return "pruned since";
        t.fail(`version ${version}, inside the window (oldest now ${now.oldest}), is not reported as version_not_found`, res);
      }
      return "read";
    };
    const middle = versionAt(await currentWindow(t, table), 1n, 2n);
    await expectReadable(await readItem(t, table, { ledgerVersion: middle }), middle);
    for (let read = 1; ; read++) {
      // Pruning may pass the oldest version before the node answers, and then 410 is right: the new oldest
      // is read in turn (a node that refuses its own oldest version refuses it every time, and a pruner
      // seldom moves between two reads).
      const { oldest } = await currentWindow(t, table);
      if ((await expectReadable(await readItem(t, table, { ledgerVersion: oldest }), oldest)) === "read") return;
      if (read === BOUNDARY_READS) {
        throw new CheckSkipped(
          `pruning passed the oldest version before each of ${BOUNDARY_READS} reads of it: the boundary could not be read`,
        );
      }
    }
  });

  for (const c of ERROR_CASES) {
    check(c.requirement, { variant: c.variant }, async (t) => {
      const res = await c.send(t);
      if ("statuses" in c.must) t.expectStatus(res, ...c.must.statuses);
      else t.expectClientError(res, c.variant, { except: c.must.clientErrorExcept });
    });
    // A request without a body has an id of its own: aptos-core refuses it with 415 (7.1/unsupported-body-status).
    check(
      c.requirement === "4.2/body-required" ? "4.2/unsupported-body-400" : "4.2/case-error-codes",
      { variant: c.variant },
      async (t) => {
        const res = await c.send(t);
        t.expectError(res, c.design.status, ...c.design.codes);
      },
    );
  }
});
