// The payload forms of §2.8.1 beyond the entry function, built and signed with the codec for the checks
// of suites/submit-transaction-payload-forms.test.ts: a compiled Move script that transfers, a multisig
// payload with the transfer inside, and an orderless transfer (a replay-protection nonce in place of
// a sequence number: the u64 §2.8 shows between the payload and the signature).

import {
  fromHex,
  encodeMoveValue,
  parseAddress,
  parseTypeTag,
  passThroughScript,
  serializeScript,
  type EntryFunctionInput,
  type RawTransactionInput,
  type TransactionPayloadInput,
} from "../../src/codec/index.ts";
import { finish, MAX_GAS_AMOUNT, TRANSFER_AMOUNT, type BuiltTransaction, type SubmitSetup } from "./submission.ts";

/**
 * `script { fun main(sender: &signer, to: address, amount: u64) { 0x1::aptos_account::transfer(sender, to, amount) } }`
 * in the Move binary format (version 7, as aptos-core's compiler writes it by default): the module and
 * function handle of the call, the signatures [] and (&signer, address, u64), and the code move_loc 0,
 * move_loc 1, move_loc 2, call, ret.
 */
export const TRANSFER_SCRIPT: Uint8Array = serializeScript(
  passThroughScript({ address: parseAddress("0x1"), module: "aptos_account", function: "transfer" }, [
    { kind: "reference", to: { kind: "signer" } },
    { kind: "address" },
    { kind: "u64" },
  ]),
);

/**
 * `script { fun main(s1: &signer, _s2: &signer, to: address, amount: u64) { 0x1::aptos_account::transfer(s1, to, amount) } }`
 * as the Aptos compiler (version 2, bytecode version 7) writes it: a transfer that takes two signers, as
 * a transaction with a secondary signer needs. aptos-core gives an entry function exactly as many
 * signers as the transaction has (NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH otherwise, aptos-vm's
 * transaction_arg_validation.rs), and `transfer` takes one; the SDKs' multi-agent examples send this
 * script.
 */
export const TWO_SIGNER_TRANSFER_SCRIPT: Uint8Array = fromHex(
  "0xa11ceb0b0700000a0601000203020605080d071525083a40107a1f010200030201000104060c060c05030003060c0503083c53454c463e5f30" +
    "046d61696e0d6170746f735f6163636f756e74087472616e73666572ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff" +
    "000000000000000000000000000000000000000000000000000000000000000114636f6d70696c6174696f6e5f6d65746164617461090003322e30" +
    "03322e31000001070b000b01010b020b03110002",
);

/** TWO_SIGNER_TRANSFER_SCRIPT with the recipient and the amount as its arguments. */
export function twoSignerTransferPayload(setup: SubmitSetup, amount: bigint = TRANSFER_AMOUNT): TransactionPayloadInput {
  return {
    Script: { code: TWO_SIGNER_TRANSFER_SCRIPT, ty_args: [], args: [{ Address: parseAddress(setup.recipient) }, { U64: amount }] },
  };
}

/** A script payload: TRANSFER_SCRIPT with the recipient and the amount as its arguments. */
export function scriptTransferPayload(setup: SubmitSetup, amount: bigint = TRANSFER_AMOUNT): TransactionPayloadInput {
  return { Script: { code: TRANSFER_SCRIPT, ty_args: [], args: [{ Address: parseAddress(setup.recipient) }, { U64: amount }] } };
}

/** 0x1::aptos_account::transfer of TRANSFER_AMOUNT to the recipient, as an entry function. */
function transferCall(setup: SubmitSetup): EntryFunctionInput {
  return {
    module: { address: parseAddress("0x1"), name: "aptos_account" },
    function: "transfer",
    ty_args: [],
    args: [encodeMoveValue(parseTypeTag("address"), setup.recipient), encodeMoveValue(parseTypeTag("u64"), TRANSFER_AMOUNT.toString())],
  };
}

/** A multisig payload naming `multisigAddress`, with the transfer as its inner entry function. */
export function multisigTransferPayload(setup: SubmitSetup, multisigAddress: string): TransactionPayloadInput {
  return { Multisig: { multisig_address: parseAddress(multisigAddress), transaction_payload: { EntryFunction: transferCall(setup) } } };
}

/** Sequence number of an orderless transaction: ignored, set as the family's SDKs set it. */
export const ORDERLESS_SEQUENCE_NUMBER = 0xdeadbeefn;
/** Orderless transactions may expire at most 60 s ahead on the family's nodes. */
const ORDERLESS_TTL_SECONDS = 50n;

/** A random replay-protection nonce: a run never meets one of its own twice. */
export function randomNonce(): bigint {
  return BigInt(Math.floor(Math.random() * 2 ** 53)) + 1n;
}

/** An orderless transfer (TransactionPayload::Payload V1 with a nonce), expiring 50 s after the chain's now. */
export function buildOrderlessTransfer(setup: SubmitSetup, nonce: bigint): BuiltTransaction {
  const chainNow = setup.chainNowSeconds + BigInt(Math.floor((Date.now() - setup.readAtMs) / 1000));
  const raw: RawTransactionInput = {
    sender: setup.senderBytes,
    sequence_number: ORDERLESS_SEQUENCE_NUMBER,
    payload: {
      Payload: {
        V1: {
          executable: { EntryFunction: transferCall(setup) },
          extra_config: { V1: { multisig_address: null, replay_protection_nonce: nonce } },
        },
      },
    },
    max_gas_amount: MAX_GAS_AMOUNT,
    gas_unit_price: setup.gasUnitPrice,
    expiration_timestamp_secs: chainNow + ORDERLESS_TTL_SECONDS,
    chain_id: setup.chainId,
  };
  return finish(setup, raw, setup.sender.signTransaction(raw), ORDERLESS_SEQUENCE_NUMBER);
}
