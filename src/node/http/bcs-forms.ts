// BCS forms of 200 bodies, with the codec's read-response types: aptos-core's layouts (design §5; the
// codec cites the aptos-core source of each), in both profiles.

import {
  encodeBcs,
  GasEstimationBcs,
  HealthBcs,
  ModuleBytecodeBcs,
  moduleIdString,
  ModuleMapBcs,
  TransactionSummaryListBcs,
} from "../../codec/index.ts";
import type { AddressBytes, GasEstimate, ModuleRecord, TransactionSummary } from "../ledger/api.ts";

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
