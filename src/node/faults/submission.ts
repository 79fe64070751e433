// Faults in submission (§4.8): validation steps skipped (signature, chain id, sequence number), and
// the same transaction hash written for different transactions.
//
// A node that skips a validation step takes the transaction into its mempool and answers 202; the VM
// discards it later. That is what these faults do: they answer 202 with the pending transaction where
// the engine refused it for the one reason the fault overlooks, and the transaction never commits.

import {
  encodeSignedTransaction,
  parseAddress,
  signedTransactionToJson,
  toHex,
  transactionHash,
  type FunctionParams,
  type SignedTransaction,
} from "../../codec/index.ts";
import { LedgerError, type LedgerApi, type SubmitResult } from "../ledger/api.ts";
import { VmStatus } from "../ledger/vm-status.ts";
import { overrideApi, rewriteJsonSuccess, type Fault, type FaultContext } from "./fault.ts";

const SIGNER_PARAM = /^&?\s*signer$/;

/** The non-signer parameters of an entry function, from the module's ABI as the API serves it. */
function functionParamsOf(api: LedgerApi): FunctionParams {
  return (moduleAddress, moduleName, functionName) => {
    try {
      const fn = api
        .getModule(parseAddress(moduleAddress), moduleName)
        .abi.exposed_functions.find((f) => f.name === functionName && f.is_entry);
      if (fn === undefined) return undefined;
      const first = fn.params.findIndex((p) => !SIGNER_PARAM.test(p.trim()));
      return first < 0 ? [] : fn.params.slice(first);
    } catch {
      return undefined;
    }
  };
}

/** The 202 a node gives a transaction it takes into its mempool without the check that refuses it. */
export function takenAnyway(api: LedgerApi, signed: SignedTransaction, { domain }: FaultContext): SubmitResult {
  const hash = transactionHash(encodeSignedTransaction(signed), domain);
  let json: Record<string, unknown> = {};
  try {
    json = signedTransactionToJson(signed, { functionParams: functionParamsOf(api) });
  } catch {
    // No JSON form (an unknown function): the hash alone still identifies it.
  }
  return { hash, signed, pendingJson: { hash: toHex(hash), ...json } };
}

/** A submit that answers 202 where the engine refuses `signed` with a VM status `overlooks` takes. */
export function overlookingWhere(overlooks: (vmStatus: number, signed: SignedTransaction, ctx: FaultContext) => boolean) {
  return (api: LedgerApi, ctx: FaultContext): LedgerApi =>
    overrideApi(api, {
      submit: (signed) => {
        try {
          return api.submit(signed);
        } catch (error) {
          if (error instanceof LedgerError && error.code === "vm_error" && overlooks(error.vmErrorCode ?? -1, signed, ctx))
            return takenAnyway(api, signed, ctx);
          throw error;
        }
      },
    });
}

/** A submit that answers 202 where the engine refuses with one of these VM statuses. */
const overlooking = (statuses: readonly number[]) => overlookingWhere((status) => statuses.includes(status));

/** A submit that refuses first, with `refusal`, the transactions `refuses` picks. */
export function refusing(refuses: (signed: SignedTransaction) => boolean, refusal: () => LedgerError) {
  return (api: LedgerApi): LedgerApi =>
    overrideApi(api, {
      submit: (signed) => {
        if (refuses(signed)) throw refusal();
        return api.submit(signed);
      },
    });
}

const signatureNotVerified: Fault = {
  name: "signature-not-verified",
  area: "submission",
  description: "takes a submission into the mempool without verifying its signature",
  breaks: ["4.8/tampered-signature-rejected"],
  engine: overlooking([VmStatus.INVALID_SIGNATURE]),
};

const staleSequenceNumberAccepted: Fault = {
  name: "stale-sequence-number-accepted",
  area: "submission",
  description: "accepts a sequence number the account has already used (checked only when the block executes)",
  breaks: ["4.8/stale-sequence-number-rejected"],
  engine: overlooking([VmStatus.SEQUENCE_NUMBER_TOO_OLD]),
};

const summaryHashRepeated: Fault = {
  name: "summary-hash-repeated",
  area: "submission",
  description: "writes the first summary's transaction_hash on every summary of a page (the hash taken once, outside the loop)",
  breaks: ["4.3/transaction-hash-distinct"],
  http: (app) => {
    app.addHook(
      "onSend",
      rewriteJsonSuccess(["/v1/accounts/:address/transaction_summaries"], (body) => {
        const summaries = body as { transaction_hash?: string }[];
        const first = summaries[0]?.transaction_hash;
        return summaries.map((s) => ({ ...s, transaction_hash: first }));
      }),
    );
  },
};

export const SUBMISSION_FAULTS: readonly Fault[] = [signatureNotVerified, staleSequenceNumberAccepted, summaryHashRepeated];
