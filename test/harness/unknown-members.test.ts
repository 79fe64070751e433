// Every object of the contract is open ("Objects" in schemas/openapi.yaml): a member a schema does not
// declare validates, and is listed per schema with its count; required members and the types of known
// members are still checked. Only the oneOf branch a value matched names its members.

import { describe, expect, it } from "vitest";
import { ApiContract } from "../../src/harness/openapi.ts";
import { MAX_DISTINCT_UNKNOWN_MEMBERS, MAX_UNKNOWN_MEMBER_LENGTH, UnknownMemberTally } from "../../src/harness/unknown-member-tally.ts";

const contract = ApiContract.load();
const JSON_MEDIA = "application/json";
const address = "0x1";
const hash = `0x${"ab".repeat(32)}`;

function judge(operation: string, status: number, body: unknown): { problems: string[] | undefined; unknown: string[] } {
  const declared = contract.operation(operation).response(status);
  if (declared === undefined) throw new Error(`${operation} declares no ${status}`);
  const tally = new UnknownMemberTally();
  const text = JSON.stringify(body);
  tally.addAll(declared.unknownMembers(JSON_MEDIA, { json: body, text }));
  return {
    problems: declared.validateBody(JSON_MEDIA, { json: body, text }),
    unknown: tally.seen().members.map((m) => `${m.schema}.${m.member} ${m.count}`),
  };
}

const summaries = [
  {
    sender: address,
    version: "7",
    transaction_hash: hash,
    replay_protector: { type: "sequence_number", sequence_number: "5", x_future: true },
    x_future: true,
  },
  {
    sender: address,
    version: "8",
    transaction_hash: hash,
    replay_protector: { type: "nonce", nonce: "9", sequence_number: "6" },
    x_future: true,
  },
];

const record = {
  bytecode: "0xa11ceb0b0600",
  abi: {
    address: "0x1",
    name: "coin",
    friends: [],
    exposed_functions: [
      {
        name: "transfer",
        visibility: "public",
        is_entry: true,
        is_view: false,
        generic_type_params: [{ constraints: [], x_future: 1 }],
        params: [],
        return: [],
        x_future: {},
      },
    ],
    structs: [
      {
        name: "Coin",
        is_native: false,
        is_event: false,
        is_enum: false,
        abilities: ["store"],
        generic_type_params: [],
        fields: [{ name: "value", type: "u64", x_future: true }],
      },
      { name: "Kind", is_native: false, is_enum: true, variants: [{ name: "A", fields: [] }], abilities: [], generic_type_params: [] },
    ],
    x_future: "later",
  },
  x_future: true,
};

describe("members the contract does not declare", () => {
  it("validate at every depth and are listed per schema: a list's elements and the replay protector variant each matched", () => {
    const { problems, unknown } = judge("get_account_transaction_summaries", 200, summaries);
    expect(problems).toEqual([]);
    expect(unknown).toEqual([
      "TransactionSummary.x_future 2",
      "NonceReplayProtector.sequence_number 1",
      "SequenceNumberReplayProtector.x_future 1",
    ]);
  });

  it("validate in a module record, its ABI, functions, type parameters, structs and fields (newer nodes' is_enum and variants)", () => {
    const { problems, unknown } = judge("get_account_module", 200, record);
    expect(problems).toEqual([]);
    expect(unknown).toEqual([
      "MoveStruct.is_enum 2",
      "MoveFunction.x_future 1",
      "MoveFunctionGenericTypeParam.x_future 1",
      "MoveModule.x_future 1",
      "MoveModuleBytecode.x_future 1",
      "MoveStruct.variants 1",
      "MoveStructField.x_future 1",
    ]);
  });

  it("validate in an error object, and null optional members are no members", () => {
    const { problems, unknown } = judge("get_account_module", 404, {
      message: "gone",
      error_code: "module_not_found",
      vm_error_code: null,
      x_future: true,
    });
    expect(problems).toEqual([]);
    expect(unknown).toEqual(["Error.x_future 1"]);
    expect(judge("get_account_module", 200, { bytecode: "0xa11ceb0b", abi: null }).unknown).toEqual([]);
  });

  it("do not excuse a missing required member or a known member of the wrong type, and a body that fails lists none", () => {
    const missing = judge("get_account_transaction_summaries", 200, [
      { sender: address, version: "7", hash, replay_protector: { type: "nonce", nonce: "9" } },
    ]);
    expect(missing.problems?.join("; ")).toMatch(/transaction_hash/);
    expect(missing.unknown).toEqual([]);
    const wrongType = judge("get_account_module", 200, {
      ...record,
      abi: { ...record.abi, structs: [{ ...record.abi.structs[0], is_event: "no" }] },
    });
    expect(wrongType.problems?.join("; ")).toMatch(/is_event must be boolean/);
    expect(judge("estimate_gas_price", 200, { gas_estimate: 100, x_future: true }).problems?.length).toBeGreaterThan(0);
    expect(judge("get_account_module", 404, { message: "gone", x_future: true }).problems?.join("; ")).toMatch(/error_code/);
  });

  it("are remembered by the body's text, apart for each schema: the same text under another schema is judged again", () => {
    const text = JSON.stringify({ gas_estimate: 100, deprioritized_gas_estimate: 50, prioritized_gas_estimate: 150, x_future: true });
    const body = () => ({ json: JSON.parse(text), text });
    const gas = contract.operation("estimate_gas_price").response(200);
    const error = contract.operation("estimate_gas_price").response(400) ?? contract.operation("get_account_modules").response(400);
    const expected = [{ schema: "GasEstimation", member: "x_future" }];
    expect(gas?.unknownMembers(JSON_MEDIA, body())).toEqual(expected);
    expect(gas?.unknownMembers(JSON_MEDIA, body()), "the second time, from what was remembered").toEqual(expected);
    expect(error?.unknownMembers(JSON_MEDIA, body()), "not an error object: nothing matched, nothing listed").toEqual([]);
    expect(gas?.unknownMembers(JSON_MEDIA, body())).toEqual(expected);
  });

  it("are bounded in a tally: so many distinct members, names cut, the rest counted as left out", () => {
    const tally = new UnknownMemberTally();
    for (let i = 0; i < MAX_DISTINCT_UNKNOWN_MEMBERS + 5; i++) tally.add({ schema: "Error", member: `m${i}` });
    tally.add({ schema: "Error", member: "m0", count: 3 });
    tally.add({ schema: "Error", member: "x".repeat(10_000) });
    const seen = tally.seen();
    expect(seen.members).toHaveLength(MAX_DISTINCT_UNKNOWN_MEMBERS);
    expect(seen.members[0]).toEqual({ schema: "Error", member: "m0", count: 4 });
    expect(seen.leftOut).toBe(6);
    const merged = new UnknownMemberTally();
    merged.merge({ members: [{ schema: "Error", member: "y".repeat(10_000), count: 2 }], leftOut: 1 });
    expect(merged.seen().members[0]?.member).toHaveLength(MAX_UNKNOWN_MEMBER_LENGTH + 1);
    expect(merged.seen().leftOut).toBe(1);
  });
});
