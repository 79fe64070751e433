// How a payload fails: a Failure carries the VM status text and aptos-core's ExecutionStatus, thrown
// out of the payload and caught by the executor, which keeps the transaction on the ledger with it.

import { parseAddress } from "../../codec/index.ts";
import type { ExecutionStatus } from "./api.ts";
import { VmStatus, type VmStatusName } from "./vm-status.ts";

const FRAMEWORK = parseAddress("0x1");

export class Failure extends Error {
  constructor(
    readonly vmStatus: string,
    readonly status: ExecutionStatus,
  ) {
    super(vmStatus);
  }
}

/** OUT_OF_GAS is ExecutionStatus::OutOfGas; the other kept statuses are MiscellaneousError(Some(code)). */
export const failure = (status: VmStatusName, detail?: string): Failure =>
  new Failure(
    detail === undefined ? status : `${status}: ${detail}`,
    status === "OUT_OF_GAS" ? { kind: "out_of_gas" } : { kind: "miscellaneous_error", statusCode: VmStatus[status] },
  );
export const fail = (status: VmStatusName, detail?: string): never => {
  throw failure(status, detail);
};

/** A Move abort in the framework module 0x1::`module`, with the reason its error constant names. */
export const abortFailure = (module: string, reason: string, code: number, detail: string): Failure =>
  new Failure(`Move abort in 0x1::${module}: ${reason}(0x${code.toString(16)}): ${detail}`, {
    kind: "move_abort",
    module: { address: FRAMEWORK, name: module },
    code: BigInt(code),
  });
export const abort = (module: string, reason: string, code: number, detail: string): never => {
  throw abortFailure(module, reason, code, detail);
};
