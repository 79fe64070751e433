// The aptos profile behaves like aptos-core where the spec leaves a choice and where aptos-core deviates
// from it (src/node/http/profile.ts cites the source of each); the node profile stays the spec's node.

import { Readable } from "node:stream";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNode, type RunningNode } from "../../../src/node/index.ts";
import { ManualClock } from "../../../src/node/ledger/index.ts";
import { bcsBody, call, expectError, fixtureAccount, header, ledgerHeaders, postJson, signedTransfer, transferJson } from "./helpers.ts";

const APTOS = "X-APTOS-";
const APTOS_BCS = "application/x.aptos.signed_transaction+bcs";

let aptos: RunningNode;
let spec: RunningNode;

beforeAll(async () => {
  [aptos, spec] = await Promise.all([
    startNode({ profile: "aptos", clock: new ManualClock() }),
    startNode({ profile: "node", clock: new ManualClock() }),
  ]);
});

afterAll(async () => {
  await Promise.all([aptos?.close(), spec?.close()]);
});

const summaries = (node: RunningNode, address: string, query = "") => call(node.url, `/accounts/${address}/transaction_summaries${query}`);

describe("error objects", () => {
  it("carry vm_error_code: null in the aptos profile, and leave it out in the node profile", async () => {
    const missing = await call(aptos.url, "/accounts/0x1/module/no_such_module");
    expectError(missing, 404, "module_not_found", APTOS);
    expect(Object.keys(missing.json() as object)).toEqual(["message", "error_code", "vm_error_code"]);
    expect((missing.json() as { vm_error_code: unknown }).vm_error_code).toBeNull();
    const unrouted = await call(aptos.url, "/no/such/route");
    expect((unrouted.json() as { vm_error_code: unknown }).vm_error_code).toBeNull();

    const neutral = await call(spec.url, "/accounts/0x1/module/no_such_module");
    expectError(neutral, 404, "module_not_found");
    expect(neutral.json()).not.toHaveProperty("vm_error_code");
  });
});

describe("the 202 pending transaction", () => {
  it("ends with replay_protection_nonce: null in the aptos profile; the node profile leaves it out", async () => {
    const send = async (node: RunningNode) => {
      const signed = signedTransfer(node, fixtureAccount(node, 0), node.fixtures.accounts[1]?.address ?? "", 1n);
      const reply = await postJson(node.url, "/transactions", transferJson(signed));
      expect(reply.status, reply.text).toBe(202);
      return reply.json() as Record<string, unknown>;
    };
    const pending = await send(aptos);
    expect(Object.keys(pending)).toEqual([
      "hash",
      "sender",
      "sequence_number",
      "max_gas_amount",
      "gas_unit_price",
      "expiration_timestamp_secs",
      "payload",
      "signature",
      "replay_protection_nonce",
    ]);
    expect(pending.replay_protection_nonce).toBeNull();
    expect(await send(spec)).not.toHaveProperty("replay_protection_nonce");
  });
});

describe("the spec pages", () => {
  it("serve /spec.yaml as application/x-yaml, without ledger-state headers, in the aptos profile", async () => {
    for (const path of ["/spec", "/spec.yaml", "/spec.json"]) {
      const reply = await call(aptos.url, path);
      expect(reply.status).toBe(200);
      expect(header(reply, `${APTOS}LEDGER-VERSION`), path).toBeUndefined();
    }
    expect(header(await call(aptos.url, "/spec.yaml"), "content-type")).toBe("application/x-yaml");
    // Every other answer keeps them.
    ledgerHeaders(await call(aptos.url, "/estimate_gas_price"), APTOS);
  });

  it("keep the headers, and application/yaml, in the node profile", async () => {
    const yaml = await call(spec.url, "/spec.yaml");
    ledgerHeaders(yaml);
    expect(header(yaml, "content-type")).toBe("application/yaml; charset=utf-8");
  });
});

describe("addresses in paths", () => {
  const long = (node: RunningNode) => (node.fixtures.transactionsAccount as string).slice(2).padStart(64, "0");

  it("aptos profile: 0x and up to 64 digits ('0x' alone is 0x0), or 64 digits without 0x; '1' is refused", async () => {
    expect((await summaries(aptos, "0x")).status).toBe(200);
    expect((await call(aptos.url, "/accounts/0x/modules")).status).toBe(200);
    expect((await summaries(aptos, long(aptos))).json()).toEqual((await summaries(aptos, `0x${long(aptos)}`)).json());
    expectError(await summaries(aptos, "1"), 400, "web_framework_error", APTOS);
    expectError(await call(aptos.url, "/accounts/1/modules"), 400, "web_framework_error", APTOS);
    expectError(await summaries(aptos, `0x1${"0".repeat(64)}`), 400, "web_framework_error", APTOS);
  });

  it("node profile: the 0x prefix is optional in every form (§2.1), and '0x' alone has no digit", async () => {
    expect((await call(spec.url, "/accounts/1/modules")).status).toBe(200);
    expectError(await summaries(spec, "0x"), 400, "web_framework_error");
  });
});

describe("limit=0 on the summaries", () => {
  it("is an empty page in the aptos profile and 400 in the node profile (the modules listing: see integer query values)", async () => {
    const account = aptos.fixtures.transactionsAccount as string;
    const empty = await summaries(aptos, account, "?limit=0");
    expect(empty.status).toBe(200);
    expect(empty.json()).toEqual([]);
    expectError(await summaries(spec, account, "?limit=0"), 400, "web_framework_error");
  });
});

describe("summaries below the oldest retained version", () => {
  it("are what the pruner left in the aptos profile (410 in the node profile)", async () => {
    const account = aptos.fixtures.transactionsAccount as string;
    const oldest = ledgerHeaders(await call(aptos.url, "/-/healthy"), APTOS)["LEDGER-OLDEST-VERSION"];
    expect(oldest).toBeGreaterThan(0n);
    const scanned = await summaries(aptos, account, `?start_version=${oldest - 1n}&limit=5`);
    expect(scanned.status).toBe(200);
    expect(scanned.json()).toEqual((await summaries(aptos, account, `?start_version=${oldest}&limit=5`)).json());
    expect((scanned.json() as unknown[]).length).toBeGreaterThan(0);
    const ending = await summaries(aptos, account, `?end_version=${oldest - 1n}`);
    expect(ending.status).toBe(200);
    expect(ending.json()).toEqual([]);

    const specOldest = ledgerHeaders(await call(spec.url, "/-/healthy"))["LEDGER-OLDEST-VERSION"];
    expectError(
      await summaries(spec, spec.fixtures.transactionsAccount as string, `?start_version=${specOldest - 1n}`),
      410,
      "version_pruned",
    );
  });
});

describe("submission bodies the route does not take", () => {
  const signed = (node: RunningNode) =>
    bcsBody(signedTransfer(node, fixtureAccount(node, 2), node.fixtures.accounts[1]?.address ?? "", 1n));

  it("aptos profile: 415 for an unsupported or missing Content-Type, 411 without Content-Length", async () => {
    const post = (headers: Record<string, string>, body?: Uint8Array) =>
      call(aptos.url, "/transactions", { method: "POST", headers, body });
    expectError(await post({ "content-type": "application/octet-stream" }, signed(aptos)), 415, "web_framework_error", APTOS);
    expectError(await post({ "content-type": "text/plain" }, new TextEncoder().encode("{}")), 415, "web_framework_error", APTOS);
    expectError(await post({}), 415, "web_framework_error", APTOS);
    // A streamed body goes out chunked, with no Content-Length.
    const chunked = await request(`${aptos.url}/transactions`, {
      method: "POST",
      headers: { "content-type": APTOS_BCS },
      body: Readable.from([Buffer.from(signed(aptos))]),
    });
    const text = await chunked.body.text();
    expect(chunked.statusCode, text).toBe(411);
    expect(JSON.parse(text)).toMatchObject({ error_code: "web_framework_error", vm_error_code: null });
  });

  it("node profile: 400 for either, and a chunked body is read", async () => {
    expectError(
      await call(spec.url, "/transactions", {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: signed(spec),
      }),
      400,
      "web_framework_error",
    );
    const chunked = await request(`${spec.url}/transactions`, {
      method: "POST",
      headers: { "content-type": "application/x.node.signed_transaction+bcs" },
      body: Readable.from([Buffer.from(signed(spec))]),
    });
    const text = await chunked.body.text();
    expect(chunked.statusCode, text).toBe(202);
  });
});

describe("integer query values", () => {
  it("take a leading + in the aptos profile (Rust's integer FromStr), u64 and u16 limit alike; the node profile refuses it", async () => {
    const address = aptos.fixtures.accounts[0]?.address ?? "";
    const plain = await summaries(aptos, address, "?limit=2");
    // %2B: a bare + in a query string is a space.
    const signed = await summaries(aptos, address, "?limit=%2B2");
    expect(signed.status, signed.text).toBe(200);
    expect(signed.json()).toEqual(plain.json());
    const version = header(signed, `${APTOS}LEDGER-VERSION`);
    expect(version).toMatch(/^[0-9]+$/);
    expect((await call(aptos.url, `/accounts/0x1/module/coin?ledger_version=%2B${version}`)).status).toBe(200);
    expect((await call(aptos.url, "/accounts/0x1/modules?limit=%2B1")).status).toBe(200);
    expect((await call(aptos.url, "/-/healthy?duration_secs=%2B5")).status).toBe(200);
    // A sign alone, a minus and a doubled plus are not integers to Rust either.
    for (const bad of ["+", "-1", "++1", "+-1"])
      expectError(await summaries(aptos, address, `?limit=${encodeURIComponent(bad)}`), 400, "web_framework_error", APTOS);

    const specAddress = spec.fixtures.accounts[0]?.address ?? "";
    expectError(await summaries(spec, specAddress, "?limit=%2B2"), 400, "web_framework_error");
    expectError(await call(spec.url, "/accounts/0x1/module/coin?ledger_version=%2B5"), 400, "web_framework_error");
  });

  it("duration_secs of /-/healthy is a u32 in the aptos profile (2^32 is 400 web_framework_error; before the epoch 500), a u64 in the node profile", async () => {
    expect((await call(aptos.url, "/-/healthy?duration_secs=1073741824")).status).toBe(200);
    // Longer than the time since 1970: aptos-core's threshold has no time since the epoch, a 500.
    expectError(await call(aptos.url, "/-/healthy?duration_secs=4294967295"), 500, "internal_error", APTOS);
    expect((await call(spec.url, "/-/healthy?duration_secs=4294967295")).status).toBe(200);
    expectError(await call(aptos.url, "/-/healthy?duration_secs=4294967296"), 400, "web_framework_error", APTOS);
    expect((await call(spec.url, "/-/healthy?duration_secs=4294967296")).status).toBe(200);
    expectError(await call(spec.url, "/-/healthy?duration_secs=18446744073709551616"), 400, "web_framework_error");
  });

  it("limit=0 on the module listing is 400 invalid_input in the aptos profile, 400 web_framework_error in the node profile", async () => {
    expectError(await call(aptos.url, "/accounts/0x1/modules?limit=0"), 400, "invalid_input", APTOS);
    expectError(await call(spec.url, "/accounts/0x1/modules?limit=0"), 400, "web_framework_error");
  });
});

describe("module ABI structs", () => {
  it("carry is_enum (after is_event) and variants (after fields) in the aptos profile, as aptos-core's MoveStruct; not in the node profile", async () => {
    const read = async (node: RunningNode) => {
      const reply = await call(node.url, "/accounts/0x1/module/coin");
      expect(reply.status).toBe(200);
      return (reply.json() as { abi: { structs: Record<string, unknown>[] } }).abi.structs;
    };
    const structs = await read(aptos);
    expect(structs.length).toBeGreaterThan(0);
    for (const struct of structs) {
      expect(Object.keys(struct)).toEqual([
        "name",
        "is_native",
        "is_event",
        "is_enum",
        "abilities",
        "generic_type_params",
        "fields",
        "variants",
      ]);
      // The genesis modules define no enums.
      expect(struct.is_enum).toBe(false);
      expect(struct.variants).toEqual([]);
    }
    const plain = await read(spec);
    for (const struct of plain) expect(Object.keys(struct)).not.toContain("is_enum");
    expect(plain.map((s) => s.name)).toEqual(structs.map((s) => s.name));
  });
});
