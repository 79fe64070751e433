// BCS forms of 200 bodies, with the codec's read-response types (docs/architecture.md).

import {
  encodeBcs,
  GasEstimationBcs,
  HealthBcs,
  ModuleBytecodeBcs,
  ModuleListBcs,
  TransactionSummaryListBcs,
} from "../../codec/index.ts";
import type { GasEstimate, ModuleRecord, TransactionSummary } from "../ledger/api.ts";

export function moduleBcs(record: ModuleRecord): Uint8Array {
  return encodeBcs(ModuleBytecodeBcs, record.bytecode);
}

export function moduleListBcs(records: readonly ModuleRecord[]): Uint8Array {
  return encodeBcs(ModuleListBcs, records.map((record) => record.bytecode));
}

export function transactionSummariesBcs(summaries: readonly TransactionSummary[]): Uint8Array {
  return encodeBcs(TransactionSummaryListBcs, 
    summaries.map((summary) => ({
      sender: summary.sender,
      version: summary.version,
      transaction_hash: summary.hash,
      replay_protector:
        summary.replayProtector.type === "sequence_number"
          ? { SequenceNumber: summary.replayProtector.sequenceNumber }
          : { Nonce: summary.replayProtector.nonce },
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
