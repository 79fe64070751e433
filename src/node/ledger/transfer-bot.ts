// The transactions account's activity: signed 0x1::aptos_account::transfer transactions to a rotating
// set of recipients, every tenth one orderless (a replay-protection nonce instead of a sequence number),
// so summaries show both kinds. Genesis commits its history through it, and the engine keeps it going
// so the account always has recent transactions inside the pruning window.

import {
  encodeMoveValue,
  formatAddress,
  parseAddress,
  parseTypeTag,
  type Ed25519Account,
  type RawTransactionInput,
  type SignedTransaction,
  type TransactionPayloadInput,
} from "../../codec/index.ts";

/** The sequence number the Aptos SDK puts in an orderless transaction (the nonce is what counts). */
const ORDERLESS_SEQUENCE_NUMBER = 0xdeadbeefn;
const FRAMEWORK = parseAddress("0x1");
const ADDRESS = parseTypeTag("address");
const U64 = parseTypeTag("u64");

export interface TransferBotOptions {
  readonly chainId: number;
  readonly domain: string;
  readonly gasUnitPrice: bigint;
  /** How long each transaction stays valid. */
  readonly ttlSeconds: bigint;
}

export class TransferBot {
  private sent = 0;

  constructor(
    readonly account: Ed25519Account,
    private readonly recipients: readonly Uint8Array[],
    private readonly options: TransferBotOptions,
  ) {
    if (recipients.length === 0) throw new RangeError("TransferBot needs at least one recipient");
  }

  /** A bot that goes on from where this one is, independently. */
  copy(): TransferBot {
    const copy = new TransferBot(this.account, this.recipients, this.options);
    copy.sent = this.sent;
    return copy;
  }

  /** The next transfer, valid from chain time `nowSeconds`; `sequenceNumber` is the sender's next one. */
  next(sequenceNumber: bigint, nowSeconds: bigint): SignedTransaction {
    const n = this.sent++;
    const recipient = this.recipients[n % this.recipients.length] as Uint8Array;
    const amount = BigInt(1_000 + (n % 997));
    const call = {
      module: { address: FRAMEWORK, name: "aptos_account" },
      function: "transfer",
      ty_args: [],
      args: [encodeMoveValue(ADDRESS, formatAddress(recipient)), encodeMoveValue(U64, amount.toString())],
    };
    const orderless = n % 10 === 9;
    const payload: TransactionPayloadInput = orderless
      ? {
          Payload: {
            V1: {
              executable: { EntryFunction: call },
              extra_config: { V1: { multisig_address: null, replay_protection_nonce: BigInt(n) } },
            },
          },
        }
      : { EntryFunction: call };
    const raw: RawTransactionInput = {
      sender: this.account.address,
      sequence_number: orderless ? ORDERLESS_SEQUENCE_NUMBER : sequenceNumber,
      payload,
      max_gas_amount: 1_000n,
      gas_unit_price: this.options.gasUnitPrice,
      expiration_timestamp_secs: nowSeconds + this.options.ttlSeconds,
      chain_id: this.options.chainId,
    };
    return this.account.signTransaction(raw, this.options.domain);
  }
}
