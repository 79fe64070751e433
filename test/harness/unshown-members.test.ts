// The members the spec leaves unnamed (§2.3–§2.6) are read by the family's names, else found by type.

import { describe, expect, it } from "vitest";
import { responseFromParts } from "../../src/harness/http-client.ts";
import { withFamilyNames } from "../../src/harness/unshown-members.ts";

const CODES = ["version_pruned", "invalid_input"];

function answer(status: number, body: unknown) {
  return responseFromParts({
    request: { method: "GET", url: "http://127.0.0.1/v1/x", headers: {} },
    status,
    headers: { "content-type": "application/json" },
    body: new TextEncoder().encode(JSON.stringify(body)),
    durationMs: 1,
    curl: "curl http://127.0.0.1/v1/x",
  });
}

describe("withFamilyNames", () => {
  it("leaves an answer with the family's names as it is", () => {
    const res = answer(410, { message: "gone", error_code: "version_pruned", vm_error_code: null });
    const named = withFamilyNames("get_account_module", res, CODES);
    expect(named.response).toBe(res);
    expect(named.foundByType).toEqual([]);
    expect(withFamilyNames("healthy", answer(200, { message: "ok" }), CODES).foundByType).toBeUndefined();
    // No member under either name: nothing to judge the names by.
    expect(withFamilyNames("estimate_gas_price", answer(200, {}), CODES).foundByType).toBeUndefined();
  });

  it("finds the error code by its §7.2 value and the message as the other string", () => {
    const named = withFamilyNames("get_account_module", answer(410, { detail: "gone", code: "version_pruned" }), CODES);
    expect(named.response.json).toMatchObject({ error_code: "version_pruned", message: "gone", code: "version_pruned" });
    expect(named.foundByType).toEqual(['error_code as "code"', 'message as "detail"']);
  });

  it("finds no error code where no member holds a §7.2 value, nor a member two strings could be", () => {
    expect(
      withFamilyNames("healthy", answer(503, { detail: "x", code: "VERSION_PRUNED" }), CODES).response.json.error_code,
    ).toBeUndefined();
    expect(withFamilyNames("healthy", answer(503, { a: "x", b: "y", code: "invalid_input" }), CODES).response.json.message).toBeUndefined();
  });

  it("finds a summary's version and sender, a record's bytecode and the regular estimate by type", () => {
    const summaries = answer(200, [
      { account: "0x1", txn_version: "7", transaction_hash: `0x${"ab".repeat(32)}`, replay_protector: { type: "sequence_number" } },
    ]);
    expect(withFamilyNames("get_account_transaction_summaries", summaries, CODES).response.json[0]).toMatchObject({
      sender: "0x1",
      version: "7",
    });
    expect(withFamilyNames("get_account_modules", answer(200, [{ code: "0xa11ceb0b", abi: {} }]), CODES).response.json[0].bytecode).toBe(
      "0xa11ceb0b",
    );
    const gas = answer(200, { deprioritized_gas_estimate: 100, regular: 150, prioritized_gas_estimate: 200 });
    expect(withFamilyNames("estimate_gas_price", gas, CODES).response.json.gas_estimate).toBe(150);
  });

  it("finds the names of an ABI, its functions and its structs, and leaves the fields' shown names alone", () => {
    const record = {
      bytecode: "0xa11ceb0b",
      abi: {
        address: "0x1",
        module_name: "coin",
        exposed_functions: [{ fn: "transfer", visibility: "public", generic_type_params: [] }],
        structs: [{ struct_name: "Coin", abilities: ["store"], generic_type_params: [], fields: [{ name: "value", type: "u64" }] }],
      },
    };
    const named = withFamilyNames("get_account_module", answer(200, record), CODES);
    expect(named.response.json.abi.name).toBe("coin");
    expect(named.response.json.abi.exposed_functions[0].name).toBe("transfer");
    expect(named.response.json.abi.structs[0].name).toBe("Coin");
    expect(named.response.json.abi.structs[0].fields).toEqual([{ name: "value", type: "u64" }]);
    expect(named.foundByType).toEqual(['name as "module_name"', 'name as "fn"', 'name as "struct_name"']);
  });
});
