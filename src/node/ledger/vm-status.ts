// The VM status codes the engine reports as `vm_error_code` (aptos-core move-core-types vm_status.rs,
// StatusCode), and the 400 vm_error a rejected submission answers with.

import { LedgerError } from "./api.ts";

export const VmStatus = {
  INVALID_SIGNATURE: 1,
  INVALID_AUTH_KEY: 2,
  SEQUENCE_NUMBER_TOO_OLD: 3,
  SEQUENCE_NUMBER_TOO_NEW: 4,
  INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE: 5,
  TRANSACTION_EXPIRED: 6,
  SENDING_ACCOUNT_DOES_NOT_EXIST: 7,
  MAX_GAS_UNITS_EXCEEDS_MAX_GAS_UNITS_BOUND: 13,
  MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS: 14,
  GAS_UNIT_PRICE_BELOW_MIN_BOUND: 15,
  GAS_UNIT_PRICE_ABOVE_MAX_BOUND: 16,
  BAD_CHAIN_ID: 23,
  SIGNERS_CONTAIN_DUPLICATES: 28,
  SEQUENCE_NONCE_INVALID: 29,
  ACCOUNT_NOT_MULTISIG: 31,
  NOT_MULTISIG_OWNER: 32,
  MULTISIG_TRANSACTION_NOT_FOUND: 33,
  MULTISIG_TRANSACTION_INSUFFICIENT_APPROVALS: 34,
  MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH_HASH: 35,
  GAS_PAYER_ACCOUNT_MISSING: 36,
  // Execution outcomes: named in the vm status of committed transactions, never sent as a submission error.
  LINKER_ERROR: 1081,
  NUMBER_OF_TYPE_ARGUMENTS_MISMATCH: 1076,
  NUMBER_OF_ARGUMENTS_MISMATCH: 1098,
  FAILED_TO_DESERIALIZE_ARGUMENT: 1100,
  FUNCTION_RESOLUTION_FAILURE: 1091,
  EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION: 1103,
  // Publishing modules (package-publish.ts).
  MODULE_ADDRESS_DOES_NOT_MATCH_SENDER: 1067,
  CONSTRAINT_NOT_SATISFIED: 1075,
  CODE_DESERIALIZATION_ERROR: 3024,
  OUT_OF_GAS: 4002,
} as const;
export type VmStatusName = keyof typeof VmStatus;

/** A submission rejected by validation: 400 vm_error with the status code, named in the message as Aptos does. */
export function vmError(status: VmStatusName, detail: string): LedgerError {
  return new LedgerError(400, "vm_error", `Invalid transaction: Type: Validation Code: ${status}: ${detail}`, VmStatus[status]);
}
