// §4.4 Get one account module: GET /v1/accounts/{address}/module/{module_name}[?ledger_version=v]
// answers 200 with the module record of §2.4 (bytecode with its ABI), as JSON or BCS (§4), read at the
// given ledger version or the latest. 404 when there is no such module, 410 when the version was
// pruned (§4.4); the family's nodes give the error codes, the ABI member names and the Move magic.
//
// The module read is the fixtures' moduleAccount/moduleName; without fixtures, the first module the
// 0x1 listing returns. Versions come from the ledger headers of earlier answers, never constants.
// Every response is also checked by the harness against the observed-status contract.

import { ModuleBytecodeBcs, toHex } from "../src/codec/index.ts";
import { check, CheckNotApplicable, describeEndpoint, errorCodeOf, type CheckContext } from "../src/harness/index.ts";
import {
  ADDRESS_PATH_FORMS,
  MALFORMED_ADDRESSES,
  MALFORMED_U64,
  moduleUnderTest,
  sameAddress,
  type ModuleRecordJson,
  type ModuleUnderTest,
} from "./support/account-modules.ts";
import { knownChange } from "./support/known-history.ts";
import { expectAbisMatchBytecode } from "./support/module-abi.ts";
import { ledgerWindow, notApplicableIfPrunedSince, U64_MAX, versionAt, type LedgerWindow } from "./support/ledger-window.ts";

const MOVE_MAGIC = "0xa11ceb0b";

/** Versions above the latest: far ahead, and the largest u64 (where a node reading versions into a smaller type goes wrong). */
const FUTURE_VERSIONS: readonly { readonly variant: string; readonly version: (latest: bigint) => bigint }[] = [
  { variant: "latest + 10^9", version: (latest) => (latest + 1_000_000_000n > U64_MAX ? U64_MAX : latest + 1_000_000_000n) },
  { variant: "2^64-1", version: () => U64_MAX },
];

function modulePath(m: ModuleUnderTest, address = m.account): string {
  return `/accounts/${address}/module/${encodeURIComponent(m.name)}`;
}

/** A valid Move identifier that names no module: the module's name with a suffix. */
function missingModule(m: ModuleUnderTest): ModuleUnderTest {
  return { account: m.account, name: `${m.name}_no_such_module_9f3c` };
}

/** The module record at the latest version, and the ledger window its headers report. */
async function readModule(t: CheckContext): Promise<{ m: ModuleUnderTest; record: ModuleRecordJson; window: LedgerWindow }> {
  const m = await moduleUnderTest(t);
  const res = await t.request({ path: modulePath(m) });
  t.expectStatus(res, 200);
  const record = t.expectBodyMatchesSchema(res) as ModuleRecordJson;
  return { m, record, window: ledgerWindow(t, res) };
}

function requirePruned(t: CheckContext, window: LedgerWindow): void {
  if (window.oldest === 0n) throw new CheckNotApplicable(`nothing is pruned: ${t.headerName("LEDGER-OLDEST-VERSION")} is 0`);
}

describeEndpoint("get_account_module", () => {
  check("4.4/module-record", async (t) => {
    const m = await moduleUnderTest(t);
    const res = await t.request({ path: modulePath(m) });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/json");
    t.expectBodyMatchesSchema(res);
  });

  check("4.4/module-bcs", async (t) => {
    const { m, window } = await readModule(t);
    // Both forms at one version, so an upgrade in between cannot explain a difference.
    const query = { ledger_version: window.latest };
    const json = await t.request({ path: modulePath(m), query });
    t.expectStatus(json, 200);
    const record = t.expectBodyMatchesSchema(json) as ModuleRecordJson;
    const res = await t.request({ path: modulePath(m), query, accept: "bcs" });
    t.expectStatus(res, 200);
    t.expectMediaType(res, "application/x-bcs");
    const bytecode = t.decodeBcs(res, ModuleBytecodeBcs);
    t.expectEqual(
      toHex(bytecode),
      record.bytecode.toLowerCase(),
      `the BCS bytecode = the JSON bytecode at ledger_version=${window.latest}`,
      res,
    );
  });

  check("4.4/module-at-ledger-version", { variant: "the version the default answer reported" }, async (t) => {
    const { m, record, window } = await readModule(t);
    const res = await t.request({ path: modulePath(m), query: { ledger_version: window.latest } });
    t.expectStatus(res, 200);
    t.expectEqual(t.expectBodyMatchesSchema(res), record, `the record at ledger_version=${window.latest} = the default answer's`, res);
  });

  check("4.4/module-at-ledger-version", { variant: "the middle of the window" }, async (t) => {
    const { m, window } = await readModule(t);
    // Half a window away from the pruning edge: the pruner does not reach it between two requests.
    const res = await t.request({ path: modulePath(m), query: { ledger_version: versionAt(window, 1n, 2n) } });
    t.expectStatus(res, 200, 404);
    // A 404 says the module did not exist yet at that version; never that the version itself is unknown.
    if (res.status === 200) t.expectBodyMatchesSchema(res);
    else
      t.expect(
        errorCodeOf(res) !== "version_not_found",
        `version ${versionAt(window, 1n, 2n)}, inside the window, not reported as version_not_found`,
        res,
      );
  });

  check("4.4/module-at-ledger-version", { variant: "before and at a known publication (fixture history.modulePublished)" }, async (t) => {
    const { fixture, at, before } = await knownChange(t, "modulePublished");
    const m = { account: fixture.address, name: fixture.name };
    const published = await t.request({ path: modulePath(m), query: { ledger_version: at } });
    notApplicableIfPrunedSince(t, published, at);
    t.expectStatus(published, 200);
    const record = t.expectBodyMatchesSchema(published) as ModuleRecordJson;
    t.expectEqual(record.abi?.name, fixture.name, `the module read at ledger_version=${at} is ${fixture.name}`, published);
    // One version earlier the module did not exist yet: an answer from the latest state would have it.
    const earlier = await t.request({ path: modulePath(m), query: { ledger_version: before } });
    notApplicableIfPrunedSince(t, earlier, before);
    t.expectError(earlier, 404, "module_not_found");
  });

  for (const { variant, kind, form } of ADDRESS_PATH_FORMS) {
    check(kind === "unprefixed-short" ? "4.4/unprefixed-short-address" : "4.4/address-forms-equivalent", { variant }, async (t) => {
      const { m, window } = await readModule(t);
      const address = form(m.account);
      if (address === undefined) throw new CheckNotApplicable(`${m.account} has no leading zero to strip`);
      // Both at one version, so they read the same state.
      const query = { ledger_version: window.latest };
      const first = await t.request({ path: modulePath(m), query });
      t.expectStatus(first, 200);
      const res = await t.request({ path: modulePath(m, address), query });
      t.expectStatus(res, 200);
      t.expectEqual(t.expectBodyMatchesSchema(res), first.json, `the record for address ${address} = the record for ${m.account}`, res);
    });
  }

  check("4.4/missing-module-not-found", async (t) => {
    const m = await moduleUnderTest(t);
    const res = await t.request({ path: modulePath(missingModule(m)) });
    t.expectClientError(res, "a module the account does not hold");
  });

  check("4.4/pruned-version-gone", async (t) => {
    const { m, window } = await readModule(t);
    requirePruned(t, window);
    const res = await t.request({ path: modulePath(m), query: { ledger_version: window.oldest - 1n } });
    t.expectStatus(res, 410);
  });

  for (const { variant, version } of FUTURE_VERSIONS) {
    check("4.4/future-version-rejected", { variant }, async (t) => {
      const { m, window } = await readModule(t);
      const res = await t.request({ path: modulePath(m), query: { ledger_version: version(window.latest) } });
      t.expectClientError(res, `ledger_version ${variant}, above the latest, is not a pruned one`, { except: [410] });
    });
  }

  for (const { variant, value } of MALFORMED_ADDRESSES) {
    check("4.4/malformed-address-rejected", { variant }, async (t) => {
      const m = await moduleUnderTest(t);
      const res = await t.request({ path: modulePath(m, value) });
      t.expectClientError(res, `address ${variant}`);
    });
  }

  for (const { variant, value } of MALFORMED_U64) {
    check("4.4/malformed-ledger-version-rejected", { variant }, async (t) => {
      const m = await moduleUnderTest(t);
      const res = await t.request({ path: modulePath(m), query: { ledger_version: value } });
      t.expectClientError(res, `ledger_version ${variant}`);
    });
  }

  check("4.4/bytecode-magic", async (t) => {
    const m = await moduleUnderTest(t);
    const res = await t.request({ path: modulePath(m) });
    t.expectStatus(res, 200);
    // Read without the schema, which already demands the magic: this check says why it failed.
    const bytecode: unknown = (res.json as { bytecode?: unknown } | undefined)?.bytecode;
    const found = typeof bytecode === "string" ? `bytecode beginning ${bytecode.slice(0, 12)}` : `bytecode ${JSON.stringify(bytecode)}`;
    t.expect(
      typeof bytecode === "string" && bytecode.toLowerCase().startsWith(MOVE_MAGIC),
      `bytecode beginning with ${MOVE_MAGIC}`,
      res,
      found,
    );
  });

  check("4.4/abi-names-module", async (t) => {
    const m = await moduleUnderTest(t);
    const res = await t.request({ path: modulePath(m) });
    t.expectStatus(res, 200);
    const abi = (res.json as { abi?: { name?: unknown; address?: unknown } | null } | undefined)?.abi;
    // Optional members may be absent or null (§2.4; the family's convention: null counts as absent).
    if (abi === undefined || abi === null) throw new CheckNotApplicable("the record carries no abi (§2.4: optional)");
    t.expectEqual(abi.name, m.name, "abi.name", res);
    if (abi.address !== undefined && abi.address !== null) {
      t.expect(
        sameAddress(abi.address, m.account),
        `abi.address naming the account ${m.account}`,
        res,
        `abi.address ${JSON.stringify(abi.address)}`,
      );
    }
  });

  check("4.4/abi-matches-bytecode", async (t) => {
    const m = await moduleUnderTest(t);
    const res = await t.request({ path: modulePath(m) });
    t.expectStatus(res, 200);
    expectAbisMatchBytecode(t, [t.expectBodyMatchesSchema(res) as ModuleRecordJson], res, "words");
  });

  check("4.4/abi-lists-every-member", async (t) => {
    const m = await moduleUnderTest(t);
    const res = await t.request({ path: modulePath(m) });
    t.expectStatus(res, 200);
    expectAbisMatchBytecode(t, [t.expectBodyMatchesSchema(res) as ModuleRecordJson], res, "family");
  });

  check("4.4/error-codes", { variant: "missing module: module_not_found" }, async (t) => {
    const m = await moduleUnderTest(t);
    const res = await t.request({ path: modulePath(missingModule(m)) });
    t.expectError(res, 404, "module_not_found");
  });

  check("4.4/error-codes", { variant: "above the latest: version_not_found" }, async (t) => {
    const { m, window } = await readModule(t);
    const res = await t.request({ path: modulePath(m), query: { ledger_version: window.latest + 1_000_000_000n } });
    t.expectError(res, 404, "version_not_found");
  });

  check("4.4/error-codes", { variant: "below the oldest: version_pruned" }, async (t) => {
    const { m, window } = await readModule(t);
    requirePruned(t, window);
    const res = await t.request({ path: modulePath(m), query: { ledger_version: window.oldest - 1n } });
    t.expectError(res, 410, "version_pruned");
  });

  check("4.4/error-codes", { variant: "malformed address: web_framework_error" }, async (t) => {
    const m = await moduleUnderTest(t);
    const res = await t.request({ path: modulePath(m, "0xzz") });
    t.expectError(res, 400, "web_framework_error");
  });

  check("4.4/error-codes", { variant: "malformed ledger_version: web_framework_error" }, async (t) => {
    const m = await moduleUnderTest(t);
    const res = await t.request({ path: modulePath(m), query: { ledger_version: "abc" } });
    t.expectError(res, 400, "web_framework_error");
  });
});
