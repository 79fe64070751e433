// The JSON submission request (§2.8, the family's convention) to a SignedTransaction and back. Entry function
// arguments are typed by `functionParams` (the node knows its modules' ABIs); a request with
// `replay_protection_nonce` becomes the orderless payload (TransactionPayload::Payload V1), as Aptos does.
import { formatAddress } from "./address.ts";
import {
  decodeSignedTransaction,
  encodeSignedTransaction,
  type EntryFunction,
  type EntryFunctionInput,
  type Script,
  type SignedTransaction,
  type TransactionExecutable,
  type TransactionArgument,
  type TransactionPayload,
  type TransactionPayloadInput,
  type TypeTag,
} from "./bcs.ts";
import { asCodecError, CodecError } from "./errors.ts";
import { deserializeScript, scriptAbi, type MoveFunctionAbi } from "./move-module/index.ts";
import { fromHex, toHex } from "./hex.ts";
import { readAddress, readArray, readHex, readObject, readQualifiedName, readString, readU64, type JsonObject } from "./json-read.ts";
import { decodeMoveValue, encodeMoveValue, type StructResolver } from "./move.ts";
import { transactionAuthenticatorFromJson, transactionAuthenticatorToJson } from "./signature-json.ts";
import { formatTypeTag, parseTypeTag } from "./type-tag.ts";

/**
 * MoveType strings of an entry function's parameters without its leading signer parameters (they may
 * use T0, T1, … for its type arguments), or undefined when there is no such function.
 * `moduleAddress` is in formatAddress form (0x1, or 0x + 64 digits).
 */
export type FunctionParams = (moduleAddress: string, moduleName: string, functionName: string) => readonly string[] | undefined;

export interface JsonConversionOptions {
  functionParams: FunctionParams;
  /** Fields of structs passed by value (beyond String, Option and Object, which are built in). */
  resolveStruct?: StructResolver;
}

// ---- JSON to BCS ----

function typeArgumentsFromJson(value: unknown, path: string): TypeTag[] {
  return readArray(value, path).map((t, i) => asCodecError(`${path}[${i}]`, () => parseTypeTag(readString(t, `${path}[${i}]`))));
}

function entryFunctionFromJson(object: JsonObject, path: string, options: JsonConversionOptions): EntryFunctionInput {
  const { address, module, name } = readQualifiedName(object.function, `${path}.function`);
  const ty_args = typeArgumentsFromJson(object.type_arguments, `${path}.type_arguments`);
  const args = readArray(object.arguments, `${path}.arguments`);
  const params = options.functionParams(formatAddress(address), module, name);
  if (!params) throw new CodecError(`${path}.function: unknown entry function ${String(object.function)}`);
  if (params.length !== args.length)
    throw new CodecError(`${path}.arguments: ${String(object.function)} takes ${params.length} arguments, got ${args.length}`);
  const encoded = args.map((arg, i) =>
    asCodecError(`${path}.arguments[${i}]`, () =>
      encodeMoveValue(parseTypeTag(params[i] ?? "", { generics: ty_args }), arg, options.resolveStruct),
    ),
  );
  return { module: { address, name: module }, function: name, ty_args, args: encoded };
}

/** Script parameters come from `code.abi.params` (signer parameters first, skipped). */
function scriptArgumentFromJson(type: TypeTag, value: unknown, options: JsonConversionOptions): typeof TransactionArgument.$inferInput {
  const bytes = encodeMoveValue(type, value, options.resolveStruct);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (type.$kind) {
    case "U8":
      return { U8: view.getUint8(0) };
    case "U16":
      return { U16: view.getUint16(0, true) };
    case "U32":
      return { U32: view.getUint32(0, true) };
    case "U64":
      return { U64: BigInt(value as string) };
    case "U128":
      return { U128: BigInt(value as string) };
    case "U256":
      return { U256: BigInt(value as string) };
    case "Bool":
      return { Bool: value as boolean };
    case "Address":
      return { Address: bytes };
    case "Vector":
      if (type.Vector.$kind === "U8") return { U8Vector: fromHex(value as string) };
      return { Serialized: bytes };
    default:
      return { Serialized: bytes };
  }
}

function scriptFromJson(object: JsonObject, path: string, options: JsonConversionOptions) {
  const code = readObject(object.code, `${path}.code`);
  const bytecode = readHex(code.bytecode, `${path}.code.bytecode`);
  const ty_args = typeArgumentsFromJson(object.type_arguments, `${path}.type_arguments`);
  const args = readArray(object.arguments, `${path}.arguments`);
  // As aptos-core (api/types/src/convert.rs `try_into_script_payload` over MoveScriptBytecode::try_parse_abi):
  // the ABI given, else the one the bytecode yields; without either the script is invalid input.
  let params: string[] = [];
  if (args.length > 0) {
    const given =
      code.abi === undefined || code.abi === null
        ? abiOfScript(bytecode)?.params
        : readArray(readObject(code.abi, `${path}.code.abi`).params, `${path}.code.abi.params`);
    if (given === undefined) throw new CodecError(`${path}.code.bytecode: invalid transaction script bytecode (no ABI could be read)`);
    params = given.map((p, i) => readString(p, `${path}.code.abi.params[${i}]`)).filter((p) => !/^&?\s*signer$/.test(p.trim()));
  }
  if (params.length !== args.length)
    throw new CodecError(`${path}.arguments: the script takes ${params.length} arguments, got ${args.length}`);
  const converted = args.map((arg, i) =>
    asCodecError(`${path}.arguments[${i}]`, () =>
      scriptArgumentFromJson(parseTypeTag(params[i] ?? "", { generics: ty_args }), arg, options),
    ),
  );
  return { code: bytecode, ty_args, args: converted };
}

function payloadFromJson(value: unknown, nonce: bigint | undefined, options: JsonConversionOptions): TransactionPayloadInput {
  const path = "payload";
  const object = readObject(value, path);
  const type = readString(object.type, `${path}.type`);
  const orderless = (
    executable: typeof TransactionExecutable.$inferInput,
    multisigAddress: Uint8Array | null,
  ): TransactionPayloadInput => ({
    Payload: {
      V1: {
        executable,
        extra_config: { V1: { multisig_address: multisigAddress, replay_protection_nonce: nonce } },
      },
    },
  });
  switch (type) {
    case "entry_function_payload": {
      const entry = entryFunctionFromJson(object, path, options);
      return nonce === undefined ? { EntryFunction: entry } : orderless({ EntryFunction: entry }, null);
    }
    case "script_payload": {
      const script = scriptFromJson(object, path, options);
      return nonce === undefined ? { Script: script } : orderless({ Script: script }, null);
    }
    case "multisig_payload": {
      const multisigAddress = readAddress(object.multisig_address, `${path}.multisig_address`);
      let inner: EntryFunctionInput | null = null;
      if (object.transaction_payload !== undefined && object.transaction_payload !== null) {
        const innerPath = `${path}.transaction_payload`;
        const innerObject = readObject(object.transaction_payload, innerPath);
        const innerType = readString(innerObject.type, `${innerPath}.type`);
        if (innerType !== "entry_function_payload")
          throw new CodecError(`${innerPath}.type: expected entry_function_payload, got ${JSON.stringify(innerType)}`);
        inner = entryFunctionFromJson(innerObject, innerPath, options);
      }
      if (nonce !== undefined) return orderless(inner ? { EntryFunction: inner } : { Empty: true }, multisigAddress);
      return { Multisig: { multisig_address: multisigAddress, transaction_payload: inner ? { EntryFunction: inner } : null } };
    }
    case "module_bundle_payload":
      if (nonce !== undefined) throw new CodecError("replay_protection_nonce: not allowed with module_bundle_payload");
      return { ModuleBundle: { dummy_value: 0n } };
    default:
      throw new CodecError(`${path}.type: unknown payload type ${JSON.stringify(type)}`);
  }
}

/** A JSON submission request to the signed transaction it describes. Throws CodecError naming the bad member. */
export function signedTransactionFromJson(json: unknown, options: JsonConversionOptions & { chainId: number }): SignedTransaction {
  const body = readObject(json, "request body");
  const nonce = body.replay_protection_nonce == null ? undefined : readU64(body.replay_protection_nonce, "replay_protection_nonce");
  const signed = {
    raw_txn: {
      sender: readAddress(body.sender, "sender"),
      sequence_number: readU64(body.sequence_number, "sequence_number"),
      payload: payloadFromJson(body.payload, nonce, options),
      max_gas_amount: readU64(body.max_gas_amount, "max_gas_amount"),
      gas_unit_price: readU64(body.gas_unit_price, "gas_unit_price"),
      expiration_timestamp_secs: readU64(body.expiration_timestamp_secs, "expiration_timestamp_secs"),
      chain_id: options.chainId,
    },
    authenticator: transactionAuthenticatorFromJson(body.signature, "signature"),
  };
  return decodeSignedTransaction(encodeSignedTransaction(signed));
}

// ---- BCS to JSON ----

/** Arguments of an unknown function (or that do not fit its parameters) are shown as the hex of their BCS bytes. */
function entryFunctionToJson(entry: EntryFunction, options: Pick<JsonConversionOptions, "functionParams" | "resolveStruct">) {
  const address = formatAddress(entry.module.address);
  const params = options.functionParams(address, entry.module.name, entry.function);
  const typed = params && params.length === entry.args.length ? params : undefined;
  const argument = (bytes: Uint8Array, i: number): unknown => {
    if (!typed) return toHex(bytes);
    try {
      return decodeMoveValue(parseTypeTag(typed[i] ?? "", { generics: entry.ty_args }), bytes, options.resolveStruct);
    } catch (error) {
      if (error instanceof CodecError) return toHex(bytes);
      throw error;
    }
  };
  return {
    type: "entry_function_payload",
    function: `${address}::${entry.module.name}::${entry.function}`,
    type_arguments: entry.ty_args.map(formatTypeTag),
    arguments: entry.args.map(argument),
  };
}

function scriptArgumentToJson(arg: TransactionArgument): unknown {
  switch (arg.$kind) {
    case "U8":
      return arg.U8;
    case "U16":
      return arg.U16;
    case "U32":
      return arg.U32;
    case "U64":
      return arg.U64.toString();
    case "U128":
      return arg.U128.toString();
    case "U256":
      return arg.U256.toString();
    case "Bool":
      return arg.Bool;
    case "Address":
      return formatAddress(arg.Address);
    case "U8Vector":
      return toHex(arg.U8Vector);
    case "Serialized":
      return toHex(arg.Serialized);
  }
}

/** The ABI of a script's bytecode, or undefined when this codec cannot read it. */
function abiOfScript(bytecode: Uint8Array): MoveFunctionAbi | undefined {
  try {
    return scriptAbi(deserializeScript(bytecode));
  } catch (error) {
    if (error instanceof CodecError) return undefined;
    throw error;
  }
}

/** `code.abi` is the one the bytecode yields (as aptos-core's try_parse_abi), absent when it cannot be read. */
function scriptToJson(script: Script) {
  const abi = abiOfScript(script.code);
  return {
    type: "script_payload",
    code: { bytecode: toHex(script.code), ...(abi === undefined ? {} : { abi }) },
    type_arguments: script.ty_args.map(formatTypeTag),
    arguments: script.args.map(scriptArgumentToJson),
  };
}

function payloadToJson(payload: TransactionPayload, options: Pick<JsonConversionOptions, "functionParams" | "resolveStruct">) {
  switch (payload.$kind) {
    case "EntryFunction":
      return { payload: entryFunctionToJson(payload.EntryFunction, options) };
    case "Script":
      return { payload: scriptToJson(payload.Script) };
    case "ModuleBundle":
      return { payload: { type: "module_bundle_payload" } };
    case "Multisig": {
      const { multisig_address, transaction_payload } = payload.Multisig;
      return { payload: multisigToJson(multisig_address, transaction_payload ? transaction_payload.EntryFunction : null, options) };
    }
    case "Payload": {
      const { executable, extra_config } = payload.Payload.V1;
      const { multisig_address, replay_protection_nonce } = extra_config.V1;
      const nonce = replay_protection_nonce === null ? {} : { replay_protection_nonce: replay_protection_nonce.toString() };
      if (multisig_address) {
        if (executable.$kind === "Script") throw new CodecError("payload: a multisig payload cannot carry a script");
        const inner = executable.$kind === "EntryFunction" ? executable.EntryFunction : null;
        return { payload: multisigToJson(multisig_address, inner, options), ...nonce };
      }
      if (executable.$kind === "EntryFunction") return { payload: entryFunctionToJson(executable.EntryFunction, options), ...nonce };
      if (executable.$kind === "Script") return { payload: scriptToJson(executable.Script), ...nonce };
      throw new CodecError("payload: an empty executable without a multisig address has no JSON form");
    }
  }
}

function multisigToJson(
  address: Uint8Array,
  inner: EntryFunction | null,
  options: Pick<JsonConversionOptions, "functionParams" | "resolveStruct">,
) {
  return {
    type: "multisig_payload",
    multisig_address: formatAddress(address),
    ...(inner ? { transaction_payload: entryFunctionToJson(inner, options) } : {}),
  };
}

/** The JSON submission request of a signed transaction, members in the family's order (no chain id: JSON has none). */
export function signedTransactionToJson(signed: SignedTransaction, options: JsonConversionOptions): JsonObject {
  const raw = signed.raw_txn;
  return {
    sender: formatAddress(raw.sender),
    sequence_number: raw.sequence_number.toString(),
    max_gas_amount: raw.max_gas_amount.toString(),
    gas_unit_price: raw.gas_unit_price.toString(),
    expiration_timestamp_secs: raw.expiration_timestamp_secs.toString(),
    ...payloadToJson(raw.payload, options),
    signature: transactionAuthenticatorToJson(signed.authenticator),
  };
}
