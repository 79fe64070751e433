// JSON submission requests (§2.8, the family's convention) to signed transactions and back: every payload and
// signature variant round-trips, a hand-written request decodes to the SDK's bytes, and malformed
// members are rejected with a CodecError that names them.
import * as sdk from "@aptos-labs/ts-sdk";
import { describe, expect, it } from "vitest";
import {
  CodecError,
  decodeSignedTransaction,
  Ed25519Account,
  encodeSignedTransaction,
  signedTransactionFromJson,
  signedTransactionToJson,
  toHex,
  verifyTransactionAuthenticator,
  type AccountAuthenticatorInput,
  type FunctionParams,
  type SignedTransaction,
} from "../../src/codec/index.ts";
import { CHAIN_ID, keyBytes, legacyAccount, SDK_AUTHENTICATORS, SDK_PAYLOADS, sdkRawTransaction } from "./sdk-builders.ts";

const PARAMS: Record<string, string[]> = {
  "0x1::coin::transfer": ["address", "u64"],
  [`0x${"0".repeat(62)}ab::things::do_all`]: ["bool", "u8", "u128", "vector<u8>", "0x1::string::String", "0x1::option::Option<u64>"],
};
const functionParams: FunctionParams = (address, module, name) => PARAMS[`${address}::${module}::${name}`];
const options = { functionParams, chainId: CHAIN_ID };

/** The script of sdk-builders.ts: its parameters, for `code.abi`. */
const SCRIPT_PARAMS = ["&signer", "u8", "u16", "u32", "u64", "u128", "u256", "bool", "address", "vector<u8>", "0x1::string::String"];

/**
 * Script JSON carries no ABI and shows Serialized arguments as hex; a client sends the ABI and the
 * value itself (here the string "s" that the SDK's script passes as Serialized).
 */
function asClientWouldSendScript(json: Record<string, unknown>): Record<string, unknown> {
  const payload = json.payload as Record<string, unknown>;
  if (payload.type !== "script_payload") return json;
  const code = payload.code as Record<string, unknown>;
  const args = [...(payload.arguments as unknown[]).slice(0, -1), "s"];
  return { ...json, payload: { ...payload, arguments: args, code: { ...code, abi: { params: SCRIPT_PARAMS } } } };
}

const hasMultiKey = (json: unknown): boolean => JSON.stringify(json).includes("signatures_required");

describe("signedTransactionToJson / signedTransactionFromJson over the SDK's transactions", () => {
  for (const [payloadName, makePayload] of Object.entries(SDK_PAYLOADS)) {
    for (const [authName, sign] of Object.entries(SDK_AUTHENTICATORS)) {
      const made = sign(makePayload());
      const signed = decodeSignedTransaction(made.bytes);
      const json = signedTransactionToJson(signed, options);
      const convertsBack = !(payloadName === "payload_v1_without_nonce");

      it(`${payloadName} / ${authName}: JSON converts back to ${hasMultiKey(json) ? "an equivalent" : "the same"} transaction`, () => {
        if (!convertsBack) {
          // A V1 payload without nonce has no JSON form of its own: it comes back as the legacy payload.
          expect(signedTransactionFromJson(json, options).raw_txn.payload.$kind).toBe("EntryFunction");
          return;
        }
        const back = signedTransactionFromJson(asClientWouldSendScript(json), options);
        expect(signedTransactionToJson(back, options)).toEqual(json);
        if (hasMultiKey(json)) {
          // aptos-core rebuilds the multi-key bitmap from the indexes (one byte for up to 8 keys).
          expect(verifyTransactionAuthenticator(back).ok).toBe(made.verifiable);
        } else {
          expect(toHex(encodeSignedTransaction(back))).toBe(toHex(made.bytes));
        }
      });
    }
  }
});

describe("JSON members and order (the family's convention)", () => {
  const account = new Ed25519Account(keyBytes(70));
  const raw = decodeSignedTransaction(SDK_AUTHENTICATORS.ed25519!(SDK_PAYLOADS.entry_function!()).bytes).raw_txn;

  it("lists the request members in design order, u64s as strings, addresses in AIP-40 form", () => {
    const json = signedTransactionToJson(account.signTransaction({ ...raw, sender: account.address }), options);
    expect(Object.keys(json)).toEqual([
      "sender",
      "sequence_number",
      "max_gas_amount",
      "gas_unit_price",
      "expiration_timestamp_secs",
      "payload",
      "signature",
    ]);
    expect(json).toMatchObject({
      sender: toHex(account.address),
      sequence_number: "42",
      max_gas_amount: "200000",
      payload: {
        type: "entry_function_payload",
        function: "0x1::coin::transfer",
        type_arguments: ["0x1::aptos_coin::AptosCoin"],
        arguments: [`0x${"0".repeat(60)}cafe`, "1234"],
      },
      signature: { type: "ed25519_signature", public_key: toHex(account.publicKey) },
    });
  });

  it("puts replay_protection_nonce between payload and signature for orderless transactions", () => {
    const made = SDK_AUTHENTICATORS.ed25519!(SDK_PAYLOADS.orderless_entry_function!());
    const json = signedTransactionToJson(decodeSignedTransaction(made.bytes), options);
    expect(Object.keys(json).slice(-3)).toEqual(["payload", "replay_protection_nonce", "signature"]);
    expect(json.replay_protection_nonce).toBe("77");
  });

  it("decodes a hand-written request to exactly the bytes the SDK signed", () => {
    const sender = legacyAccount(71);
    const transaction = new sdk.SimpleTransaction(sdkRawTransaction(sender.accountAddress, SDK_PAYLOADS.entry_function!()));
    const authenticator = sender.signTransactionWithAuthenticator(transaction);
    const bytes = sdk.generateSignedTransaction({ transaction, senderAuthenticator: authenticator });
    const request = {
      sender: sender.accountAddress.toString(),
      sequence_number: "42",
      max_gas_amount: "200000",
      gas_unit_price: "100",
      expiration_timestamp_secs: "1900000000",
      payload: {
        type: "entry_function_payload",
        function: "0x1::coin::transfer",
        type_arguments: ["0x1::aptos_coin::AptosCoin"],
        arguments: ["0xcafe", "1234"],
      },
      signature: {
        type: "ed25519_signature",
        public_key: authenticator.public_key.toString(),
        signature: authenticator.signature.toString(),
      },
    };
    const signed = signedTransactionFromJson(request, options);
    expect(toHex(encodeSignedTransaction(signed))).toBe(toHex(bytes));
    expect(verifyTransactionAuthenticator(signed).ok).toBe(true);
  });

  it("decodes a hand-written fee-payer request with single-key signatures", () => {
    const made = SDK_AUTHENTICATORS.fee_payer!(SDK_PAYLOADS.entry_function!());
    const theirs = sdk.SignedTransaction.deserialize(new sdk.Deserializer(made.bytes));
    const auth = theirs.authenticator as sdk.TransactionAuthenticatorFeePayer;
    const sender = auth.sender as sdk.AccountAuthenticatorSingleKey;
    const payer = auth.fee_payer.authenticator as sdk.AccountAuthenticatorEd25519;
    const request = {
      ...signedTransactionToJson(decodeSignedTransaction(made.bytes), options),
      signature: {
        type: "fee_payer_signature",
        sender: {
          type: "single_key_signature",
          public_key: { type: "ed25519", value: sender.public_key.publicKey.toString() },
          signature: { type: "ed25519", value: sender.signature.signature.toString() },
        },
        secondary_signer_addresses: [],
        secondary_signers: [],
        fee_payer_address: auth.fee_payer.address.toString(),
        fee_payer_signer: { type: "ed25519_signature", public_key: payer.public_key.toString(), signature: payer.signature.toString() },
      },
    };
    expect(toHex(encodeSignedTransaction(signedTransactionFromJson(request, options)))).toBe(toHex(made.bytes));
  });

  it("maps module_bundle_payload to the ModuleBundle variant and no_account_signature to SingleSender(NoAccount)", () => {
    const base = signedTransactionToJson(account.signTransaction(raw), options);
    const signed = signedTransactionFromJson(
      { ...base, payload: { type: "module_bundle_payload" }, signature: { type: "no_account_signature" } },
      options,
    );
    expect(signed.raw_txn.payload.$kind).toBe("ModuleBundle");
    expect(signed.authenticator).toMatchObject({ SingleSender: { sender: { $kind: "NoAccountAuthenticator" } } });
  });

  it("turns replay_protection_nonce into the orderless payload, carrying a multisig address", () => {
    const base = signedTransactionToJson(account.signTransaction(raw), options);
    const signed = signedTransactionFromJson(
      { ...base, payload: { type: "multisig_payload", multisig_address: "0xbeef" }, replay_protection_nonce: "9" },
      options,
    );
    const payload = signed.raw_txn.payload;
    expect(payload.$kind).toBe("Payload");
    if (payload.$kind !== "Payload") return;
    expect(payload.Payload.V1.executable.$kind).toBe("Empty");
    expect(payload.Payload.V1.extra_config.V1.replay_protection_nonce).toBe(9n);
    expect(toHex(payload.Payload.V1.extra_config.V1.multisig_address!)).toBe(`0x${"0".repeat(60)}beef`);
  });
});

describe("single_sender carries every account signature kind", () => {
  const a = new Ed25519Account(keyBytes(80));
  const b = new Ed25519Account(keyBytes(81));
  const raw = decodeSignedTransaction(SDK_AUTHENTICATORS.ed25519!(SDK_PAYLOADS.entry_function!()).bytes).raw_txn;
  const message = new Uint8Array([1, 2, 3]);
  const senders: [string, AccountAuthenticatorInput][] = [
    ["ed25519", a.authenticator(message)],
    [
      "multi_ed25519",
      {
        MultiEd25519: {
          public_key: { public_keys: [a.publicKey, b.publicKey], threshold: 1 },
          signature: { signatures: [b.sign(message)], bitmap: Uint8Array.from([0x40, 0, 0, 0]) },
        },
      },
    ],
    ["single_key", { SingleKey: { public_key: { Ed25519: a.publicKey }, signature: { Ed25519: a.sign(message) } } }],
    [
      "multi_key",
      {
        MultiKey: {
          public_keys: { public_keys: [{ Ed25519: a.publicKey }, { Ed25519: b.publicKey }], signatures_required: 1 },
          signatures: [{ Ed25519: b.sign(message) }],
          signatures_bitmap: Uint8Array.from([0x40]),
        },
      },
    ],
    ["no_account", { NoAccountAuthenticator: true }],
    [
      "abstraction V1",
      {
        Abstraction: {
          function_info: { module_address: new Uint8Array(32).fill(2), module_name: "auth", function_name: "check" },
          auth_data: { V1: { signing_message_digest: new Uint8Array(32).fill(1), authenticator: Uint8Array.from([5, 6]) } },
        },
      },
    ],
  ];

  it.each(senders)("%s round-trips through JSON byte for byte", (_, sender) => {
    const bytes = encodeSignedTransaction({ raw_txn: raw, authenticator: { SingleSender: { sender } } });
    const json = signedTransactionToJson(decodeSignedTransaction(bytes), options);
    expect(toHex(encodeSignedTransaction(signedTransactionFromJson(json, options)))).toBe(toHex(bytes));
  });
});

describe("malformed requests are CodecErrors naming the member", () => {
  const account = new Ed25519Account(keyBytes(72));
  const made = SDK_AUTHENTICATORS.ed25519!(SDK_PAYLOADS.entry_function!());
  const good = signedTransactionToJson(decodeSignedTransaction(made.bytes), options) as Record<string, any>;
  const multiAgent = signedTransactionToJson(
    decodeSignedTransaction(SDK_AUTHENTICATORS.multi_agent!(SDK_PAYLOADS.entry_function!()).bytes),
    options,
  ) as Record<string, any>;
  const multiKey = signedTransactionToJson(
    decodeSignedTransaction(SDK_AUTHENTICATORS.multi_key!(SDK_PAYLOADS.entry_function!()).bytes),
    options,
  ) as Record<string, any>;
  void account;

  const cases: [string, unknown, RegExp][] = [
    ["a body that is not an object", [], /request body/],
    ["a missing sender", { ...good, sender: undefined }, /^sender: /],
    ["a short-form sender without 0x", { ...good, sender: "cafe" }, /^sender: /],
    ["a numeric sequence number", { ...good, sequence_number: 42 }, /^sequence_number: /],
    ["a u64 above 2^64-1", { ...good, max_gas_amount: "18446744073709551616" }, /^max_gas_amount: /],
    ["a negative u64", { ...good, gas_unit_price: "-1" }, /^gas_unit_price: /],
    ["a fractional u64", { ...good, expiration_timestamp_secs: "1.5" }, /^expiration_timestamp_secs: /],
    ["a bad nonce", { ...good, replay_protection_nonce: "x" }, /^replay_protection_nonce: /],
    ["an unknown payload type", { ...good, payload: { ...good.payload, type: "nope" } }, /^payload\.type: /],
    ["a malformed function id", { ...good, payload: { ...good.payload, function: "0x1::coin" } }, /^payload\.function: /],
    ["an unknown function", { ...good, payload: { ...good.payload, function: "0x1::coin::burn" } }, /^payload\.function: /],
    ["a bad type argument", { ...good, payload: { ...good.payload, type_arguments: ["u9"] } }, /^payload\.type_arguments\[0\]/],
    ["too few arguments", { ...good, payload: { ...good.payload, arguments: ["0x1"] } }, /^payload\.arguments: /],
    ["an argument of the wrong type", { ...good, payload: { ...good.payload, arguments: ["0x1", 5] } }, /^payload\.arguments\[1\]/],
    [
      "a script with arguments, no abi, and a bytecode that yields none",
      { ...good, payload: { type: "script_payload", code: { bytecode: "0x00" }, type_arguments: [], arguments: [1] } },
      /^payload\.code\.bytecode: /,
    ],
    [
      "a multisig inner payload of another type",
      { ...good, payload: { type: "multisig_payload", multisig_address: "0x1", transaction_payload: { type: "script_payload" } } },
      /^payload\.transaction_payload\.type: /,
    ],
    [
      "a module bundle with a nonce",
      { ...good, payload: { type: "module_bundle_payload" }, replay_protection_nonce: "1" },
      /^replay_protection_nonce: /,
    ],
    ["an unknown signature type", { ...good, signature: { type: "rsa" } }, /^signature\.type: /],
    ["a short public key", { ...good, signature: { ...good.signature, public_key: "0x01" } }, /^signature\.public_key: /],
    ["a non-hex signature", { ...good, signature: { ...good.signature, signature: "zz" } }, /^signature\.signature: /],
    [
      "secondary addresses and signers of different lengths",
      { ...multiAgent, signature: { ...multiAgent.signature, secondary_signer_addresses: [] } },
      /^signature: /,
    ],
    [
      "an unknown account signature type",
      { ...multiAgent, signature: { ...multiAgent.signature, sender: { type: "rsa" } } },
      /^signature\.sender\.type: /,
    ],
    [
      "an unknown public key type",
      {
        ...good,
        signature: { type: "single_sender", public_key: { type: "rsa", value: "0x00" }, signature: { type: "ed25519", value: "0x00" } },
      },
      /^signature\.public_key\.type: /,
    ],
    [
      "a single key of the wrong length",
      {
        ...good,
        signature: {
          type: "single_sender",
          public_key: { type: "ed25519", value: "0x00" },
          signature: { type: "ed25519", value: `0x${"00".repeat(64)}` },
        },
      },
      /^signature\.public_key: /,
    ],
    [
      "a multi-key index beyond the keys",
      { ...multiKey, signature: { ...multiKey.signature, signatures: [{ ...multiKey.signature.signatures[0], index: 9 }] } },
      /^signature\.signatures\[0\]\.index: /,
    ],
    [
      "a repeated multi-key index",
      {
        ...multiKey,
        signature: { ...multiKey.signature, signatures: [multiKey.signature.signatures[0], multiKey.signature.signatures[0]] },
      },
      /^signature\.signatures: /,
    ],
    [
      "a multi-ed25519 threshold above the keys",
      {
        ...multiAgent,
        signature: {
          ...multiAgent.signature,
          secondary_signers: [multiAgent.signature.secondary_signers[0], { ...multiAgent.signature.secondary_signers[1], threshold: 9 }],
        },
      },
      /^signature\.secondary_signers\[1\]/,
    ],
    [
      "abstraction auth data that is not BCS",
      { ...good, signature: { type: "single_sender", function_info: "0x1::a::b", auth_data: "0x09" } },
      /^signature\.auth_data: /,
    ],
  ];

  it.each(cases)("rejects %s", (_, body, member) => {
    let error: unknown;
    try {
      signedTransactionFromJson(body, options);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CodecError);
    expect((error as Error).message).toMatch(member);
  });

  it("never lets a non-CodecError escape on arbitrary JSON", async () => {
    const fc = (await import("fast-check")).default;
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        try {
          signedTransactionFromJson(value, options);
        } catch (e) {
          expect(e).toBeInstanceOf(CodecError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("signedTransactionToJson keeps untyped arguments readable", () => {
  it("shows the arguments of an unknown function as the hex of their BCS bytes", () => {
    const signed: SignedTransaction = decodeSignedTransaction(SDK_AUTHENTICATORS.ed25519!(SDK_PAYLOADS.entry_function!()).bytes);
    const json = signedTransactionToJson(signed, { functionParams: () => undefined });
    expect((json.payload as { arguments: unknown[] }).arguments).toEqual([`0x${"0".repeat(60)}cafe`, "0xd204000000000000"]);
  });
});
