// BCS forms of 200 bodies, with the codec's read-response types: aptos-core's layouts (the family's convention; the
// codec cites the aptos-core source of each), in both profiles.

import {
  AccountResourceBcs,
  encodeBcs,
  GasEstimationBcs,
  HealthBcs,
  IndexResponseBcs,
  ModuleBytecodeBcs,
  moduleIdString,
  ModuleMapBcs,
  TransactionDataBcs,
  type TransactionDataBcsInput,
  TransactionSummaryListBcs,
} from "../../codec/index.ts";
import type {
  AccountInfo,
  AddressBytes,
  ExecutionStatus,
  GasEstimate,
  LedgerInfo,
  ModuleRecord,
  TransactionByHash,
  TransactionSummary,
} from "../ledger/api.ts";

/** The bytecode as it is, no length prefix. */
export function moduleBcs(record: ModuleRecord): Uint8Array {
  return encodeBcs(ModuleBytecodeBcs, record.bytecode);
}

/** The page as a map from module id string to bytecode, in the map's (key bytes) order. */
export function moduleListBcs(address: AddressBytes, records: readonly ModuleRecord[]): Uint8Array {
  return encodeBcs(
    ModuleMapBcs,
    records.map((record) => ({ key: moduleIdString(address, record.abi.name), value: record.bytecode })),
  );
}

export function transactionSummariesBcs(summaries: readonly TransactionSummary[]): Uint8Array {
  return encodeBcs(
    TransactionSummaryListBcs,
    summaries.map((summary) => ({
      V1: {
        sender: summary.sender,
        version: summary.version,
        transaction_hash: summary.hash,
        replay_protector:
          summary.replayProtector.type === "sequence_number"
            ? { SequenceNumber: summary.replayProtector.sequenceNumber }
            : { Nonce: summary.replayProtector.nonce },
      },
    })),
  );
}

export function gasEstimateBcs(estimate: GasEstimate): Uint8Array {
  return encodeBcs(GasEstimationBcs, {
    deprioritized_gas_estimate: estimate.deprioritized,
    gas_estimate: estimate.market,
    prioritized_gas_estimate: estimate.prioritized,
  });
}

export function healthBcs(message: string): Uint8Array {
  return encodeBcs(HealthBcs, { message });
}

/**
 * The account as aptos-core's 0x1::account::Account resource. The node keeps no events, so the GUID
 * counter and the two event handles are those of an account that has emitted none, as aptos-core
 * builds one (core_account.rs `new_stateless`: creation numbers 0 and 1, next 2), and no capability
 * is offered.
 */
export function accountBcs(address: AddressBytes, account: AccountInfo): Uint8Array {
  const handle = (creationNum: bigint) => ({ counter: 0n, guid: { id: { creation_num: creationNum, addr: address } } });
  return encodeBcs(AccountResourceBcs, {
    authentication_key: account.authenticationKey,
    sequence_number: account.sequenceNumber,
    guid_creation_num: 2n,
    coin_register_events: handle(0n),
    key_rotation_events: handle(1n),
    rotation_capability_offer: null,
    signer_capability_offer: null,
  });
}

/** GET /v1 as aptos-core's IndexResponseBcs (api/src/index.rs answers it for Accept: application/x-bcs); the node is a full node. */
export function ledgerInfoBcs(info: LedgerInfo): Uint8Array {
  return encodeBcs(IndexResponseBcs, {
    chain_id: info.chainId,
    epoch: info.epoch.toString(),
    ledger_version: info.ledgerVersion.toString(),
    oldest_ledger_version: info.oldestLedgerVersion.toString(),
    ledger_timestamp: info.ledgerTimestampUsec.toString(),
    node_role: { FullNode: null },
    oldest_block_height: info.oldestBlockHeight.toString(),
    block_height: info.blockHeight.toString(),
  });
}

type ExecutionStatusInput = Extract<TransactionDataBcsInput, { OnChain: unknown }>["OnChain"]["info"]["V0"]["status"];

function executionStatusInput(status: ExecutionStatus): ExecutionStatusInput {
  switch (status.kind) {
    case "success":
      return { Success: null };
    case "out_of_gas":
      return { OutOfGas: null };
    case "move_abort":
      // info None: the node keeps no module error maps beside its vm_status text.
      return { MoveAbort: { location: { Module: status.module }, code: status.code, info: null } };
    case "miscellaneous_error":
      return { MiscellaneousError: status.statusCode };
  }
}

/**
 * GET /v1/transactions/by_hash/{hash} as aptos-core's TransactionData (api/src/transactions.rs
 * `get_transaction_inner`, BCS arm): a pending transaction is `Pending(SignedTransaction)`; a committed
 * one `OnChain(TransactionOnChainData)` with the same stand-ins the JSON form states (json-forms.ts
 * transactionByHashJson): the TransactionInfo hashes of ledger/transaction-hashes.ts, no state checkpoint
 * or auxiliary info hash, no events, and an empty write set, as the JSON's `changes` is [].
 */
export function transactionByHashBcs(found: TransactionByHash): Uint8Array {
  if (found.kind === "pending") return encodeBcs(TransactionDataBcs, { Pending: found.signed });
  return encodeBcs(TransactionDataBcs, {
    OnChain: {
      version: found.version,
      transaction: { UserTransaction: found.signed },
      info: {
        V0: {
          gas_used: found.gasUsed,
          status: executionStatusInput(found.status),
          transaction_hash: found.hash,
          event_root_hash: found.eventRootHash,
          state_change_hash: found.stateChangeHash,
          state_checkpoint_hash: null,
          auxiliary_info_hash: null,
        },
      },
      events: [],
      accumulator_root_hash: found.accumulatorRootHash,
      changes: { V0: [] },
    },
  });
}
