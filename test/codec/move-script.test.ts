// Move scripts in the binary format (src/codec/move-module/script.ts): a script the Aptos compiler wrote
// reads, the pass-through script the suite builds is written and read back the same, its ABI is the one
// aptos-core derives, and bytes that are not a script say why (MalformedModule).

import { describe, expect, it } from "vitest";
import {
  deserializeScript,
  fromHex,
  MalformedModule,
  parseAddress,
  passThroughCall,
  passThroughScript,
  scriptAbi,
  serializeScript,
  signedTransactionFromJson,
  signedTransactionToJson,
  type SignatureToken,
  toHex,
} from "../../src/codec/index.ts";
import { TWO_SIGNER_TRANSFER_SCRIPT } from "../../suites/support/payload-forms.ts";

// What the Aptos compiler (version 2, bytecode version 7) writes for a two-signer transfer script.
const COMPILED_TWO_SIGNER_TRANSFER = toHex(TWO_SIGNER_TRANSFER_SCRIPT);

const TRANSFER_PARAMS: SignatureToken[] = [{ kind: "reference", to: { kind: "signer" } }, { kind: "address" }, { kind: "u64" }];
const TRANSFER = { address: parseAddress("0x1"), module: "aptos_account", function: "transfer" };

describe("Move scripts", () => {
  it("reads a script the compiler wrote, and finds the call it passes its parameters to, its unused signer dropped", () => {
    const script = deserializeScript(fromHex(COMPILED_TWO_SIGNER_TRANSFER));
    expect(script.version).toBe(7);
    expect(script.identifiers).toContain("transfer");
    expect(script.code.map((i) => i.op)).toEqual(["move_loc", "move_loc", "pop", "move_loc", "move_loc", "call", "ret"]);
    expect(scriptAbi(script).params).toEqual(["&signer", "&signer", "address", "u64"]);
    expect(passThroughCall(script)).toEqual(TRANSFER);
    // Dropping anything but a signer would leave the call's arguments other than the script's.
    const popsAmount = { ...script, code: [...script.code.slice(0, 4), { op: "pop" as const }, ...script.code.slice(5)] };
    expect(passThroughCall(popsAmount)).toBeUndefined();
  });

  it("writes the pass-through script, reads it back the same, and finds its call", () => {
    const script = passThroughScript(TRANSFER, TRANSFER_PARAMS);
    const bytes = serializeScript(script);
    expect(Buffer.from(bytes.subarray(0, 8)).toString("hex")).toBe("a11ceb0b0700000a");
    const read = deserializeScript(bytes);
    expect(read).toEqual(script);
    expect(passThroughCall(read)).toEqual(TRANSFER);
    expect(scriptAbi(read)).toEqual({
      name: "main",
      visibility: "public",
      is_entry: true,
      is_view: false,
      generic_type_params: [],
      params: ["&signer", "address", "u64"],
      return: [],
    });
  });

  it("refuses bytes that are not a script", () => {
    const bytes = serializeScript(passThroughScript(TRANSFER, TRANSFER_PARAMS));
    expect(() => deserializeScript(bytes.subarray(0, bytes.length - 1))).toThrow(MalformedModule);
    expect(() => deserializeScript(new Uint8Array([...bytes, 0]))).toThrow(MalformedModule);
    const badMagic = new Uint8Array(bytes);
    badMagic[0] = 0;
    expect(() => deserializeScript(badMagic)).toThrow(MalformedModule);
    // A call to a function handle the script does not have.
    const badCall = serializeScript({ ...passThroughScript(TRANSFER, TRANSFER_PARAMS), code: [{ op: "call", handle: 3 }, { op: "ret" }] });
    expect(() => deserializeScript(badCall)).toThrow(MalformedModule);
  });

  it("converts a script payload's JSON arguments by the ABI its bytecode yields when the request gives none", () => {
    const bytecode = serializeScript(passThroughScript(TRANSFER, TRANSFER_PARAMS));
    const request = {
      sender: `0x${"ab".repeat(32)}`,
      sequence_number: "0",
      max_gas_amount: "2000",
      gas_unit_price: "100",
      expiration_timestamp_secs: "99",
      payload: {
        type: "script_payload",
        code: { bytecode: `0x${Buffer.from(bytecode).toString("hex")}` },
        type_arguments: [],
        arguments: ["0x2", "100"],
      },
      signature: { type: "ed25519_signature", public_key: `0x${"11".repeat(32)}`, signature: `0x${"22".repeat(64)}` },
    };
    const functionParams = () => undefined;
    const signed = signedTransactionFromJson(request, { chainId: 4, functionParams });
    const payload = signed.raw_txn.payload;
    expect(payload.$kind).toBe("Script");
    if (payload.$kind !== "Script") return;
    expect(payload.Script.args.map((a) => a.$kind)).toEqual(["Address", "U64"]);
    const json = signedTransactionToJson(signed, { functionParams }) as { payload: { code: { abi?: { params?: unknown } } } };
    expect(json.payload.code.abi?.params).toEqual(["&signer", "address", "u64"]);
  });
});
