// The genesis multisig account: a MultisigAccount (aptos-framework sources/multisig_account.move) of one
// owner, a funded account of the fixtures, with one approval required and MAX_PENDING_TRANSACTIONS
// proposals waiting, each approved by the owner and storing its payload on chain: a transfer of 100
// octas from the multisig account to the first funded account. Any owner may execute the next one with
// a multisig transaction, so a fixtures user can execute twenty before the account has none left.

import { bytesToHex } from "@noble/hashes/utils.js";
import { encodeMoveValue, formatAddress, parseAddress, parseTypeTag, sha3_256, type EntryFunction } from "../../../codec/index.ts";
import { proposalPayloadBytes } from "../multisig.ts";
import type { MultisigProposal, StateWrite } from "../state.ts";
import type { GenesisKeys } from "./keys.ts";

/** multisig_account.move MAX_PENDING_TRANSACTIONS: proposals an account may hold at once. */
const MAX_PENDING_TRANSACTIONS = 20n;
const PROPOSAL_AMOUNT = 100n;
/** multisig_account.move DOMAIN_SEPARATOR. */
const DOMAIN_SEPARATOR = new TextEncoder().encode("aptos_framework::multisig_account");
/** account.move DERIVE_RESOURCE_ACCOUNT_SCHEME. */
const DERIVE_RESOURCE_ACCOUNT_SCHEME = 255;

export interface GenesisMultisig {
  readonly address: Uint8Array;
  readonly owner: Uint8Array;
  readonly writes: readonly StateWrite[];
}

/**
 * The address multisig_account::create gives the owner's first multisig account: the resource address
 * (account.move `create_resource_address`: SHA3-256 of the owner, the seed and the scheme byte) of the
 * seed DOMAIN_SEPARATOR ‖ bcs(owner's sequence number 0).
 */
function multisigAddress(owner: Uint8Array): Uint8Array {
  const seed = [...DOMAIN_SEPARATOR, ...new Uint8Array(8)];
  return sha3_256(new Uint8Array([...owner, ...seed, DERIVE_RESOURCE_ACCOUNT_SCHEME]));
}

export function genesisMultisig(keys: GenesisKeys, balance: bigint): GenesisMultisig {
  const owner = (keys.funded.at(-1) ?? keys.transactions).address;
  const recipient = (keys.funded[0] ?? keys.transactions).address;
  const address = multisigAddress(owner);
  const transfer: EntryFunction = {
    module: { address: parseAddress("0x1"), name: "aptos_account" },
    function: "transfer",
    ty_args: [],
    args: [
      encodeMoveValue(parseTypeTag("address"), formatAddress(recipient)),
      encodeMoveValue(parseTypeTag("u64"), PROPOSAL_AMOUNT.toString()),
    ],
  };
  const proposal: MultisigProposal = { payload: proposalPayloadBytes(transfer), approvals: [bytesToHex(owner)] };
  const transactions = new Map<bigint, MultisigProposal>();
  for (let n = 1n; n <= MAX_PENDING_TRANSACTIONS; n++) transactions.set(n, proposal);
  return {
    address,
    owner,
    writes: [
      // A multisig account is a resource account: its authentication key is zero (multisig_account.move ZERO_AUTH_KEY).
      { kind: "account", address, value: { sequenceNumber: 0n, authenticationKey: new Uint8Array(32), balance } },
      {
        kind: "multisig",
        address,
        value: {
          owners: [bytesToHex(owner)],
          numSignaturesRequired: 1n,
          transactions,
          lastExecutedSequenceNumber: 0n,
          nextSequenceNumber: MAX_PENDING_TRANSACTIONS + 1n,
        },
      },
    ],
  };
}
