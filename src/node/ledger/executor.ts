// Applies a validated transaction to the latest state. Coin transfers (0x1::aptos_account::transfer and
// transfer_coins, 0x1::coin::transfer, for AptosCoin) move balances; 0x1::code::publish_package_txn
// publishes modules at the sender (package-publish.ts); every other entry function of a published
// module is resolved against its ABI (arguments decoded by their parameter types) and then executes as
// a no-op; a script that passes its parameters to one public function runs as that call, any other
// well-formed script whose calls resolve as a no-op (runScript). A sponsored transaction from an address without an
// account creates that account, whatever its payload's outcome. Whatever the payload's outcome, the epilogue charges
// the gas to the gas payer and bumps the sender's sequence number (an orderless transaction spends its
// nonce instead), as Aptos keeps failed transactions on the ledger. A multisig transaction runs its
// account's next approved proposal as that account (runMultisig).

import {
  decodeMoveValue,
  deserializeScript,
  formatAddress,
  MalformedModule,
  passThroughCall,
  scriptAbi,
  scriptArgumentBytes,
  UnsupportedModule,
  type CompiledScript,
  type Script,
  formatTypeTag,
  parseAddress,
  parseTypeTag,
  type EntryFunction,
  type SignedTransaction,
  type TypeTag,
} from "../../codec/index.ts";
import { abort, abortFailure, fail, Failure } from "./execution-failure.ts";
import { GAS, intrinsicGas } from "./gas-schedule.ts";
import { multisigRequestOf, nextProposal, proposalCall, resolveNextProposal, type MultisigRequest } from "./multisig.ts";
import { publishPackage } from "./package-publish.ts";
import { createsSender, newAccount, type PendingTransaction } from "./prologue.ts";
import type { ExecutionStatus } from "./api.ts";
import type { AccountState, LedgerState, StateWrite } from "./state.ts";
import { structResolver } from "./struct-resolver.ts";
import { TransactionOverlay } from "./transaction-overlay.ts";

export interface ExecutionOutcome {
  readonly writes: readonly StateWrite[];
  readonly gasUsed: bigint;
  readonly success: boolean;
  /** "Executed successfully", or what failed. */
  readonly vmStatus: string;
  /** The same outcome as aptos-core's ExecutionStatus records it. */
  readonly status: ExecutionStatus;
}

const EXECUTED = "Executed successfully";
const SIGNER = /^&?\s*signer$/;
const ADDRESS: TypeTag = parseTypeTag("address");
const U64: TypeTag = parseTypeTag("u64");
const APTOS_COIN = "0x1::aptos_coin::AptosCoin";
/** Addresses aptos_account::create_account refuses (ECANNOT_RESERVED_ADDRESS). */
const RESERVED = new Set(["0x0", "0x1", "0x3"]);

const SUCCESS: ExecutionStatus = { kind: "success" };

export class Executor {
  constructor(private readonly state: LedgerState) {}

  execute(txn: PendingTransaction, version: bigint): ExecutionOutcome {
    const raw = txn.signed.raw_txn;
    const latest = (address: Uint8Array) => this.state.latestAccount(address);
    // A sponsored sender without an account gets one before its payload runs, and keeps it when the
    // payload aborts: aptos-move/aptos-vm/src/aptos_vm.rs runs `create_account_if_does_not_exist` for
    // it in `finish_aborted_transaction` too (`is_account_init_for_sponsored_transaction`). The
    // creation is charged like any other (GAS.createAccount).
    const createSender = createsSender(txn, { account: latest });
    const withSender = (overlay: TransactionOverlay): TransactionOverlay => {
      if (createSender) overlay.set(txn.sender, newAccount(txn.sender));
      return overlay;
    };
    const latestMultisig = (address: Uint8Array) => this.state.latestMultisig(address);
    const overlay = () => new TransactionOverlay(latest, latestMultisig);
    const payloadEffects = withSender(overlay());
    let gasUsed = intrinsicGas(txn.bytes.length) + (createSender ? GAS.createAccount : 0n);
    let vmStatus = EXECUTED;
    let status = SUCCESS;
    try {
      gasUsed += this.runPayload(txn.signed, payloadEffects, version);
      if (gasUsed > raw.max_gas_amount) fail("OUT_OF_GAS");
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      vmStatus = error.vmStatus;
      status = error.status;
      if (gasUsed > raw.max_gas_amount) gasUsed = raw.max_gas_amount;
    }
    const fee = gasUsed * raw.gas_unit_price;
    // A payload that leaves the gas payer unable to pay is undone, as Aptos' failure epilogue does.
    if (vmStatus === EXECUTED && (payloadEffects.get(txn.gasPayer)?.balance ?? 0n) < fee) {
      const unpaid = abortFailure("coin", "EINSUFFICIENT_BALANCE", 0x10006, "not enough coins left to pay the fee");
      vmStatus = unpaid.vmStatus;
      status = unpaid.status;
    }
    const success = vmStatus === EXECUTED;
    const effects = success ? payloadEffects : withSender(overlay());

    const payer = effects.get(txn.gasPayer) as AccountState;
    effects.set(txn.gasPayer, { ...payer, balance: payer.balance - fee });
    if (txn.replayProtector.type === "sequence_number") {
      const sender = effects.get(txn.sender) as AccountState;
      effects.set(txn.sender, { ...sender, sequenceNumber: sender.sequenceNumber + 1n });
    }
    return { writes: effects.writes(), gasUsed, success, vmStatus, status };
  }

  /** Runs the payload into `effects`; returns the gas it used beyond the intrinsic cost. Throws Failure. */
  private runPayload(signed: SignedTransaction, effects: TransactionOverlay, version: bigint): bigint {
    const payload = signed.raw_txn.payload;
    switch (payload.$kind) {
      case "EntryFunction":
        return this.runEntryFunction(signed.raw_txn.sender, payload.EntryFunction, effects, version);
      case "Payload": {
        const executable = payload.Payload.V1.executable;
        const multisig = multisigRequestOf(signed);
        if (multisig !== undefined) return this.runMultisig(multisig, effects, version);
        if (executable.$kind === "EntryFunction")
          return this.runEntryFunction(signed.raw_txn.sender, executable.EntryFunction, effects, version);
        if (executable.$kind === "Script") return this.runScript(signed.raw_txn.sender, executable.Script, effects, version);
        return GAS.noop;
      }
      case "Script":
        return this.runScript(signed.raw_txn.sender, payload.Script, effects, version);
      case "Multisig": {
        const multisig = multisigRequestOf(signed);
        return multisig === undefined ? GAS.noop : this.runMultisig(multisig, effects, version);
      }
      case "ModuleBundle":
        // The prologue keeps module bundles out.
        return GAS.noop;
    }
  }

  /**
   * A multisig transaction the prologue validated (multisig.ts): the proposal's entry function runs as
   * the multisig account, in effects of its own that are kept only when it succeeds; either way the
   * proposal is resolved and the transaction itself succeeds, as aptos-core's VM records the inner
   * failure in an event (aptos-move/aptos-vm/src/aptos_vm.rs `execute_multisig_transaction`,
   * `failure_multisig_payload_cleanup`).
   */
  private runMultisig(request: MultisigRequest, effects: TransactionOverlay, version: bigint): bigint {
    const account = effects.getMultisig(request.address);
    const proposal = account === undefined ? undefined : nextProposal(account).proposal;
    if (account === undefined || proposal === undefined) return fail("MULTISIG_TRANSACTION_NOT_FOUND", "no proposal to execute");
    let gas = GAS.noop;
    const call = proposalCall(request, proposal);
    if (call !== undefined) {
      const inner = effects.child();
      try {
        gas += this.runEntryFunction(request.address, call, inner, version);
        effects.mergeFrom(inner);
      } catch (error) {
        if (!(error instanceof Failure)) throw error;
      }
    }
    effects.setMultisig(request.address, resolveNextProposal(account));
    return gas;
  }

  /**
   * A script, as aptos-core's VM runs one (aptos-move/aptos-vm/src/aptos_vm.rs `execute_script_or_entry_function`
   * over move-vm `execute_script`): its type arguments and arguments (by count and type) must fit main, every function it
   * calls must resolve to a public function of a published module (a script may call nothing else), and
   * then it runs. A script that only passes its parameters to one function (passThroughCall) runs as
   * that call with the script's arguments; any other well-formed script runs as a no-op.
   */
  private runScript(sender: Uint8Array, script: Script, effects: TransactionOverlay, version: bigint): bigint {
    let compiled: CompiledScript;
    try {
      compiled = deserializeScript(script.code);
    } catch (error) {
      if (error instanceof UnsupportedModule) return GAS.noop;
      if (error instanceof MalformedModule) return fail("CODE_DESERIALIZATION_ERROR", error.message);
      throw error;
    }
    if (compiled.typeParameters.length !== script.ty_args.length)
      return fail("NUMBER_OF_TYPE_ARGUMENTS_MISMATCH", `the script takes ${compiled.typeParameters.length} type arguments`);
    const abi = scriptAbi(compiled);
    const params = abi.params.filter((p) => !SIGNER.test(p.trim()));
    if (params.length !== script.args.length)
      return fail("NUMBER_OF_ARGUMENTS_MISMATCH", `the script takes ${params.length} arguments, got ${script.args.length}`);
    for (const handle of compiled.functionHandles) {
      const module = compiled.moduleHandles[handle.module];
      const address = module && compiled.addresses[module.address];
      const moduleName = module && compiled.identifiers[module.name];
      const name = compiled.identifiers[handle.name];
      if (address === undefined || moduleName === undefined || name === undefined)
        return fail("LINKER_ERROR", "a call the script cannot name");
      const record = this.state.module(address, moduleName, version);
      if (record === undefined) return fail("LINKER_ERROR", `module ${formatAddress(address)}::${moduleName} is not published`);
      const callee = record.abi.exposed_functions.find((f) => f.name === name && f.visibility === "public");
      if (callee === undefined)
        return fail("FUNCTION_RESOLUTION_FAILURE", `${formatAddress(address)}::${moduleName}::${name} is not a public function`);
    }
    const args = script.args.map(scriptArgumentBytes);
    const resolve = structResolver(this.state, version);
    params.forEach((param, i) => {
      try {
        decodeMoveValue(parseTypeTag(param, { generics: script.ty_args }), args[i] as Uint8Array, resolve);
      } catch {
        fail("FAILED_TO_DESERIALIZE_ARGUMENT", `argument ${i} of the script is not a ${param}`);
      }
    });
    const target = passThroughCall(compiled);
    if (target === undefined) return GAS.noop;
    const call: EntryFunction = {
      module: { address: target.address, name: target.module },
      function: target.function,
      ty_args: script.ty_args,
      args,
    };
    return this.runCall(sender, call, effects, version, "script");
  }

  private runEntryFunction(sender: Uint8Array, call: EntryFunction, effects: TransactionOverlay, version: bigint): bigint {
    return this.runCall(sender, call, effects, version, "entry");
  }

  /** A call of an entry function (a transaction's payload) or of a public one (from a script). */
  private runCall(sender: Uint8Array, call: EntryFunction, effects: TransactionOverlay, version: bigint, from: "entry" | "script"): bigint {
    const module = formatAddress(call.module.address);
    const id = `${module}::${call.module.name}::${call.function}`;
    const record = this.state.module(call.module.address, call.module.name, version);
    if (record === undefined) return fail("LINKER_ERROR", `module ${module}::${call.module.name} is not published`);
    const abi = record.abi.exposed_functions.find((f) => f.name === call.function);
    if (abi === undefined) return fail("FUNCTION_RESOLUTION_FAILURE", `${id} does not exist`);
    if (from === "entry" && !abi.is_entry)
      return fail("EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION", `${id} is not an entry function`);
    if (abi.generic_type_params.length !== call.ty_args.length)
      return fail("NUMBER_OF_TYPE_ARGUMENTS_MISMATCH", `${id} takes ${abi.generic_type_params.length} type arguments`);
    const params = abi.params.filter((p) => !/^&?\s*signer$/.test(p.trim()));
    if (params.length !== call.args.length)
      return fail("NUMBER_OF_ARGUMENTS_MISMATCH", `${id} takes ${params.length} arguments, got ${call.args.length}`);
    const resolve = structResolver(this.state, version);
    params.forEach((param, i) => {
      try {
        decodeMoveValue(parseTypeTag(param, { generics: call.ty_args }), call.args[i] as Uint8Array, resolve);
      } catch {
        fail("FAILED_TO_DESERIALIZE_ARGUMENT", `argument ${i} of ${id} is not a ${param}`);
      }
    });

    const coinType = call.ty_args[0] === undefined ? undefined : formatTypeTag(call.ty_args[0]);
    const argument = (i: number, tag: TypeTag) => decodeMoveValue(tag, call.args[i] as Uint8Array) as string;
    const to = () => parseAddress(argument(0, ADDRESS));
    const amount = () => BigInt(argument(1, U64));
    switch (id) {
      case "0x1::aptos_account::transfer":
        return transfer(effects, sender, to(), amount(), true);
      case "0x1::aptos_account::transfer_coins":
        if (coinType !== APTOS_COIN) return abort("coin", "ECOIN_INFO_NOT_PUBLISHED", 0x60002, `${coinType} is not a coin on this chain`);
        return transfer(effects, sender, to(), amount(), true);
      case "0x1::coin::transfer":
        if (coinType !== APTOS_COIN) return abort("coin", "ECOIN_INFO_NOT_PUBLISHED", 0x60002, `${coinType} is not a coin on this chain`);
        return transfer(effects, sender, to(), amount(), false);
      case "0x1::code::publish_package_txn":
        return publishPackage(sender, call.args as [Uint8Array, Uint8Array], effects);
      default:
        return GAS.noop;
    }
  }
}

function transfer(effects: TransactionOverlay, from: Uint8Array, to: Uint8Array, amount: bigint, createRecipient: boolean): bigint {
  let gas = GAS.transfer;
  const source = effects.get(from) as AccountState;
  if (source.balance < amount) abort("coin", "EINSUFFICIENT_BALANCE", 0x10006, "not enough coins to complete the transfer");
  let target = effects.get(to);
  if (target === undefined) {
    if (!createRecipient) abort("coin", "ECOIN_STORE_NOT_PUBLISHED", 0x60005, `${formatAddress(to)} has no CoinStore<AptosCoin>`);
    if (RESERVED.has(formatAddress(to)))
      abort("account", "ECANNOT_RESERVED_ADDRESS", 0x10005, "cannot create an account at a reserved address");
    // A fresh account's authentication key is its address.
    target = newAccount(to);
    gas += GAS.createAccount;
  }
  effects.set(from, { ...source, balance: source.balance - amount });
  const recipient = effects.get(to) ?? target;
  effects.set(to, { ...recipient, balance: recipient.balance + amount });
  return gas;
}
